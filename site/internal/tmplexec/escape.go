package tmplexec

import (
	"encoding/json"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// errNotHandled is what a program returns for a value, a node or an
// escaper input it does not reproduce exactly; the template then runs on
// html/template, which is always right.
var errNotHandled = errors.New("tmplexec: not handled; html/template runs the template")

// content is the kind of a value html/template trusts: the typed strings
// of html/template (template.HTML, template.URL, ...) or plain text.
type content uint8

const (
	plain content = iota
	contentHTML
	contentHTMLAttr
	contentURL
	contentJS
	contentJSStr
	contentCSS
	contentSrcset
)

// contentTypes maps html/template's typed strings to their content.
var contentTypes = map[reflect.Type]content{
	reflect.TypeFor[htmltemplate.HTML]():     contentHTML,
	reflect.TypeFor[htmltemplate.HTMLAttr](): contentHTMLAttr,
	reflect.TypeFor[htmltemplate.URL]():      contentURL,
	reflect.TypeFor[htmltemplate.JS]():       contentJS,
	reflect.TypeFor[htmltemplate.JSStr]():    contentJSStr,
	reflect.TypeFor[htmltemplate.CSS]():      contentCSS,
	reflect.TypeFor[htmltemplate.Srcset]():   contentSrcset,
}

var (
	stringType   = reflect.TypeFor[string]()
	stringerType = reflect.TypeFor[fmt.Stringer]()
	errorType    = reflect.TypeFor[error]()
	marshalType  = reflect.TypeFor[json.Marshaler]()
)

// stringify turns an escaper's argument into its text and content, as
// html/template does before it escapes: a typed string (also behind
// pointers) keeps its content; anything else is printed by fmt after its
// pointers are followed to a Stringer or an error; nothing (a nil
// interface, no value) is "".
func stringify(v reflect.Value) (string, content) {
	if !v.IsValid() {
		return "", plain
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", plain
		}
		v = v.Elem()
	}
	w := v
	for w.Kind() == reflect.Pointer && !w.IsNil() {
		w = w.Elem()
	}
	t := w.Type()
	if t == stringType {
		return w.String(), plain
	}
	if c, ok := contentTypes[t]; ok {
		return w.String(), c
	}
	if v.Kind() != reflect.Pointer && t.NumMethod() == 0 {
		switch v.Kind() {
		case reflect.String:
			return v.String(), plain
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return strconv.FormatInt(v.Int(), 10), plain
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return strconv.FormatUint(v.Uint(), 10), plain
		case reflect.Bool:
			return strconv.FormatBool(v.Bool()), plain
		}
	}
	if !v.CanInterface() {
		// Unreachable from a template (text/template reads exported
		// fields only); printed as fmt would print it.
		return fmt.Sprint(v), plain
	}
	for !v.Type().Implements(stringerType) && !v.Type().Implements(errorType) && v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	return fmt.Sprint(v.Interface()), plain
}

// escaper appends src, of content c, escaped for its context to dst.
type escaper func(dst []byte, src string, c content) ([]byte, error)

// escapers are the html/template escapers this package reproduces, by
// the name html/template's escaped trees call them.
var escapers = map[string]escaper{
	"_html_template_htmlescaper":    escapeHTML,
	"_html_template_attrescaper":    escapeAttr,
	"_html_template_rcdataescaper":  escapeRCDATA,
	"_html_template_urlfilter":      filterURL,
	"_html_template_urlnormalizer":  normalizeURL,
	"_html_template_urlescaper":     escapeURL,
	"_html_template_htmlnamefilter": nil, // the Set's own (nameFilter): it asks html/template once per name
	"_html_template_jsvalescaper":   nil, // needs the value, not its text (jsValue)
}

