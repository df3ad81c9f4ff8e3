//go:build unix

package outdir

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/masrl/masrl/internal/corpustest"
)

// killSiteFiles is how many files each build of the kill test writes.
const killSiteFiles = 300

// killSite is build v's site: every file names v, so that a mix of two
// builds shows.
func killSite(v int) map[string]string {
	m := make(map[string]string, killSiteFiles)
	for i := range killSiteFiles {
		m[fmt.Sprintf("papers/p%03d/index.html", i)] = fmt.Sprintf("build %d\n%s", v, strings.Repeat("x", 2000+i%7*v))
	}
	m["index.html"] = fmt.Sprintf("build %d\n", v)
	return m
}

// TestKilledBuilds kills a process that builds into one output over and
// over (kill -9, at whatever moment it is in: sweeping, writing, marking
// or exchanging), and checks after each kill that the output holds one
// whole build, that its mark is there, and that the next build accepts
// the output and its buffer (a half-written mark must never make masrl
// refuse its own directories).
func TestKilledBuilds(t *testing.T) {
	if out := os.Getenv("MASRL_OUTDIR_KILL_TEST"); out != "" {
		v0 := 1
		fmt.Sscan(os.Getenv("MASRL_OUTDIR_KILL_FROM"), &v0)
		// A bound, so that a builder whose test died does not run on.
		for v := v0; v < v0+100; v++ {
			if err := buildContent(t, out, killSite(v)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
			fmt.Println(v)
		}
		os.Exit(0)
	}
	out := filepath.Join(t.TempDir(), "public")
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 10 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledBuilds$")
		cmd.Env = append(os.Environ(), "MASRL_OUTDIR_KILL_TEST="+out, fmt.Sprintf("MASRL_OUTDIR_KILL_FROM=%d", 1000*(round+1)))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once it has built, it is killed at a random moment of the
		// builds that follow.
		bufio.NewReader(stdout).ReadString('\n')
		time.Sleep(time.Duration(rng.IntN(40000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the builder ended before it was killed: %v\n%s", round, err, stderr.String())
		}
		if _, err := os.Lstat(out); err != nil {
			continue // killed before its first exchange
		}
		got := corpustest.ReadTree(t, out)
		mark := got[MarkName]
		delete(got, MarkName)
		v := 0
		fmt.Sscanf(got["index.html"], "build %d", &v)
		if want := killSite(v); v == 0 || len(got) != len(want) {
			t.Fatalf("round %d: the output holds %d files of build %d, want a whole build", round, len(got), v)
		} else {
			for name, b := range want {
				if got[name] != b {
					t.Fatalf("round %d: %s is not build %d's", round, name, v)
				}
			}
		}
		t.Logf("round %d: killed after build %d was published", round, v)
		if !strings.HasPrefix(mark, markHead) {
			t.Fatalf("round %d: the output's mark is %q", round, mark)
		}
		if err := checkOutDir(out); err != nil {
			t.Fatalf("round %d: after a kill the next build is refused: %v", round, err)
		}
	}
	if err := buildContent(t, out, killSite(0)); err != nil {
		t.Fatal(err)
	}
}
