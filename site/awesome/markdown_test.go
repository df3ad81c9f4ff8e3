package awesome

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// gfm approximates GitHub's renderer: CommonMark plus tables,
// strikethrough, autolinks and task lists.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// renderedTags returns the HTML tags goldmark produces for src.
func renderedTags(t testing.TB, src string) []string {
	var buf bytes.Buffer
	if err := gfm.Convert([]byte(src), &buf); err != nil {
		t.Fatal(err)
	}
	return tagPattern.FindAllString(buf.String(), -1)
}

func TestMarkdownTextIsLiteral(t *testing.T) {
	for _, s := range []string{
		"*stars* and _under_", "[link](http://x)", "<script>alert(1)</script>", "a | b | c",
		"~~strike~~", "`code`", "![img](x.png)", "&amp; &copy;", "mail a@b.org or @user", "trailing \\", "http://auto.link/x",
	} {
		if tags := renderedTags(t, markdownText(s)); len(tags) != 2 {
			t.Errorf("markdownText(%q) renders as %v, want one plain paragraph", s, tags)
		}
	}
	for _, s := range []string{"- list", "+ list", "# heading", "> quote", "1. item", "12) item", "=== "} {
		if tags := renderedTags(t, "x\\\n"+markdownLine(s)); len(tags) != 3 { // <p>, <br>, </p>
			t.Errorf("markdownLine(%q) renders as %v, want a paragraph with a line break", s, tags)
		}
	}
}

// FuzzMarkdownText checks that escaped CSV text never renders as markup.
func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{"plain", "*a*", "[x](y)", "<b>", "a\nb", "&lt;", "\\", "- x", "1. x", "www.example.org"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\x00\r") {
			t.Skip()
		}
		line := markdownLine(s)
		if strings.TrimSpace(line) == "" {
			return
		}
		for _, tag := range renderedTags(t, "x\\\n"+line) {
			if tag != "<p>" && tag != "</p>" && tag != "<br>" {
				t.Fatalf("%q escaped to %q renders tag %s", s, line, tag)
			}
		}
	})
}

func TestReplaceBlock(t *testing.T) {
	doc := []byte("head\n" + BeginMarker + "\nold\n" + EndMarker + "\ntail\n")
	out, err := ReplaceBlock(doc, []byte("new list\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "head\n" + BeginMarker + "\nnew list\n" + EndMarker + "\ntail\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	again, _ := ReplaceBlock(out, []byte("new list\n"))
	if !bytes.Equal(again, out) {
		t.Error("replacing with the same list is not idempotent")
	}
	for _, bad := range []string{"no markers", EndMarker + BeginMarker, BeginMarker + " only"} {
		if _, err := ReplaceBlock([]byte(bad), nil); err == nil {
			t.Errorf("ReplaceBlock(%q) accepted", bad)
		}
	}
}

// FuzzReplaceBlock checks that only the text between the markers changes.
func FuzzReplaceBlock(f *testing.F) {
	f.Add("before", "old", "after", "list")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, before, inner, after, list string) {
		if strings.Contains(before+inner, BeginMarker) || strings.Contains(before+inner, EndMarker) {
			t.Skip()
		}
		doc := before + BeginMarker + inner + EndMarker + after
		out, err := ReplaceBlock([]byte(doc), []byte(list))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(out), before+BeginMarker) || !strings.HasSuffix(string(out), EndMarker+after) {
			t.Fatalf("text outside the markers changed: %q", out)
		}
	})
}
