package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake/intaketest"

	"github.com/masrl/masrl/internal/corpustest"
)

// built is the masrl binary the package's tests run as a separate
// process (the kill test needs a real process of its own to kill, the
// install tests the command as a user installs it), built once for all
// of them: each test linking its own was five links of the whole
// command in one go test run. The tests only run it, so sharing it
// changes nothing they check. TestMain removes its directory
// (removingBuild).
var built struct {
	once sync.Once
	dir  string // the temporary directory holding the binary
	bin  string
	err  error
}

// builtMasrl builds cmd/masrl (go build, as go install would) the first
// time a test asks and returns the binary's path.
func builtMasrl(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "masrl-cmd-test-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "masrl")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// removingBuild runs the tests and then removes builtMasrl's binary,
// whatever their outcome (testscript.Main exits when they end).
type removingBuild struct{ m *testing.M }

func (r removingBuild) Run() int {
	code := r.m.Run()
	if built.dir != "" {
		if err := os.RemoveAll(built.dir); err != nil {
			fmt.Fprintln(os.Stderr, "removing the built masrl:", err)
		}
	}
	return code
}

// exitCode runs cmd and returns its exit code, stdout and stderr.
func exitCode(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatalf("%v: %v", cmd.Args, err)
	return 0, "", ""
}

// TestAddKilledMidEdit kills masrl add (SIGKILL) at a step of its write
// (MASRL_TEST_EDIT_PAUSE, editPauseEnv) and holds the corpus to what the
// transaction promises: killed after papers.bib was replaced and before
// papers.csv was, masrl check fails and names the journal and masrl
// recover, the same add refuses to start, masrl recover completes the
// edit, check then passes and the same add says the paper is already
// there; killed before the journal was written, the corpus is as before
// and the same add simply works.
func TestAddKilledMidEdit(t *testing.T) {
	bin := builtMasrl(t)
	srv := intaketest.New(filepath.Join("..", "..", "upkeep", "intake", "testdata"))
	defer srv.Close()
	addArgs := func(dir string) []string {
		return []string{"add", "https://arxiv.org/abs/2606.01234v2", "--corpus", dir, "--arxiv-api", srv.ArxivAPI,
			"--tag", "category=rl_method", "--tag", "is_rl=yes", "--tag", "reward_type=shared", "--tag", "credit_granularity=message",
			"--tag", "orchestration_form=centralized", "--tag", "scenario=coding", "--tag", "is_core=supporting", "--tag", "verified=partial",
			"--one-liner", "Learns a message router for coding agents with PPO", "--profile", "survey"}
	}
	masrl := func(args ...string) *exec.Cmd { return exec.Command(bin, args...) }
	// killedAt runs the add until it pauses at step, then kills it.
	killedAt := func(t *testing.T, dir, step string) {
		t.Helper()
		cmd := masrl(addArgs(dir)...)
		cmd.Env = append(os.Environ(), editPauseEnv+"="+step)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		paused := false
		var said []string
		for !paused && sc.Scan() {
			said = append(said, sc.Text())
			paused = strings.Contains(sc.Text(), "masrl: paused at")
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if !paused {
			t.Fatalf("masrl add never paused at %q; it said:\n%s", step, strings.Join(said, "\n"))
		}
	}
	fresh := func(t *testing.T) (string, []byte, []byte) {
		dir := filepath.Join(t.TempDir(), "c")
		if err := os.CopyFS(dir, os.DirFS(corpustest.Dir(t))); err != nil {
			t.Fatal(err)
		}
		// add writes canonical form: start from it, as a maintained list is.
		if code, _, errs := exitCode(t, masrl("fmt", "--corpus", dir)); code != 0 {
			t.Fatalf("fmt: exit %d: %s", code, errs)
		}
		csv, _ := os.ReadFile(filepath.Join(dir, corpus.PapersFile))
		bib, _ := os.ReadFile(filepath.Join(dir, corpus.BibFile))
		return dir, csv, bib
	}
	read := func(dir, name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}

	t.Run("between the renames", func(t *testing.T) {
		dir, csv0, _ := fresh(t)
		killedAt(t, dir, "renamed "+corpus.BibFile)
		if !strings.Contains(read(dir, corpus.BibFile), "@article{orchestrarl2026,") {
			t.Fatal("papers.bib was not replaced before the kill: the test did not stop where it meant to")
		}
		if read(dir, corpus.PapersFile) != string(csv0) {
			t.Fatal("papers.csv was replaced before the kill: the test did not stop where it meant to")
		}
		journal := filepath.Join(dir, corpus.JournalFile)
		code, out, _ := exitCode(t, masrl("check", "--corpus", dir, "--profile", "survey"))
		if code != 1 || !strings.Contains(out, journal+": error:") || !strings.Contains(out, "masrl recover --corpus "+dir) {
			t.Fatalf("check on the interrupted corpus: exit %d, want 1 naming %s and masrl recover:\n%s", code, journal, out)
		}
		code, _, errs := exitCode(t, masrl(addArgs(dir)...))
		if code != 2 || !strings.Contains(errs, "masrl recover --corpus "+dir) || !strings.Contains(errs, "no file was changed") {
			t.Fatalf("the same add on the interrupted corpus: exit %d, want 2 and masrl recover:\n%s", code, errs)
		}
		code, out, errs = exitCode(t, masrl("recover", "--corpus", dir))
		if code != 0 || !strings.Contains(out, "replaced "+filepath.Join(dir, corpus.PapersFile)) || strings.Contains(out, corpus.BibFile) {
			t.Fatalf("recover: exit %d, want 0 replacing papers.csv alone:\n%s%s", code, out, errs)
		}
		if _, err := os.Lstat(journal); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the journal is still there after recover: %v", err)
		}
		if !strings.Contains(read(dir, corpus.PapersFile), "\norchestrarl,OrchestraRL") {
			t.Fatal("papers.csv has no row orchestrarl after recover")
		}
		code, out, _ = exitCode(t, masrl("check", "--corpus", dir, "--profile", "survey"))
		if code != 0 || !strings.Contains(out, "85 entries") {
			t.Fatalf("check after recover: exit %d, want 0 with 85 entries:\n%s", code, out)
		}
		code, _, errs = exitCode(t, masrl(addArgs(dir)...))
		if code != 1 || !strings.Contains(errs, "is already in the corpus") {
			t.Fatalf("the same add after recover: exit %d, want 1, already in the corpus:\n%s", code, errs)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".masrl-edit") {
				t.Errorf("%s left in the corpus after recover", e.Name())
			}
		}
	})

	t.Run("before the journal", func(t *testing.T) {
		dir, csv0, bib0 := fresh(t)
		killedAt(t, dir, "staged")
		if read(dir, corpus.PapersFile) != string(csv0) || read(dir, corpus.BibFile) != string(bib0) {
			t.Fatal("a corpus file changed before the edit was decided")
		}
		if code, out, _ := exitCode(t, masrl("check", "--corpus", dir, "--profile", "survey")); code != 0 || !strings.Contains(out, "84 entries") {
			t.Fatalf("check after a kill before the journal: exit %d, want 0 with 84 entries:\n%s", code, out)
		}
		if code, out, errs := exitCode(t, masrl(addArgs(dir)...)); code != 0 || !strings.Contains(out, "added orchestrarl") {
			t.Fatalf("the same add again: exit %d, want 0:\n%s%s", code, out, errs)
		}
		if code, out, _ := exitCode(t, masrl("check", "--corpus", dir, "--profile", "survey")); code != 0 || !strings.Contains(out, "85 entries") {
			t.Fatalf("check after the add: exit %d, want 0 with 85 entries:\n%s", code, out)
		}
		// The temporary files of the killed add are left, and the next
		// recover removes them.
		if code, out, errs := exitCode(t, masrl("recover", "--corpus", dir)); code != 0 || !strings.Contains(out, "no interrupted edit") {
			t.Fatalf("recover: exit %d:\n%s%s", code, out, errs)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".masrl-edit") {
				t.Errorf("%s left in the corpus after recover", e.Name())
			}
		}
	})
}
