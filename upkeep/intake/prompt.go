package intake

import (
	"bufio"
	"fmt"
	"io"
	"slices"
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

// choose asks for the value of a controlled field: by number or by
// value; a wrong answer is asked again. A multi-valued field takes
// several on one line (chooseMany).
func (p *prompter) choose(f *corpus.Field) (string, error) {
	fmt.Fprintf(p.out, "\n%s (%s): %s\n", f.Label, f.Name, oneLine(f.Definition))
	for i, t := range f.Values {
		// A nested field's values are indented under their parents.
		name := strings.Repeat("  ", f.Depth(t.Value)) + t.Value
		fmt.Fprintf(p.out, "  %2d. %-24s %s\n", i+1, name, oneLine(t.Definition))
	}
	if f.Multiple {
		return p.chooseMany(f)
	}
	for {
		fmt.Fprintf(p.out, "%s [1-%d or value]: ", f.Name, len(f.Values))
		if !p.in.Scan() {
			return "", errNoAnswer
		}
		ans := strings.TrimSpace(p.in.Text())
		if val, ok := pick(f, ans); ok {
			return val, nil
		}
		fmt.Fprintln(p.out, notAValue(f, ans))
	}
}

// chooseMany asks for the values of a multi-valued field on one line,
// separated by ';' as in its CSV cell or by ',', each by number or by
// value. Every value is checked; when one is not a value of the field
// (the nearest one suggested) or none is given, the whole line is asked
// again. The answer is the field's cell in canonical form, repeats
// dropped, as --tag FIELD=V1 --tag FIELD=V2 writes it.
func (p *prompter) chooseMany(f *corpus.Field) (string, error) {
	for {
		fmt.Fprintf(p.out, "%s [1-%d or value; several separated by ; or ,]: ", f.Name, len(f.Values))
		if !p.in.Scan() {
			return "", errNoAnswer
		}
		var vals, wrong []string
		for _, part := range answerParts(f, p.in.Text()) {
			val, ok := pick(f, part)
			switch {
			case !ok:
				wrong = append(wrong, notAValue(f, part))
			case !slices.Contains(vals, val):
				vals = append(vals, val)
			}
		}
		switch {
		case len(wrong) > 0:
			fmt.Fprintln(p.out, strings.Join(wrong, "\n"))
		case len(vals) == 0:
			fmt.Fprintf(p.out, "%s needs at least one value\n", f.Name)
		default:
			return f.Canonical(f.Join(vals)), nil
		}
	}
}

// answerParts cuts an answer for a multi-valued field into its values:
// at each ';', then at each ',' of a piece that is not a value itself (a
// value may hold a comma; none holds a ';'). Empty pieces are dropped.
func answerParts(f *corpus.Field, ans string) []string {
	var out []string
	for piece := range strings.SplitSeq(ans, corpus.ValueSeparator) {
		piece = strings.TrimSpace(piece)
		if f.Term(piece) != nil {
			out = append(out, piece)
			continue
		}
		for s := range strings.SplitSeq(piece, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// pick reads one answer: a value's number in the list shown, or the value.
func pick(f *corpus.Field, ans string) (string, bool) {
	if n, err := strconv.Atoi(ans); err == nil && n >= 1 && n <= len(f.Values) {
		return f.Values[n-1].Value, true
	}
	if f.Term(ans) != nil {
		return ans, true
	}
	return "", false
}

// notAValue says that ans is not a value of f, and which is nearest.
func notAValue(f *corpus.Field, ans string) string {
	msg := fmt.Sprintf("%q is not a value of %s", ans, f.Name)
	if n := f.Nearest(ans); n != "" {
		msg += fmt.Sprintf("; did you mean %q?", n)
	}
	return msg
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
