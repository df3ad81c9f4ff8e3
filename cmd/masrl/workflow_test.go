package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"
)

// TestWorkflowScripts runs the shell steps of the repository's workflows
// (testdata/workflow-script) against fixture lists, with masrl on PATH
// and a stand-in for gh, so that what a workflow does on a tag is tested
// and not only linted (actionlint checks the syntax).
func TestWorkflowScripts(t *testing.T) {
	workflows, err := filepath.Abs(filepath.Join("..", "..", ".github", "workflows"))
	if err != nil {
		t.Fatal(err)
	}
	corpusDir := corpustest.Dir(t)
	cmds := statsScriptCmds()
	cmds["workflow-steps"] = workflowSteps
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "workflow-script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("WORKFLOWS", workflows)
			env.Setenv("CORPUS", corpusDir)
			return nil
		},
		Cmds: cmds,
	})
}

// workflowSteps is the script command
//
//	workflow-steps FILE JOB OUT [SKIP]...
//
// which writes OUT, a bash script that runs the `run` steps of JOB in the
// workflow FILE in order, as a runner does: each in its own bash -eo
// pipefail with its env, its `if` honoured and its $GITHUB_OUTPUT kept
// for later steps' ${{ steps.ID.outputs.NAME }}. Steps named in SKIP and
// steps that use an action are left out. The script stops at the first
// step that fails, with its status. An `if` or an expression it cannot
// evaluate is an error, so the test cannot silently run less than the
// workflow does.
func workflowSteps(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: workflow-steps FILE JOB OUT [SKIP]...")
	}
	src, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				ID   string            `yaml:"id"`
				Name string            `yaml:"name"`
				If   string            `yaml:"if"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	ts.Check(yaml.Unmarshal(src, &wf))
	job, ok := wf.Jobs[args[1]]
	if !ok {
		ts.Fatalf("%s has no job %s", args[0], args[1])
	}
	skip := args[3:]
	output := regexp.MustCompile(`^\$\{\{\s*steps\.([a-z0-9_-]+)\.outputs\.([a-z0-9_]+)\s*\}\}$`)
	condition := regexp.MustCompile(`^steps\.([a-z0-9_-]+)\.outputs\.([a-z0-9_]+) == '([^']*)'$`)
	dir := ts.MkAbs(args[2] + ".d")
	ts.Check(os.MkdirAll(dir, 0o755))
	var b strings.Builder
	b.WriteString("set -u\nout() { sed -n \"s/^$2=//p\" \"$RUNNER_TEMP/.out-$1\" 2>/dev/null | tail -n 1; }\n")
	for i, s := range job.Steps {
		if s.Run == "" || slices.Contains(skip, s.Name) {
			continue
		}
		if strings.Contains(s.Run, "${{") {
			ts.Fatalf("step %q: an expression inside run (pass it through env)", s.Name)
		}
		step := filepath.Join(dir, fmt.Sprintf("%d.sh", i))
		ts.Check(os.WriteFile(step, []byte(s.Run), 0o644))
		id := s.ID
		if id == "" {
			id = fmt.Sprintf("step%d", i)
		}
		fmt.Fprintf(&b, "echo '## %d' >&2\n", i)
		cond := strings.TrimSpace(s.If)
		if cond != "" {
			m := condition.FindStringSubmatch(cond)
			if m == nil {
				ts.Fatalf("step %q: cannot evaluate if: %s", s.Name, cond)
			}
			fmt.Fprintf(&b, "if [ \"$(out %s %s)\" = '%s' ]; then\n", m[1], m[2], m[3])
		}
		b.WriteString("(\n")
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			v := s.Env[k]
			switch m := output.FindStringSubmatch(v); {
			case m != nil:
				fmt.Fprintf(&b, "export %s=\"$(out %s %s)\"\n", k, m[1], m[2])
			case v == "${{ github.token }}":
				fmt.Fprintf(&b, "export %s=test-token\n", k)
			case strings.Contains(v, "${{"):
				ts.Fatalf("step %q: cannot evaluate env %s: %s", s.Name, k, v)
			default:
				fmt.Fprintf(&b, "export %s=%q\n", k, v)
			}
		}
		fmt.Fprintf(&b, "export GITHUB_OUTPUT=\"$RUNNER_TEMP/.out-%s\"\n: >> \"$GITHUB_OUTPUT\"\n", id)
		fmt.Fprintf(&b, "exec bash --noprofile --norc -eo pipefail %q\n", step)
		b.WriteString(") || exit $?\n")
		if cond != "" {
			b.WriteString("fi\n")
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(b.String()), 0o755))
}
