package corpus

import (
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	ns := []Notice{
		{Kind: NoticePublished, DOI: "10.5555/tmlr.2026.17", Detail: "Transactions on Machine Learning Research, 2026"},
		{Kind: NoticeRetracted, DOI: "10.5555/notice.3", Detail: "2026-03-02"},
		{Kind: NoticeConcern, DOI: "10.5555/eoc.1"},
	}
	notes := AddNotices("v2 2025-06-01; ICLR decision pending", ns...)
	want := "v2 2025-06-01; ICLR decision pending; published as doi:10.5555/tmlr.2026.17 (Transactions on Machine Learning Research, 2026); retracted doi:10.5555/notice.3 (2026-03-02); expression of concern doi:10.5555/eoc.1"
	if notes != want {
		t.Fatalf("Add:\n got %s\nwant %s", notes, want)
	}
	if got := ParseNotices(notes); !reflect.DeepEqual(got, ns) {
		t.Errorf("Parse: got %+v\nwant %+v", got, ns)
	}
	if again := AddNotices(notes, ns...); again != notes {
		t.Errorf("adding recorded notices again changed the notes:\n%s", again)
	}
	// A retraction OpenAlex reports without a DOI is the one recorded.
	if again := AddNotices(notes, Notice{Kind: NoticeRetracted, Detail: "OpenAlex"}); again != notes {
		t.Errorf("a second report of the retraction was added:\n%s", again)
	}
	if got := AddNotices("x", Notice{Kind: NoticeRetracted, Detail: "OpenAlex"}); got != "x; retracted (OpenAlex)" {
		t.Errorf("a retraction without DOI: %q", got)
	}
}

func TestParseIgnoresProse(t *testing.T) {
	for _, notes := range []string{
		"", "corrected", "retracted later?", "published as a book", "v7 2025-12-09; with Christopher Amato",
		"published as doi:not-a-doi", "withdrawn (a (nested) remark)",
	} {
		if got := ParseNotices(notes); len(got) != 0 {
			t.Errorf("ParseNotices(%q) = %+v, want none", notes, got)
		}
	}
}

func TestDetailCleaned(t *testing.T) {
	n := Notice{Kind: NoticePublished, DOI: "10.5555/x", Detail: "Proc. (Vol 2); Part 1\n, 2026"}
	got := ParseNotices(AddNotices("", n))
	if len(got) != 1 || got[0].Detail != "Proc. Vol 2, Part 1 , 2026" {
		t.Errorf("got %+v", got)
	}
}

func FuzzParseNotices(f *testing.F) {
	f.Add("published as doi:10.5555/x (A, 2026); retracted (OpenAlex)")
	f.Fuzz(func(t *testing.T, notes string) {
		for _, n := range ParseNotices(notes) {
			if back := ParseNotices(n.String()); len(back) != 1 || back[0] != n {
				t.Errorf("%q: %+v does not read back (%+v)", notes, n, back)
			}
		}
	})
}
