package suggest

import "testing"

func TestNearest(t *testing.T) {
	vals := []string{"team", "orchestrator", "role", "agent", "turn", "message", "tool", "token", "NA"}
	for _, tc := range []struct{ in, want string }{
		{"Agent", "agent"},               // case
		{"orchestrater", "orchestrator"}, // one edit
		{"mesage", "message"},            // deletion
		{"na", "NA"},                     // case of a short value
		{"tokens", "token"},              // insertion
		{"banana", ""},                   // far from everything
		{"", ""},                         // nothing typed is not a typo
		{"rôle", "role"},                 // runes, not bytes
	} {
		if got := Nearest(tc.in, vals); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNearestTieIsDeterministic(t *testing.T) {
	// "tol" is one edit from both tool and "to"; the earlier candidate wins.
	if got := Nearest("tol", []string{"tool", "to"}); got != "tool" {
		t.Fatalf("got %q", got)
	}
}
