package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
)

// ContentHash hashes the corpus files in a fixed order, each with its name
// and length, so a version names its snapshot: the same files give the
// same hash on any machine, and any change gives another. A missing
// optional file counts as absent, which is different from empty. The
// files are read as Load reads them: a link out of the corpus
// directory is an error, never hashed or copied into a release.
func ContentHash(dir string) (string, error) {
	h := sha256.New()
	for _, name := range []string{PapersFile, ExcludedFile, BibFile, SpotcheckFile} {
		b, err := ReadFile(dir, name)
		if errors.Is(err, os.ErrNotExist) {
			if name == PapersFile {
				return "", err
			}
			fmt.Fprintf(h, "%s absent\n", name)
			continue
		}
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
