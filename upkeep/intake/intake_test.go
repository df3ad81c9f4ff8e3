package intake

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

func TestArxiv(t *testing.T) {
	s := intaketest.New("testdata")
	defer s.Close()
	c := &Client{ArxivAPI: s.ArxivAPI}
	m, err := c.Arxiv(context.Background(), "2606.01234")
	if err != nil {
		t.Fatal(err)
	}
	want := Metadata{
		Title: "OrchestraRL: Learning to Route Messages Between LLM Agents with Reinforcement Learning",
		Year:  2026, Venue: "arXiv", URL: "https://arxiv.org/abs/2606.01234", ArxivID: "2606.01234", Version: "v2",
		Affiliation: "Example University", Kind: "article", Journal: "arXiv preprint arXiv:2606.01234",
	}
	if m.Title != want.Title || m.Year != want.Year || m.Venue != want.Venue || m.URL != want.URL ||
		m.ArxivID != want.ArxivID || m.Version != want.Version || m.Affiliation != want.Affiliation || m.Journal != want.Journal {
		t.Errorf("got %+v\nwant %+v", *m, want)
	}
	if got := m.FirstAuthor(); got != "Doe, Jane" {
		t.Errorf("first author %q, want Doe, Jane", got)
	}
	if len(m.Authors) != 3 || m.Authors[2].Family != "van der Berg" || m.Authors[2].Given != "Maria" {
		t.Errorf("authors %+v, want three, the last van der Berg, Maria", m.Authors)
	}

	if _, err := c.Arxiv(context.Background(), "2606.99999"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
	// arXiv answers a malformed id with an entry titled Error.
	b, err := os.ReadFile(filepath.Join("testdata", "arxiv-error.atom"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parseArxiv("2606.0123", b); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "incorrect id format") {
		t.Errorf("error feed: %v, want ErrNotFound with arXiv's message", err)
	}
}

func TestDOI(t *testing.T) {
	s := intaketest.New("testdata")
	defer s.Close()
	c := &Client{DOIAPI: s.DOIAPI}
	m, err := c.DOI(context.Background(), "10.5555/masrl.2026.42")
	if err != nil {
		t.Fatal(err)
	}
	if m.Title != "Credit Where It Is Due: Turn-Level Rewards for Debating Language Agents" || m.Year != 2026 ||
		m.Kind != "inproceedings" || !strings.HasPrefix(m.Booktitle, "Proceedings of the 25th") || m.Pages != "412--427" ||
		m.FirstAuthor() != "Silva, Ana" || m.Affiliation != "Universidade de Lisboa" || m.DOI != "10.5555/masrl.2026.42" ||
		m.URL != "https://doi.org/10.5555/masrl.2026.42" {
		t.Errorf("got %+v", *m)
	}
	if _, err := c.DOI(context.Background(), "10.5555/nonesuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown DOI: %v, want ErrNotFound", err)
	}
}

func TestUnreachable(t *testing.T) {
	c := &Client{ArxivAPI: intaketest.Unreachable() + "/arxiv", DOIAPI: intaketest.Unreachable()}
	if _, err := c.Arxiv(context.Background(), "2606.01234"); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("arXiv down: %v, want a network error", err)
	}
	if _, err := c.DOI(context.Background(), "10.5555/masrl.2026.42"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("doi.org down: %v, want a network error", err)
	}
}

func TestSplitName(t *testing.T) {
	for in, want := range map[string]string{
		"Shuo Liu":               "Liu, Shuo",
		"Jan van der Berg":       "van der Berg, Jan",
		"Eric Hanchen Jiang":     "Jiang, Eric Hanchen",
		"DeepSeek-AI":            "DeepSeek-AI",
		"  Ana   Maria  Silva  ": "Silva, Ana Maria",
	} {
		if got := splitName(in).Display(); got != want {
			t.Errorf("splitName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDeriveKey(t *testing.T) {
	taken := func(k string) bool { return k == "orchestrarl" || k == "silva2026" }
	for _, tt := range []struct {
		m    Metadata
		want string
	}{
		{Metadata{Title: "OrchestraRL: Learning"}, "orchestrarl-2"},
		{Metadata{Title: "Dr. MAS: Stable RL"}, "dr-mas"},
		{Metadata{Title: "Credit Where It Is Due: Turn-Level Rewards", Year: 2026, Authors: []Author{{Given: "Ana", Family: "Silva"}}}, "silva2026-2"},
		{Metadata{Title: "No colon here", Year: 2025, Authors: []Author{{Literal: "Kimi Team"}}}, "kimi-team2025"},
	} {
		if got := DeriveKey(&tt.m, taken); got != tt.want {
			t.Errorf("DeriveKey(%q) = %q, want %q", tt.m.Title, got, tt.want)
		}
	}
	if got := BibKey("c3", 2026); got != "c3-2026" {
		t.Errorf("BibKey(c3) = %q", got)
	}
	if got := BibKey("magrpo", 2025); got != "magrpo2025" {
		t.Errorf("BibKey(magrpo) = %q", got)
	}
}

func TestBibEscape(t *testing.T) {
	for in, want := range map[string]string{
		"R&D at 50%":           `R\&D at 50\%`,
		`Already \& escaped`:   `Already \& escaped`,
		"{GPU} kept":           "{GPU} kept",
		"open { never closed":  "open  never closed",
		"close } never opened": "close  never opened",
		"$x_1$ math":           "$x_1$ math",
	} {
		if got := BibEscape(in); got != want {
			t.Errorf("BibEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
