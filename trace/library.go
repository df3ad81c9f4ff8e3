package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/masrl/masrl/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaJSON returns trace.schema.json (package schema embeds it), for
// downloads.
func SchemaJSON() []byte { return bytes.Clone(schema.Trace()) }

// library holds the schema compiled by santhosh-tekuri/jsonschema: the whole
// document and the two element definitions.
type library struct {
	root, event, edge *jsonschema.Schema
	printer           *message.Printer
}

// compileLibrary compiles the embedded schema. A Validator calls it at
// most once, and only when needed: it costs about a millisecond, more
// than checking a small trace.
func compileLibrary() (*library, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Trace()))
	if err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	l := &library{printer: message.NewPrinter(language.English)}
	for _, s := range []struct {
		frag string
		dst  **jsonschema.Schema
	}{{"", &l.root}, {"#/$defs/event", &l.event}, {"#/$defs/edge", &l.edge}} {
		if *s.dst, err = c.Compile(SchemaID + s.frag); err != nil {
			return nil, fmt.Errorf("embedded schema: %w", err)
		}
	}
	return l, nil
}

// libError is one leaf error of the library: where and what.
type libError struct {
	Pointer string
	Message string
}

// errorsOf validates v with sch and returns the leaf errors, their pointers
// prefixed with prefix, sorted.
func (l *library) errorsOf(sch *jsonschema.Schema, v any, prefix string) []libError {
	err := sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []libError{{Pointer: prefix, Message: err.Error()}}
	}
	var out []libError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			path := make([]pathElem, len(e.InstanceLocation))
			for i, tok := range e.InstanceLocation {
				path[i] = pathElem{key: tok, idx: -1}
			}
			out = append(out, libError{Pointer: prefix + pointerOf(path), Message: e.ErrorKind.LocalizedString(l.printer)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// LibraryValidate decodes the whole document from r and validates it with
// the jsonschema library alone. It is the reference the fast path is tested
// against, and the slow path users can ask for; it keeps every value in
// memory. The result holds schema errors only (pointer and message); the
// error is non-nil when r is not JSON.
func LibraryValidate(r io.Reader) ([]Finding, error) {
	v, err := jsonschema.UnmarshalJSON(r)
	if err != nil {
		return nil, err
	}
	l, err := compileLibrary()
	if err != nil {
		return nil, err
	}
	var fs []Finding
	for _, e := range l.errorsOf(l.root, v, "") {
		fs = append(fs, Finding{Pointer: e.Pointer, Rule: RuleSchema, Message: e.Message})
	}
	return fs, nil
}

// library returns the compiled schema, compiling it on the validator's
// first use; nil if it does not compile.
func (c *checker) library() *library {
	c.v.libOnce.Do(func() { c.v.lib, c.v.libErr = compileLibrary() })
	return c.v.lib
}

// recheck hands the event or edge just read (c.elem) to the library and
// adds any location it reports that the fast path did not.
func (c *checker) recheck(isEvent bool, at pos) {
	if c.opts.fastOnly || c.elemTainted || c.rechecks >= maxLibraryRechecks {
		return
	}
	c.rechecks++
	l := c.library()
	if l == nil {
		return
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.elem))
	if err != nil {
		return
	}
	sch := l.edge
	if isEvent {
		sch = l.event
	}
	prefix := c.pointer()
	for _, e := range l.errorsOf(sch, v, prefix) {
		if !containsString(c.elemPtrs, e.Pointer) {
			c.elemPtrs = append(c.elemPtrs, e.Pointer)
			c.addAt(at, e.Pointer, Error, RuleSchema, e.Message)
		}
	}
}

// checkTopWithLibrary validates the top-level members with the library,
// the events and edges arrays replaced by placeholders that pass the same
// top-level keywords (their elements are the fast path's and recheck's).
// Like an event or edge, the top level is handed to the library only when
// the fast path found a schema violation in it: a clean top level costs
// the library's decoding and walking nothing, which on a batch of small
// traces was a fifth of the time.
func (c *checker) checkTopWithLibrary() {
	if c.opts.fastOnly || c.skeletonSkip || c.topTainted || len(c.topPtrs) == 0 {
		return
	}
	l := c.library()
	if l == nil {
		return
	}
	doc := make([]byte, 0, len(c.skeleton)+2)
	doc = append(doc, '{')
	doc = append(doc, c.skeleton...)
	doc = append(doc, '}')
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return
	}
	for _, e := range l.errorsOf(l.root, v, "") {
		if strings.HasPrefix(e.Pointer, "/events/") || strings.HasPrefix(e.Pointer, "/edges/") {
			continue
		}
		if !containsString(c.topPtrs, e.Pointer) {
			c.topPtrs = append(c.topPtrs, e.Pointer)
			c.addAt(pos{line: 1, col: 1}, e.Pointer, Error, RuleSchema, e.Message)
		}
	}
}

func containsString(list []string, s string) bool {
	return slices.Contains(list, s)
}
