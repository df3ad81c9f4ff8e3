package chart

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzBarsLabel feeds arbitrary labels and values to a bar chart: either the
// chart is refused with one of the documented errors, or its option is
// valid JSON that carries the label unchanged, and the markup holds no
// character that could end the data island or start a tag.
func FuzzBarsLabel(f *testing.F) {
	for _, s := range []string{attack, "__f__x__f__", "a & b", "\u2028", "<!--", "]]>", "</SCRIPT >", "é"} {
		f.Add(s, 1.0)
	}
	f.Add("x", math.NaN())
	f.Fuzz(func(t *testing.T, label string, value float64) {
		s := sampleBars()
		s.Bars[0].Label = label
		s.Bars[0].Value = value
		out, err := Bars(s)
		if err != nil {
			if !errors.Is(err, ErrFuncMarker) && !errors.Is(err, ErrNotFinite) && !errors.Is(err, ErrInvalidUTF8) {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		page := draw(t, out)
		opt := optionJSON(t, page)
		if strings.ContainsAny(opt, "<>&") {
			t.Fatalf("raw markup character in option: %s", opt)
		}
		var o struct {
			Series []struct {
				Data []struct {
					Name string `json:"name"`
				} `json:"data"`
			} `json:"series"`
		}
		if err := json.Unmarshal([]byte(opt), &o); err != nil {
			t.Fatalf("option is not JSON: %v", err)
		}
		if o.Series[0].Data[0].Name != label {
			t.Fatalf("label %q came back as %q", label, o.Series[0].Data[0].Name)
		}
		if strings.Count(page, "</script") != 1 {
			t.Fatalf("the label closed the data island:\n%s", page)
		}
	})
}
