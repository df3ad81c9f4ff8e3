// Package tmplexec executes html/template's escaped templates without
// text/template's reflection on every action. html/template stays the
// parser, the contextual escaper and the one source of truth: once it has
// escaped a template (on its first execution), the escaped parse tree is
// compiled once into closures that look fields up by a cached index and
// call this package's own copies of the escapers directly. A template with
// a node, a function or an escaper this package does not reproduce, and
// any execution that meets a value it does not reproduce or an error, runs
// on html/template instead, so the output is always html/template's.
package tmplexec

import (
	"bytes"
	htmltemplate "html/template"
	"io"
	"maps"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	texttemplate "text/template"
)

// Set executes the templates of one html/template set.
type Set struct {
	html  *htmltemplate.Template
	text  *texttemplate.Template // the escaped trees; nil: html/template runs everything
	funcs htmltemplate.FuncMap
	// htmlOnly makes every execution html/template's (tests compare the two).
	htmlOnly bool

	mu        sync.Mutex
	progs     map[string]*program // by template name, escaped trees only; guarded by mu
	roots     sync.Map            // name -> *program (nil: html/template), read without the lock
	reasons   map[string]string   // root name -> why it runs on html/template; guarded by mu
	names     sync.Map            // attribute name -> html/template's verdict on it (nameFilter)
	nameCount atomic.Int64        // names stored, at most maxNames
	fast      atomic.Int64
	fallback  atomic.Int64
	pool      sync.Pool // *state
	bufs      sync.Pool // *bytes.Buffer, for writers other than a *bytes.Buffer
}

// New returns the Set that executes h's templates; funcs is the FuncMap h
// was parsed with. With htmlOnly every template runs on html/template.
func New(h *htmltemplate.Template, funcs htmltemplate.FuncMap, htmlOnly bool) *Set {
	return &Set{html: h, text: textSet(h), funcs: funcs, htmlOnly: htmlOnly,
		progs: map[string]*program{}, reasons: map[string]string{}}
}

// Stats counts how s executed its templates: Fast by a compiled program,
// Fallback on html/template although a program existed (a value it does
// not reproduce, or an error), and Uncompiled, by template name, why a
// template that was executed has no program and runs on html/template.
type Stats struct {
	Fast, Fallback int64
	Uncompiled     map[string]string
}

// Stats returns how s executed its templates so far.
func (s *Set) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{Fast: s.fast.Load(), Fallback: s.fallback.Load(), Uncompiled: map[string]string{}}
	maps.Copy(st.Uncompiled, s.reasons)
	return st
}

// ExecuteTemplate writes the template name of s with data to w, as
// html/template's ExecuteTemplate does, errors included (they are
// html/template's own: a program that meets one hands the template to
// html/template, which reports it).
func (s *Set) ExecuteTemplate(w io.Writer, name string, data any) error {
	if s.text == nil || s.htmlOnly {
		return s.html.ExecuteTemplate(w, name, data)
	}
	p, ok := s.roots.Load(name)
	if !ok {
		p = s.compileRoot(name)
	}
	prog := p.(*program)
	if prog == nil {
		return s.html.ExecuteTemplate(w, name, data)
	}
	if buf, ok := w.(*bytes.Buffer); ok {
		start := buf.Len()
		if err := s.run(prog, buf, data); err != nil {
			buf.Truncate(start)
			s.fallback.Add(1)
			return s.html.ExecuteTemplate(w, name, data)
		}
		s.fast.Add(1)
		return nil
	}
	buf, _ := s.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		buf.Reset()
		s.bufs.Put(buf)
	}()
	if err := s.run(prog, buf, data); err != nil {
		s.fallback.Add(1)
		return s.html.ExecuteTemplate(w, name, data)
	}
	s.fast.Add(1)
	_, err := w.Write(buf.Bytes())
	return err
}

// run executes prog with data into buf; a panic in a function the
// template calls becomes an error, as in text/template.
func (s *Set) run(prog *program, buf *bytes.Buffer, data any) (err error) {
	st, _ := s.pool.Get().(*state)
	if st == nil {
		st = &state{set: s}
	}
	defer func() {
		if recover() != nil {
			err = errNotHandled
		}
		st.vars = st.vars[:0]
		st.buf = nil
		s.pool.Put(st)
	}()
	st.buf = buf
	st.depth, st.base = 0, 0
	dot, ok := data.(reflect.Value) // as text/template takes it
	if !ok {
		dot = reflect.ValueOf(data)
	}
	st.vars = append(st.vars[:0], variable{"$", dot})
	return prog.run(st, dot)
}

// compileRoot compiles the template name, on its first execution, and
// records why when it cannot. html/template escapes a template (and the
// ones it calls) on its first execution and exports no other way to ask
// for it: an execution without data, into io.Discard, is that first one,
// whatever it writes or fails on. A template html/template refuses to
// escape has no tree afterwards, and the real execution reports why.
func (s *Set) compileRoot(name string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.roots.Load(name); ok {
		return p
	}
	s.html.ExecuteTemplate(io.Discard, name, nil) //nolint:errcheck // only escapes
	var p *program
	if h := s.html.Lookup(name); h == nil || h.Tree == nil {
		s.reasons[name] = "not escaped (no such template, or html/template refused it)"
	} else {
		c := &compiler{set: s}
		var err error
		if p, err = c.compile(name); err != nil {
			c.rollback()
			s.reasons[name] = err.Error()
		}
	}
	s.roots.Store(name, p)
	return p
}

// maxNames bounds the names nameFilter remembers: names come from the
// data (the list's field names), and a list with ever new ones is asked
// again instead of growing the Set.
const maxNames = 4096

// nameFilter is _html_template_htmlnamefilter: an attribute or element
// name. Which names are safe depends on html/template's table of
// attribute types, so the verdict on each name is html/template's own,
// asked once per name.
func (s *Set) nameFilter(dst []byte, v string, c content) ([]byte, error) {
	if c == contentHTMLAttr {
		return append(dst, v...), nil
	}
	if r, ok := s.names.Load(v); ok {
		return append(dst, r.(string)...), nil
	}
	probe, err := htmltemplate.New("name").Parse(`<a {{.}}>`)
	if err != nil {
		return dst, errNotHandled
	}
	var b strings.Builder
	if err := probe.Execute(&b, v); err != nil {
		return dst, errNotHandled
	}
	out, okPrefix := strings.CutPrefix(b.String(), "<a ")
	out, okSuffix := strings.CutSuffix(out, ">")
	if !okPrefix || !okSuffix {
		return dst, errNotHandled
	}
	if s.nameCount.Add(1) <= maxNames {
		s.names.Store(v, out)
	}
	return append(dst, out...), nil
}
