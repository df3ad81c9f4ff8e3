package browsertest

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAuditRetrying: a page whose audit ended in a protocol timeout is
// audited again, alone, and its later report kept; a page that times out
// on every attempt, or fails in any other way, fails with its URL, and
// every failing page is named.
func TestAuditRetrying(t *testing.T) {
	ok := func() *lighthouseReport { return &lighthouseReport{} }
	failed := func(code string) *lighthouseReport {
		rep := &lighthouseReport{}
		rep.RuntimeError = &struct{ Code, Message string }{code, "late"}
		return rep
	}
	noError := failed("NO_ERROR")
	// fake audits each page with the code its script gives for the
	// attempt, and records the batches it was given.
	fake := func(script map[string][]string) (func([]string) ([]*lighthouseReport, error), *[][]string) {
		var batches [][]string
		seen := map[string]int{}
		return func(urls []string) ([]*lighthouseReport, error) {
			batches = append(batches, slices.Clone(urls))
			var reps []*lighthouseReport
			for _, u := range urls {
				codes := script[u]
				code := ""
				if n := seen[u]; n < len(codes) {
					code = codes[n]
				}
				seen[u]++
				switch code {
				case "":
					reps = append(reps, ok())
				case "NO_ERROR":
					reps = append(reps, noError)
				default:
					reps = append(reps, failed(code))
				}
			}
			return reps, nil
		}, &batches
	}
	logf := func(string, ...any) {}

	t.Run("a timeout is audited again, alone", func(t *testing.T) {
		audit, batches := fake(map[string][]string{"b": {lighthouseTimeout, lighthouseTimeout}, "c": {"NO_ERROR"}})
		reps, err := auditRetrying([]string{"a", "b", "c"}, 3, logf, audit)
		if err != nil {
			t.Fatal(err)
		}
		if want := [][]string{{"a", "b", "c"}, {"b"}, {"b"}}; !slices.EqualFunc(*batches, want, slices.Equal) {
			t.Errorf("batches %v, want %v", *batches, want)
		}
		for i, rep := range reps {
			if rep == nil || (rep.RuntimeError != nil && rep.RuntimeError.Code != "NO_ERROR") {
				t.Errorf("report %d: %+v, want the passing one", i, rep)
			}
		}
	})

	t.Run("timeouts on every attempt fail", func(t *testing.T) {
		audit, batches := fake(map[string][]string{"a": {lighthouseTimeout, lighthouseTimeout, lighthouseTimeout}, "b": {"NO_FCP"}})
		_, err := auditRetrying([]string{"a", "b"}, 3, logf, audit)
		if err == nil {
			t.Fatal("no error")
		}
		for _, want := range []string{"lighthouse a: PROTOCOL_TIMEOUT: late (attempt 3 of 3)", "lighthouse b: NO_FCP: late (attempt 1 of 3)"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if len(*batches) != 3 {
			t.Errorf("%d attempts, want 3: %v", len(*batches), *batches)
		}
	})

	t.Run("a failed run fails", func(t *testing.T) {
		boom := errors.New("node: exit status 1")
		_, err := auditRetrying([]string{"a"}, 3, logf, func([]string) ([]*lighthouseReport, error) { return nil, boom })
		if !errors.Is(err, boom) {
			t.Errorf("error %v, want %v", err, boom)
		}
	})
}
