package corpus

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/masrl/masrl/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// The YAML files a list writes (vocab.yaml, claims.yaml, survey-pool.yaml)
// are decoded by go.yaml.in/yaml into Go structs, and its messages speak
// of those: "cannot unmarshal !!str `x` into int", "field claimz not found
// in type corpus.claimsDoc", a bare "EOF" for an empty file. The functions
// here turn them into the file's own terms, each at its line.

// yamlLineMsg finds "line N: message" in yaml's messages, which carry no
// column.
var yamlLineMsg = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlUnmarshal is yaml's message about a value of the wrong kind.
var yamlUnmarshal = regexp.MustCompile("^cannot unmarshal (!!\\w+)(?: `(.*)`)? into (.+)$")

// yamlUnknownField is yaml's message about a key no struct field takes.
var yamlUnknownField = regexp.MustCompile(`^field (\S+) not found in type \S+$`)

// yamlKind names YAML's tags as a list's author knows them.
var yamlKind = map[string]string{
	"!!str": "text", "!!int": "a number", "!!float": "a number", "!!bool": "true or false",
	"!!seq": "a list", "!!map": "a mapping", "!!null": "empty", "!!timestamp": "a date", "!!binary": "binary data",
}

// yamlWant names a Go type by what a YAML author would write for it.
func yamlWant(goType string) string {
	goType = strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "["):
		n, _, _ := strings.Cut(goType[1:], "]")
		return "a list of " + n
	case strings.HasPrefix(goType, "map["):
		return "a mapping"
	case goType == "string":
		return "text"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"), strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return "a mapping" // a struct
}

// yamlProblems returns the problems of a decode error of file, each at the
// line yaml names and worded without Go types. When yaml names no line,
// the problem is at line, or, for 0, where src first holds what yaml's
// reader refuses (a control character, invalid UTF-8), else at line 1.
func yamlProblems(file string, src []byte, err error, line int) Diagnostics {
	var ds Diagnostics
	if errors.Is(err, io.EOF) {
		ds.add(Error, Pos{File: file, Line: 1}, "", "", "the file is empty")
		return ds
	}
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for _, m := range msgs {
		p := Pos{File: file, Line: line}
		if line == 0 {
			p = firstUnreadable(file, src)
		}
		m = strings.TrimPrefix(m, "yaml: ")
		if sm := yamlLineMsg.FindStringSubmatch(m); sm != nil {
			p.Line, _ = strconv.Atoi(sm[1])
			m = sm[2]
		}
		ds.add(Error, p, "", "", "%s", plainYAMLMessage(m))
	}
	return ds
}

// firstUnreadable is the position of the first byte of src that is
// invalid UTF-8 or a control character but tab, LF and CR, or line 1.
func firstUnreadable(file string, src []byte) Pos {
	line, lineStart := 1, 0
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F {
			return Pos{File: file, Line: line, Col: i - lineStart + 1}
		}
		if r == '\n' {
			line, lineStart = line+1, i+1
		}
		i += size
	}
	return Pos{File: file, Line: 1}
}

// plainYAMLMessage rewords one of yaml's messages in YAML's terms.
func plainYAMLMessage(m string) string {
	if sm := yamlUnmarshal.FindStringSubmatch(m); sm != nil {
		got := cmp.Or(yamlKind[sm[1]], sm[1])
		if sm[2] != "" {
			got = fmt.Sprintf("%q is %s", sm[2], got)
		} else {
			got = "got " + got
		}
		return fmt.Sprintf("%s; want %s", got, yamlWant(sm[3]))
	}
	if sm := yamlUnknownField.FindStringSubmatch(m); sm != nil {
		return fmt.Sprintf("unknown key %q", sm[1])
	}
	if rest, ok := strings.CutPrefix(m, "invalid array: want "); ok {
		want, got, _ := strings.Cut(rest, " elements but got ")
		return fmt.Sprintf("a list of %s items, want %s", got, want)
	}
	return m
}

// yamlKeys lists the keys the struct type of v takes, from its yaml tags,
// in declaration order: what an unknown key is told it could have been.
func yamlKeys(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for field := range t.Fields() {
		name, _, _ := strings.Cut(field.Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// unknownYAMLKeys reports every key of the mapping n that is not one of
// known, at its line and column, with the nearest known key; what names
// the mapping ("claim a1", "the file").
func unknownYAMLKeys(ds *Diagnostics, file string, n *yaml.Node, known []string, what string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(known, k.Value) {
			d := ds.add(Error, Pos{File: file, Line: k.Line, Col: k.Column}, "", "", "%s: unknown key %q; allowed: %s", what, k.Value, strings.Join(known, ", "))
			d.Nearest = suggest.Nearest(k.Value, known)
		}
	}
}
