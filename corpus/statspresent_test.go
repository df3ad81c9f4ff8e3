package corpus

import "testing"

// TestStatsPresentOnly: StatsOptions.PresentOnly leaves out the values
// no row uses, as masrl stats --present-only prints them, and nothing else.
func TestStatsPresentOnly(t *testing.T) {
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	all, err := StreamStats("testdata/base", v, StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	present, err := StreamStats("testdata/base", v, StatsOptions{PresentOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	dropped := false
	for i, h := range present.Histograms {
		for _, c := range h.Cells {
			if c.Count == 0 {
				t.Errorf("%s: %s has count 0", h.Field, c.Value)
			}
		}
		dropped = dropped || len(h.Cells) < len(all.Histograms[i].Cells)
	}
	if !dropped || present.Retained != all.Retained {
		t.Errorf("PresentOnly dropped nothing (%v) or changed the totals (%d, %d)", dropped, present.Retained, all.Retained)
	}
}