// htmlEntity is the replacement of b in HTML text and quoted attribute
// values, or "" when b stays; withAmp says whether '&' is replaced (not in
// text that is already HTML).
func htmlEntity(b byte, withAmp bool) string {
	switch b {
	case 0:
		return "\uFFFD"
	case '"':
		return "&#34;"
	case '&':
		if withAmp {
			return "&amp;"
		}
	case '\'':
		return "&#39;"
	case '+':
		return "&#43;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	}
	return ""
}

// appendHTMLEscaped appends s with the characters HTML gives a meaning
// replaced; other bytes, invalid UTF-8 included, are copied.
func appendHTMLEscaped(dst []byte, s string, withAmp bool) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b > '>' {
			continue
		}
		r := htmlEntity(b, withAmp)
		if r == "" {
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, r...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// escapeHTML is _html_template_htmlescaper: HTML text; typed HTML as it is.
func escapeHTML(dst []byte, s string, c content) ([]byte, error) {
	if c == contentHTML {
		return append(dst, s...), nil
	}
	return appendHTMLEscaped(dst, s, true), nil
}

// escapeRCDATA is _html_template_rcdataescaper: the text of <title> or
// <textarea>; typed HTML keeps its entities.
func escapeRCDATA(dst []byte, s string, c content) ([]byte, error) {
	return appendHTMLEscaped(dst, s, c != contentHTML), nil
}

// escapeAttr is _html_template_attrescaper: a quoted attribute value.
// Typed HTML would have its tags stripped first, which this package does
// not reproduce: such a value with a tag in it is not handled.
func escapeAttr(dst []byte, s string, c content) ([]byte, error) {
	if c == contentHTML {
		for i := 0; i < len(s); i++ {
			if s[i] == '<' {
				return dst, errNotHandled
			}
		}
		return appendHTMLEscaped(dst, s, false), nil
	}
	return appendHTMLEscaped(dst, s, true), nil
}

// filterURL is _html_template_urlfilter: a URL whose scheme is not http,
// https or mailto becomes "#ZgotmplZ", unless it is a typed URL.
func filterURL(dst []byte, s string, c content) ([]byte, error) {
	if c != contentURL && !safeScheme(s) {
		return append(dst, "#ZgotmplZ"...), nil
	}
	return append(dst, s...), nil
}

// safeScheme reports whether s has no scheme (no ':' before the first
// '/') or http, https or mailto in any case.
func safeScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/':
			return true
		case ':':
			p := s[:i]
			return strings.EqualFold(p, "http") || strings.EqualFold(p, "https") || strings.EqualFold(p, "mailto")
		}
	}
	return true
}

// normalizeURL is _html_template_urlnormalizer: the bytes a URL may not
// hold percent-encoded, those it may hold (reserved ones and '%' too)
// kept.
func normalizeURL(dst []byte, s string, c content) ([]byte, error) {
	return appendURLEscaped(dst, s, true), nil
}

// escapeURL is _html_template_urlescaper: a URL part (a query value), in
// which reserved bytes are percent-encoded too; a typed URL is only
// normalized.
func escapeURL(dst []byte, s string, c content) ([]byte, error) {
	return appendURLEscaped(dst, s, c == contentURL), nil
}

// urlKeeps reports whether b stays as it is in a URL: unreserved bytes
// always, reserved ones and '%' when normalizing.
func urlKeeps(b byte, norm bool) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	switch b {
	case '-', '.', '_', '~':
		return true
	case '!', '#', '$', '&', '*', '+', ',', '/', ':', ';', '=', '?', '@', '[', ']':
		return norm
	}
	return false
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// appendURLEscaped percent-encodes the bytes of s a URL may not hold; when
// normalizing, a '%' that starts an escape (two hex digits) stays.
func appendURLEscaped(dst []byte, s string, norm bool) []byte {
	const hex = "0123456789abcdef"
	last := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if urlKeeps(b, norm) || norm && b == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, '%', hex[b>>4], hex[b&15])
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// jsValue is _html_template_jsvalescaper for the values this package
// reproduces: typed JS as it is, and values that encoding/json marshals
// without error into an object, array or string (JSON-LD, chart
// options). A marshalling error, a JSON number, literal or Stringer, or
// output holding U+2028 or U+2029 is not handled.
func jsValue(dst []byte, v reflect.Value) ([]byte, error) {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if !v.IsValid() || !v.CanInterface() {
		return dst, errNotHandled
	}
	for !v.Type().Implements(marshalType) && v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	a := v.Interface()
	switch t := a.(type) {
	case htmltemplate.JS:
		return append(dst, t...), nil
	case htmltemplate.JSStr:
		return dst, errNotHandled
	case json.Marshaler:
	case fmt.Stringer:
		return dst, errNotHandled
	}
	b, err := json.Marshal(a)
	if err != nil || len(b) == 0 {
		return dst, errNotHandled
	}
	first, last := b[0], b[len(b)-1]
	if (first != '{' && first != '[' && first != '"') || (last != '}' && last != ']' && last != '"') {
		return dst, errNotHandled
	}
	for i := 0; i+2 < len(b); i++ {
		if b[i] == 0xE2 && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
			return dst, errNotHandled
		}
	}
	if !utf8.Valid(b) {
		return dst, errNotHandled
	}
	return append(dst, b...), nil
}
