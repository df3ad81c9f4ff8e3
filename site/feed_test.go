package site

import (
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestEntryDate checks the feed's date of an entry: the latest real date
// in its notes, never one the calendar lacks, else January 1 of its year.
func TestEntryDate(t *testing.T) {
	for _, tt := range []struct {
		notes string
		year  int
		want  string
	}{
		{"v7 2025-12-09", 2025, "2025-12-09"},
		{"v1 2025-01-03; v2 2025-06-30", 2025, "2025-06-30"},
		{"v2 2025-02-30", 2025, "2025-01-01"},
		{"v1 2024-02-29; v2 2025-02-29", 2025, "2024-02-29"},
		{"2025-04-31 and 2025-13-01 and 2025-00-10 and 2025-01-00", 2024, "2024-01-01"},
		{"2025-02-28x", 2023, "2023-01-01"},
		{"", 0, ""},
	} {
		e := &corpus.Entry{Notes: tt.notes, Year: tt.year}
		if got := entryDate(e); got != tt.want {
			t.Errorf("notes %q, year %d: %q, want %q", tt.notes, tt.year, got, tt.want)
		}
	}
}
