package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// prompter asks for what masrl add was not given, on a terminal: each
// controlled field with its definition and every value with its own, so
// that a contributor picks a tag knowing what it means.
type prompter struct {
	in  *bufio.Scanner
	out io.Writer
}

func newLineReader(r io.Reader) *bufio.Scanner { return bufio.NewScanner(r) }

// errNoAnswer is returned when the input ends before an answer.
var errNoAnswer = errors.New("input ended before every missing value was given")

// choose asks for one value of a controlled field: by number or by value;
// a wrong answer is asked again.
func (p *prompter) choose(f *corpus.Field) (string, error) {
	fmt.Fprintf(p.out, "\n%s (%s): %s\n", f.Label, f.Name, oneLine(f.Definition))
	for i, t := range f.Values {
		fmt.Fprintf(p.out, "  %2d. %-24s %s\n", i+1, t.Value, oneLine(t.Definition))
	}
	for {
		fmt.Fprintf(p.out, "%s [1-%d or value]: ", f.Name, len(f.Values))
		if !p.in.Scan() {
			return "", errNoAnswer
		}
		ans := strings.TrimSpace(p.in.Text())
		if n, err := strconv.Atoi(ans); err == nil && n >= 1 && n <= len(f.Values) {
			return f.Values[n-1].Value, nil
		}
		if f.Term(ans) != nil {
			return ans, nil
		}
		msg := fmt.Sprintf("%q is not a value of %s", ans, f.Name)
		if n := f.Nearest(ans); n != "" {
			msg += fmt.Sprintf("; did you mean %q?", n)
		}
		fmt.Fprintln(p.out, msg)
	}
}

// text asks for a non-empty line of free text.
func (p *prompter) text(name, help string) (string, error) {
	fmt.Fprintf(p.out, "\n%s: %s\n", name, help)
	for {
		fmt.Fprintf(p.out, "%s: ", name)
		if !p.in.Scan() {
			return "", errNoAnswer
		}
		if s := strings.TrimSpace(p.in.Text()); s != "" {
			return s, nil
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
