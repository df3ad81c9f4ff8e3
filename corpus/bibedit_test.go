package corpus

import (
	"bytes"
	"strings"
	"testing"
)

const editSrc = `% Preprints
@article{alpha2025,
  title = {Alpha},
  author = {Doe, Jane},
  journal = {arXiv preprint arXiv:2501.00001},
  year = 2025,
  doi = {10.48550/arXiv.2501.00001},
}

@misc{beta2025, title={Beta}, year={2025} % read again
}
@article{gamma2024,
  title = {Gamma},
  year = {2024},
}
`

// TestEditBib: an edit changes the type and the named fields of its entry
// alone (set, replaced, removed), in FormatBib's form; an entry with a
// comment inside is reported, not edited.
func TestEditBib(t *testing.T) {
	edits := map[string]BibEdit{
		"alpha2025": {Type: "inproceedings", Set: map[string]string{
			"journal": "", "booktitle": `Proceedings of Science \& Agents`, "year": "2026",
			"doi": "10.5555/icml.2026.1", "eprint": "2501.00001", "archiveprefix": "arXiv",
		}},
		"beta2025": {Set: map[string]string{"year": "2026"}},
	}
	out, skipped, err := EditBib("p.bib", []byte(editSrc), edits)
	if err != nil {
		t.Fatal(err)
	}
	want := `% Preprints

@inproceedings{alpha2025,
  title         = {Alpha},
  author        = {Doe, Jane},
  booktitle     = {Proceedings of Science \& Agents},
  year          = {2026},
  eprint        = {2501.00001},
  archiveprefix = {arXiv},
  doi           = {10.5555/icml.2026.1},
}

@misc{beta2025, title={Beta}, year={2025} % read again
}

@article{gamma2024,
  title = {Gamma},
  year  = {2024},
}
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if len(skipped) != 1 || skipped[0].Key != "beta2025" || skipped[0].Pos.String() != "p.bib:10:1" {
		t.Errorf("skipped %v, want beta2025 at p.bib:10:1", skipped)
	}
	// The same edits give the same bytes (the map's order does not leak).
	for range 20 {
		again, _, _ := EditBib("p.bib", []byte(editSrc), edits)
		if !bytes.Equal(again, out) {
			t.Fatalf("not deterministic:\n%s", again)
		}
	}
}

func TestEditBibErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		edits     map[string]BibEdit
		want      string
	}{
		{"missing key", editSrc, map[string]BibEdit{"zeta2025": {Set: map[string]string{"year": "2026"}}, "alpha2025": {}}, "p.bib: no entry with the key zeta2025"},
		{"unbalanced", editSrc, map[string]BibEdit{"alpha2025": {Set: map[string]string{"title": "A}"}}}, `p.bib: alpha2025: the new title "A}" has braces that do not balance`},
		{"field name", editSrc, map[string]BibEdit{"alpha2025": {Set: map[string]string{"a b": "x"}}}, `p.bib: alpha2025: "a b" is not a BibTeX field name`},
		{"syntax", "@article{x,\n  title = {A,\n", map[string]BibEdit{"x": {}}, "p.bib:2:11: error: BibTeX syntax"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := EditBib("p.bib", []byte(tc.src), tc.edits)
			if err == nil || !strings.Contains(err.Error(), tc.want) || out != nil {
				t.Errorf("got %q, %v; want an error with %q and no output", out, err, tc.want)
			}
		})
	}
}

// FuzzEditBib: editing never panics, and what it returns parses and is
// in canonical form.
func FuzzEditBib(f *testing.F) {
	f.Add([]byte(editSrc), "alpha2025", "year", "2026")
	f.Add([]byte(editSrc), "gamma2024", "title", "")
	f.Fuzz(func(t *testing.T, src []byte, key, field, value string) {
		out, _, err := EditBib("f.bib", src, map[string]BibEdit{key: {Set: map[string]string{field: value}}})
		if err != nil {
			return
		}
		again, err := FormatBib("f.bib", out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("edited file is not canonical:\n%q\n%q (%v)", out, again, err)
		}
	})
}
