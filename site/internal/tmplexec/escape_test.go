package tmplexec

import (
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"strings"
	"testing"
	"text/template/parse"
)

// named, stringer and failure are values of the kinds stringify treats
// apart: a string type without methods, a Stringer, an error.
type (
	named    string
	stringer struct{ s string }
	failure  struct{ s string }
	record   struct {
		Name string
		N    int
		Tags []string
	}
)

func (s stringer) String() string { return "<" + s.s + ">" }
func (f *failure) Error() string  { return "failed: " + f.s }

// escaperValue is the fuzzers' argument of kind k made from s: a plain
// string, each of html/template's typed strings, through a pointer,
// numbers, a Stringer, an error, a struct, nil.
func escaperValue(s string, k uint8) any {
	switch k % 17 {
	case 0:
		return s
	case 1:
		return htmltemplate.HTML(s)
	case 2:
		return htmltemplate.HTMLAttr(s)
	case 3:
		return htmltemplate.URL(s)
	case 4:
		return htmltemplate.JS(s)
	case 5:
		return htmltemplate.JSStr(s)
	case 6:
		return htmltemplate.CSS(s)
	case 7:
		return htmltemplate.Srcset(s)
	case 8:
		return &s
	case 9:
		h := htmltemplate.HTML(s)
		return &h
	case 10:
		return len(s) - 3
	case 11:
		return named(s)
	case 12:
		return stringer{s}
	case 13:
		return &failure{s}
	case 14:
		return record{Name: s, N: len(s), Tags: strings.Fields(s)}
	case 15:
		return nil
	}
	return []byte(s)
}

// escaperSeeds are inputs every escaper is held to: markup, quotes,
// entities, NUL, invalid UTF-8, schemes, U+2028, non-ASCII case folds.
var escaperSeeds = []string{
	"", "plain", `<script>alert("x")</script>`, "a & b + c ' \" < >", "\x00nul\x00",
	"\xff\xfeinvalid\xc3", "javascript:alert(1)", "JavaScript:x", "https://example.org/a b?c=d&e=f#g",
	"mailto:x@example.org", "HTTP://X", "data:text/html,<b>", "/relative/path:colon", "a:b/c",
	"httpſ://x", "100%", "\u2028\u2029", "\ufdd0\uffff", "é ü ∑", "on", "href", "data-x", "Level3", "3",
	"x y", "style", "SRC", "xmlns:foo", "&amp;", "<b>bold</b>", "a\tb\nc",
}

// fuzzEscaper holds this package's escapers to html/template's on the
// template src, whose only action html/template escapes with chain: the
// bytes must be equal whenever tmplexec handles the value; a plain
// string must always be handled unless plainOK says otherwise.
func fuzzEscaper(f *testing.F, src, chain string, plainOK func(string) bool) {
	for _, s := range escaperSeeds {
		for k := range uint8(17) {
			f.Add(s, k)
		}
	}
	h := htmltemplate.Must(htmltemplate.New("t").Parse(src))
	set := New(h, nil, false)
	p := set.compileRoot("t").(*program)
	if p == nil {
		f.Fatalf("%s not compiled: %v", src, set.Stats().Uncompiled)
	}
	if got := actionChain(h.Tree.Root); got != chain {
		f.Fatalf("%s is escaped with %q, want %q", src, got, chain)
	}
	f.Fuzz(func(t *testing.T, s string, k uint8) {
		v := escaperValue(s, k)
		var want bytes.Buffer
		werr := h.Execute(&want, v)
		var got bytes.Buffer
		err := set.run(p, &got, v)
		if errors.Is(err, errNotHandled) {
			if _, ok := v.(string); ok && (plainOK == nil || !plainOK(s)) {
				t.Fatalf("%q: a plain string is not handled", s)
			}
			return
		}
		if err != nil || werr != nil {
			t.Fatalf("%q (%T): tmplexec %v, html/template %v", s, v, err, werr)
		}
		if got.String() != want.String() {
			t.Fatalf("%q (%T):\ntmplexec:      %q\nhtml/template: %q", s, v, got.String(), want.String())
		}
	})
}

// actionChain is the escapers of the first action in l.
func actionChain(l *parse.ListNode) string {
	for _, n := range l.Nodes {
		if a, ok := n.(*parse.ActionNode); ok {
			var names []string
			for _, c := range a.Pipe.Cmds {
				if isEscaper(c) {
					names = append(names, c.Args[0].String())
				}
			}
			return strings.Join(names, " | ")
		}
	}
	return ""
}

func FuzzHTMLEscaper(f *testing.F) {
	fuzzEscaper(f, `<p>{{.}}</p>`, "_html_template_htmlescaper", nil)
}

func FuzzAttrEscaper(f *testing.F) {
	fuzzEscaper(f, `<p title="{{.}}">`, "_html_template_attrescaper", nil)
}

func FuzzRCDATAEscaper(f *testing.F) {
	fuzzEscaper(f, `<title>{{.}}</title>`, "_html_template_rcdataescaper", nil)
}

func FuzzURLFilter(f *testing.F) {
	fuzzEscaper(f, `<a href="{{.}}">`, "_html_template_urlfilter | _html_template_urlnormalizer | _html_template_attrescaper", nil)
}

func FuzzURLEscaper(f *testing.F) {
	fuzzEscaper(f, `<a href="/x?q={{.}}">`, "_html_template_urlescaper | _html_template_attrescaper", nil)
}

func FuzzNameFilter(f *testing.F) {
	fuzzEscaper(f, `<p data-{{.}}="x">`, "_html_template_htmlnamefilter", nil)
}

func FuzzJSValEscaper(f *testing.F) {
	// Only JSON objects, arrays and strings are reproduced: a plain
	// string marshals to one, unless encoding/json cannot take it.
	fuzzEscaper(f, `<script type="application/ld+json">{{.}}</script>`, "_html_template_jsvalescaper", func(s string) bool {
		return strings.ContainsAny(s, "\u2028\u2029")
	})
}

// TestEscaperSeeds names a few expectations outright, so that a wrong
// chain is visible without a fuzzer.
func TestEscaperSeeds(t *testing.T) {
	for _, tc := range []struct{ src, in, want string }{
		{`<p>{{.}}</p>`, "a<b>&'\"+\x00", "<p>a&lt;b&gt;&amp;&#39;&#34;&#43;\uFFFD</p>"},
		{`<a href="{{.}}">`, "javascript:x", `<a href="#ZgotmplZ">`},
		{`<a href="{{.}}">`, "https://x/a b&c", `<a href="https://x/a%20b&amp;c">`},
	} {
		h := htmltemplate.Must(htmltemplate.New("t").Parse(tc.src))
		set := New(h, nil, false)
		var b bytes.Buffer
		if err := set.ExecuteTemplate(&b, "t", tc.in); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s with %q: %q, want %q", tc.src, tc.in, b.String(), tc.want)
		}
		if st := set.Stats(); st.Fast != 1 {
			t.Errorf("%s: %+v, want one execution on tmplexec", tc.src, st)
		}
	}
	_ = fmt.Sprint
}
