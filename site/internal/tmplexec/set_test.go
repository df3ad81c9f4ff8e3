package tmplexec

import (
	"bytes"
	"errors"
	htmltemplate "html/template"
	"strings"
	"testing"
)

type inner struct {
	Name string
	N    int
	URL  htmltemplate.URL
}

func (in inner) Upper() string           { return strings.ToUpper(in.Name) }
func (in *inner) Twice() (string, error) { return in.Name + in.Name, nil }
func (in inner) Fails() (string, error)  { return "", errors.New("no") }

type embedded struct{ Extra string }

type outer struct {
	*embedded
	Title string
	Items []inner
	Ptrs  []*inner
	Map   map[string]int
	Any   any
	Nil   *inner
	On    bool
	Count uint
}

func testData() *outer {
	return &outer{
		embedded: &embedded{Extra: "x<y"},
		Title:    `A "title" & <b>`,
		Items:    []inner{{"a", 1, "https://a.example/?q=1"}, {"b&", 0, "javascript:x"}},
		Ptrs:     []*inner{{Name: "p"}},
		Map:      map[string]int{"z": 26, "a": 1, "m": 13},
		Any:      inner{Name: "any"},
		On:       true,
		Count:    3,
	}
}

// TestExecutor holds the compiled programs to html/template on
// templates that use each construct tmplexec reproduces, and checks
// that they ran on tmplexec (fast) or were handed to html/template.
func TestExecutor(t *testing.T) {
	funcs := htmltemplate.FuncMap{
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
		"join": func(a, b string) string { return a + b },
		"fail": func() (string, error) { return "", errors.New("failed") },
	}
	for _, tc := range []struct {
		name, src string
		data      any
		fast      bool // runs on tmplexec
		fails     bool // html/template reports an error
	}{
		{"fields", `<p title="{{.Title}}">{{.Title}} {{.Extra}} {{.Count}} {{.On}}</p>`, testData(), true, false},
		{"range", `{{range $i, $e := .Items}}{{if $i}}, {{end}}<a href="{{$e.URL}}">{{.Name}} {{$.Title}}</a>{{else}}none{{end}}`, testData(), true, false},
		{"range one var", `{{range $e := .Ptrs}}{{$e.Name}}{{end}}{{range .Map}}{{.}} {{end}}`, testData(), true, false},
		{"range map keys", `{{range $k, $v := .Map}}{{$k}}={{$v}};{{end}}`, testData(), true, false},
		{"range empty", `{{range .Nil}}x{{else}}empty{{end}}`, &outer{}, false, true},
		{"with else", `{{with .Any}}{{.Name}}{{end}}{{with .Nil}}x{{else with .Title}}{{.}}{{else}}none{{end}}`, testData(), true, false},
		{"if chain", `{{if not .On}}a{{else if eq .Count 3}}b{{else}}c{{end}}{{if and .On (lt .Count 4) (ne .Title "")}}d{{end}}{{if or .Nil .Title}}e{{end}}`, testData(), true, false},
		{"comparisons", `{{eq 1 1}}{{eq .Count 2 3}}{{lt 1 2}}{{le 2 2}}{{gt .Count 1}}{{ge 0 1}}{{ne "a" "b"}}{{eq .Title "x"}}`, testData(), true, false},
		{"len printf", `{{len .Items}} {{printf "%d %s" (len .Items) .Title}}`, testData(), true, false},
		{"funcs", `{{plural (len .Items) "entry" "entries"}} {{.Title | join "x"}} {{join "a" "b"}}`, testData(), true, false},
		{"methods", `{{.Any.Upper}} {{range .Ptrs}}{{.Twice}}{{end}}`, testData(), true, false},
		{"variables", `{{$t := .Title}}{{$t = "new"}}{{$t}}{{range .Items}}{{$n := .Name}}{{$n}}{{end}}`, testData(), true, false},
		{"template", `{{define "item"}}<li>{{.Name}} {{$}}</li>{{end}}{{range .Items}}{{template "item" .}}{{end}}<a title="{{template "t2" .Title}}">`, testData(), true, false},
		{"recursion", `{{define "r"}}{{if .}}{{len .}}{{template "r" (slice . 1)}}{{end}}{{end}}{{template "r" .Items}}`, testData(), false, false},
		{"nil pointer", `{{.Nil.Name}}`, testData(), false, true},
		{"method error", `{{.Any.Fails}}`, testData(), false, true},
		{"func error", `{{fail}}`, testData(), false, true},
		{"missing field", `{{.Nope}}`, testData(), false, true},
		{"map", `{{.Map.z}} {{.Map.nope}}`, testData(), false, false},
		{"index", `{{index .Items 0}}`, testData(), false, false},
		{"nil data", `{{.}}`, nil, true, false},
		{"js", `<script type="application/ld+json">{{.Any}}</script><script>var x = {{.Title}};</script>`, testData(), true, false},
		{"name", `<p data-{{.Title}}="1" data-{{.Any.Name}}="2">`, testData(), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if !strings.Contains(src, `define "t2"`) {
				src += `{{define "t2"}}{{.}}!{{end}}`
			}
			parse := func() *htmltemplate.Template {
				return htmltemplate.Must(htmltemplate.New("t").Funcs(funcs).Parse(src))
			}
			fast := New(parse(), funcs, false)
			slow := New(parse(), funcs, true)
			for range 2 {
				var a, b bytes.Buffer
				errA := fast.ExecuteTemplate(&a, "t", tc.data)
				errB := slow.ExecuteTemplate(&b, "t", tc.data)
				if (errA != nil) != tc.fails || (errB != nil) != tc.fails {
					t.Fatalf("errors: tmplexec %v, html/template %v, want failure %v", errA, errB, tc.fails)
				}
				if errA != nil && errA.Error() != errB.Error() {
					t.Errorf("tmplexec's error %q, html/template's %q", errA, errB)
				}
				if a.String() != b.String() {
					t.Errorf("tmplexec:      %q\nhtml/template: %q", a.String(), b.String())
				}
			}
			st := fast.Stats()
			if got := st.Fast == 2 && st.Fallback == 0 && len(st.Uncompiled) == 0; got != tc.fast {
				t.Errorf("%+v, want on tmplexec: %v", st, tc.fast)
			}
		})
	}
}

// TestRollback: a template that calls one tmplexec cannot compile
// leaves no program behind that another template could reach.
func TestRollback(t *testing.T) {
	src := `{{define "a"}}{{template "b" .}}{{end}}{{define "b"}}{{if .}}{{template "a" (slice . 1)}}{{end}}{{end}}{{define "c"}}[{{template "b" .}}]{{end}}`
	h := htmltemplate.Must(htmltemplate.New("t").Parse(src))
	set := New(h, nil, false)
	for _, name := range []string{"a", "c"} {
		var b bytes.Buffer
		if err := set.ExecuteTemplate(&b, name, "xyz"); err != nil {
			t.Fatal(err)
		}
	}
	st := set.Stats()
	if st.Uncompiled["a"] == "" || st.Uncompiled["c"] == "" || st.Fallback != 0 {
		t.Errorf("%+v: want a and c on html/template, for slice", st)
	}
}
