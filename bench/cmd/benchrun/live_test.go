package main

import "testing"

// TestMasrlBuilt: the live section reads every build time masrl serve
// logs, also those over a minute (at 100,000 entries its start-up builds
// took 3m34s on a loaded machine, and the section waited for them in
// vain).
func TestMasrlBuilt(t *testing.T) {
	for _, took := range []string{"967ms", "2.854s", "3m34.029s", "2m2s", "1h0m0s"} {
		m := masrlBuilt.FindStringSubmatch("built public: 10411 files (84 pages rendered, 10315 kept) in " + took)
		if m == nil || m[1] != took {
			t.Errorf("%s: read %q", took, m)
		}
	}
}
