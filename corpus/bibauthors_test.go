package corpus

import (
	"slices"
	"testing"
)

func TestBibAuthors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		etAl bool
	}{
		{"Liu, Shuo and Amato, Christopher and others", []string{"Liu, Shuo", "Amato, Christopher"}, true},
		{"{OpenAI}", []string{"OpenAI"}, false},
		{"  Doe,\n   Jane  and  Roe, Rick", []string{"Doe, Jane", "Roe, Rick"}, false},
		{"others", nil, true},
		{"", nil, false},
	} {
		got, etAl := BibAuthors(c.in)
		if !slices.Equal(got, c.want) || etAl != c.etAl {
			t.Errorf("BibAuthors(%q) = %q, %v; want %q, %v", c.in, got, etAl, c.want, c.etAl)
		}
	}
}
