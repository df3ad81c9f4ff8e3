package corpus

import (
	"errors"
	"fmt"
	"github.com/masrl/masrl/internal/atomicfile"
	"os"
	"path/filepath"
	"slices"
)

// WriteFiles replaces files of the directory dir (name → new content)
// together: the writer of what masrl writes beside the corpus (a README's
// list, the issue form, CITATION.cff). The corpus files themselves are
// written by Apply, whose journal also survives a killed process. Every
// new content is first written and synced to a temporary file beside its
// target, and only when all of them are on disk
// are they renamed over the targets. A rename is atomic, so a reader never
// sees half a file; if a later rename fails, the files already replaced
// get their old content back, so a failure leaves the old corpus, not a
// mix of the two. New files keep the mode of the file they replace (0644
// when there is none).
func WriteFiles(dir string, files map[string][]byte) (err error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	temps := map[string]string{}
	defer func() {
		for _, t := range temps {
			os.Remove(t) // gone after a rename; left behind after a failure
		}
	}()
	for _, n := range names {
		tmp, err := atomicfile.Stage(dir, n, files[n])
		if err != nil {
			return err
		}
		temps[n] = tmp
	}
	var done []string
	old := map[string][]byte{}
	for _, n := range names {
		target := filepath.Join(dir, n)
		if b, err := os.ReadFile(target); err == nil {
			old[n] = b
		}
		if err := os.Rename(temps[n], target); err != nil {
			var rerr error
			for _, d := range done {
				if b, ok := old[d]; ok {
					rerr = errors.Join(rerr, os.WriteFile(filepath.Join(dir, d), b, 0o644))
				} else {
					rerr = errors.Join(rerr, os.Remove(filepath.Join(dir, d)))
				}
			}
			return errors.Join(fmt.Errorf("replacing %s: %w", target, err), rerr)
		}
		delete(temps, n)
		done = append(done, n)
	}
	return nil
}
