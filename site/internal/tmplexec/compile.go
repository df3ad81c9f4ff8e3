package tmplexec

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"text/template/parse"
)

// maxDepth bounds template calls; deeper recursion is left to
// html/template, which reports it.
const maxDepth = 1000

// state is one execution: where it writes, its variables and its depth
// of template calls.
type state struct {
	set     *Set
	buf     *bytes.Buffer
	vars    []variable
	base    int // the current template's first variable, its $
	depth   int
	scratch []byte // an escaper chain's text between two escapers
}

type variable struct {
	name string
	v    reflect.Value
}

func (st *state) lookup(name string) (reflect.Value, error) {
	for i := len(st.vars) - 1; i >= st.base; i-- {
		if st.vars[i].name == name {
			return st.vars[i].v, nil
		}
	}
	return reflect.Value{}, errNotHandled
}

// exec runs a node with dot.
type exec func(st *state, dot reflect.Value) error

// eval evaluates a command or an argument with dot; final is the value of
// the pipeline's previous command (invalid and hasFinal false for the
// first).
type eval func(st *state, dot, final reflect.Value, hasFinal bool) (reflect.Value, error)

// program is one compiled template; run is set once its body is compiled
// (a template may call itself).
type program struct {
	name string
	run  exec
}

// compiler compiles a template and the templates it calls, under the
// Set's lock.
type compiler struct {
	set   *Set
	added []string // the programs this compilation added to set.progs
}

// rollback removes the programs of a failed compilation: one of them may
// call the failed template, whose program has no body.
func (c *compiler) rollback() {
	for _, name := range c.added {
		delete(c.set.progs, name)
	}
}

// compile compiles the root template name; a panic (a tree this package
// misreads) is an error, and the template runs on html/template.
func (c *compiler) compile(name string) (p *program, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("template %q: compiling it failed: %v", name, r)
		}
	}()
	return c.template(name)
}

func (c *compiler) template(name string) (*program, error) {
	if p, ok := c.set.progs[name]; ok {
		return p, nil
	}
	t := c.set.text.Lookup(name)
	if t == nil || t.Tree == nil || t.Tree.Root == nil {
		return nil, fmt.Errorf("template %q: no escaped tree", name)
	}
	p := &program{name: name}
	c.set.progs[name] = p
	c.added = append(c.added, name)
	body, err := c.list(t.Tree.Root)
	if err != nil {
		return nil, fmt.Errorf("template %q: %w", name, err)
	}
	p.run = body
	return p, nil
}

func (c *compiler) list(l *parse.ListNode) (exec, error) {
	if l == nil {
		return func(*state, reflect.Value) error { return nil }, nil
	}
	var nodes []exec
	for _, n := range l.Nodes {
		e, err := c.node(n)
		if err != nil {
			return nil, err
		}
		if e != nil {
			nodes = append(nodes, e)
		}
	}
	switch len(nodes) {
	case 0:
		return func(*state, reflect.Value) error { return nil }, nil
	case 1:
		return nodes[0], nil
	}
	return func(st *state, dot reflect.Value) error {
		for _, n := range nodes {
			if err := n(st, dot); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

func (c *compiler) node(n parse.Node) (exec, error) {
	switch n := n.(type) {
	case *parse.TextNode:
		text := n.Text
		return func(st *state, _ reflect.Value) error {
			st.buf.Write(text)
			return nil
		}, nil
	case *parse.CommentNode:
		return nil, nil
	case *parse.ActionNode:
		return c.action(n)
	case *parse.IfNode:
		return c.branch(&n.BranchNode, false)
	case *parse.WithNode:
		return c.branch(&n.BranchNode, true)
	case *parse.RangeNode:
		return c.rangeNode(n)
	case *parse.TemplateNode:
		return c.call(n)
	}
	return nil, fmt.Errorf("%s: %s is not handled", location(n), nodeKind(n))
}

// location is a node's position for the reasons Stats gives.
func location(n parse.Node) string { return fmt.Sprintf("byte %d", n.Position()) }

func nodeKind(n parse.Node) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*parse.")
}

// action compiles an action: a declaration or assignment, which prints
// nothing, or a pipeline that ends in html/template's escapers, which
// prints their result.
func (c *compiler) action(n *parse.ActionNode) (exec, error) {
	pipe := n.Pipe
	if len(pipe.Decl) > 0 {
		value, err := c.pipeline(pipe, false)
		if err != nil {
			return nil, err
		}
		return c.declare(pipe, value)
	}
	// The escapers html/template appended, from the end.
	k := len(pipe.Cmds)
	for k > 0 && isEscaper(pipe.Cmds[k-1]) {
		k--
	}
	if k == len(pipe.Cmds) {
		return nil, fmt.Errorf("%s: an action without an escaper", location(n))
	}
	if k == 0 {
		return nil, fmt.Errorf("%s: an escaper without a value", location(n))
	}
	value, err := c.commands(pipe.Cmds[:k])
	if err != nil {
		return nil, err
	}
	chain, err := c.escapeChain(pipe.Cmds[k:])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", location(n), err)
	}
	return func(st *state, dot reflect.Value) error {
		v, err := value(st, dot)
		if err != nil {
			return err
		}
		return chain(st, v)
	}, nil
}

func isEscaper(cmd *parse.CommandNode) bool {
	if len(cmd.Args) != 1 {
		return false
	}
	id, ok := cmd.Args[0].(*parse.IdentifierNode)
	return ok && (strings.HasPrefix(id.Ident, "_html_template_") || id.Ident == "_eval_args_")
}

// escapeChain compiles html/template's escapers of an action: the first
// gets the value, each next the text of the one before, the last writes.
func (c *compiler) escapeChain(cmds []*parse.CommandNode) (func(st *state, v reflect.Value) error, error) {
	names := make([]string, len(cmds))
	for i, cmd := range cmds {
		names[i] = cmd.Args[0].(*parse.IdentifierNode).Ident
	}
	if len(names) == 1 && names[0] == "_html_template_jsvalescaper" {
		return func(st *state, v reflect.Value) error {
			out, err := jsValue(st.buf.AvailableBuffer(), v)
			if err != nil {
				return err
			}
			st.buf.Write(out)
			return nil
		}, nil
	}
	fns := make([]escaper, len(names))
	for i, name := range names {
		e, ok := escapers[name]
		switch {
		case !ok:
			return nil, fmt.Errorf("escaper %s is not handled", name)
		case name == "_html_template_htmlnamefilter":
			e = c.set.nameFilter
		case e == nil:
			return nil, fmt.Errorf("escaper %s is not handled after another", name)
		}
		fns[i] = e
	}
	last := fns[len(fns)-1]
	fns = fns[:len(fns)-1]
	return func(st *state, v reflect.Value) error {
		text, ct := stringify(v)
		var err error
		for _, e := range fns {
			st.scratch, err = e(st.scratch[:0], text, ct)
			if err != nil {
				return err
			}
			text, ct = string(st.scratch), plain
		}
		out, err := last(st.buf.AvailableBuffer(), text, ct)
		if err != nil {
			return err
		}
		st.buf.Write(out)
		return nil
	}, nil
}

// declare compiles {{$x := pipeline}} and {{$x = pipeline}}.
func (c *compiler) declare(pipe *parse.PipeNode, value func(*state, reflect.Value) (reflect.Value, error)) (exec, error) {
	if len(pipe.Decl) != 1 || len(pipe.Decl[0].Ident) != 1 {
		return nil, fmt.Errorf("%s: a declaration of more than one variable", location(pipe))
	}
	name := pipe.Decl[0].Ident[0]
	if pipe.IsAssign {
		return func(st *state, dot reflect.Value) error {
			v, err := value(st, dot)
			if err != nil {
				return err
			}
			for i := len(st.vars) - 1; i >= st.base; i-- {
				if st.vars[i].name == name {
					st.vars[i].v = v
					return nil
				}
			}
			return errNotHandled
		}, nil
	}
	return func(st *state, dot reflect.Value) error {
		v, err := value(st, dot)
		if err != nil {
			return err
		}
		st.vars = append(st.vars, variable{name, v})
		return nil
	}, nil
}

// pipeline compiles a pipeline without escapers (of if, with, range and
// template calls, or a declaration); decl says whether it may declare
// variables (range does that itself).
func (c *compiler) pipeline(pipe *parse.PipeNode, decl bool) (func(*state, reflect.Value) (reflect.Value, error), error) {
	if pipe == nil {
		return func(*state, reflect.Value) (reflect.Value, error) { return reflect.Value{}, nil }, nil
	}
	if slices.ContainsFunc(pipe.Cmds, isEscaper) {
		return nil, fmt.Errorf("%s: an escaper inside a pipeline", location(pipe))
	}
	return c.commands(pipe.Cmds)
}

// commands compiles the commands of a pipeline, each given the value of
// the one before as its last argument.
func (c *compiler) commands(cmds []*parse.CommandNode) (func(*state, reflect.Value) (reflect.Value, error), error) {
	evals := make([]eval, len(cmds))
	for i, cmd := range cmds {
		e, err := c.command(cmd)
		if err != nil {
			return nil, err
		}
		evals[i] = e
	}
	if len(evals) == 1 {
		e := evals[0]
		return func(st *state, dot reflect.Value) (reflect.Value, error) {
			v, err := e(st, dot, reflect.Value{}, false)
			return unwrapAny(v), err
		}, nil
	}
	return func(st *state, dot reflect.Value) (reflect.Value, error) {
		var v reflect.Value
		for i, e := range evals {
			var err error
			if v, err = e(st, dot, v, i > 0); err != nil {
				return v, err
			}
			v = unwrapAny(v)
		}
		return v, nil
	}, nil
}

// command compiles one command: a value (field chain, variable, dot,
// constant) or a function call.
func (c *compiler) command(cmd *parse.CommandNode) (eval, error) {
	first := cmd.Args[0]
	if id, ok := first.(*parse.IdentifierNode); ok {
		return c.function(id, cmd.Args[1:])
	}
	if len(cmd.Args) > 1 {
		return nil, fmt.Errorf("%s: arguments to a non-function", location(cmd))
	}
	arg, err := c.operand(first)
	if err != nil {
		return nil, err
	}
	return func(st *state, dot, _ reflect.Value, hasFinal bool) (reflect.Value, error) {
		if hasFinal {
			// A field or method given the pipeline's value: a method
			// call with an argument, which text/template checks.
			return reflect.Value{}, errNotHandled
		}
		return arg(st, dot)
	}, nil
}

// operand evaluates an argument or a command's value.
type operand func(st *state, dot reflect.Value) (reflect.Value, error)

func (c *compiler) operand(n parse.Node) (operand, error) {
	switch n := n.(type) {
	case *parse.DotNode:
		return func(_ *state, dot reflect.Value) (reflect.Value, error) { return dot, nil }, nil
	case *parse.FieldNode:
		steps := newSteps(n.Ident)
		return func(_ *state, dot reflect.Value) (reflect.Value, error) { return steps.eval(dot) }, nil
	case *parse.VariableNode:
		name := n.Ident[0]
		steps := newSteps(n.Ident[1:])
		return func(st *state, _ reflect.Value) (reflect.Value, error) {
			v, err := st.lookup(name)
			if err != nil {
				return v, err
			}
			return steps.eval(v)
		}, nil
	case *parse.StringNode:
		v := reflect.ValueOf(n.Text)
		return func(*state, reflect.Value) (reflect.Value, error) { return v, nil }, nil
	case *parse.BoolNode:
		v := reflect.ValueOf(n.True)
		return func(*state, reflect.Value) (reflect.Value, error) { return v, nil }, nil
	case *parse.NumberNode:
		i, ok := intConstant(n)
		if !ok {
			return nil, fmt.Errorf("%s: number %s is not handled", location(n), n.Text)
		}
		v := reflect.ValueOf(i)
		return func(*state, reflect.Value) (reflect.Value, error) { return v, nil }, nil
	case *parse.PipeNode:
		if len(n.Decl) > 0 {
			return nil, fmt.Errorf("%s: a declaration in parentheses", location(n))
		}
		p, err := c.pipeline(n, false)
		if err != nil {
			return nil, err
		}
		return operand(p), nil
	}
	return nil, fmt.Errorf("%s: %s is not handled", location(n), nodeKind(n))
}

// intConstant is a number's value as text/template gives it to an
// argument of type any: an int, for an integer without a fraction or
// exponent syntax that is not a character constant.
func intConstant(n *parse.NumberNode) (int, bool) {
	if !n.IsInt || n.IsFloat && strings.ContainsAny(n.Text, ".eEpP") && !strings.HasPrefix(n.Text, "0x") && !strings.HasPrefix(n.Text, "0X") {
		return 0, false
	}
	if strings.HasPrefix(n.Text, "'") {
		return 0, false
	}
	i := int(n.Int64)
	if int64(i) != n.Int64 {
		return 0, false
	}
	return i, true
}

// lists compiles the body of an if, with or range and its else list
// (otherwise is nil without one).
func (c *compiler) lists(list, elseList *parse.ListNode) (body, otherwise exec, err error) {
	if body, err = c.list(list); err != nil {
		return nil, nil, err
	}
	if elseList != nil {
		if otherwise, err = c.list(elseList); err != nil {
			return nil, nil, err
		}
	}
	return body, otherwise, nil
}

// branch compiles if and with.
func (c *compiler) branch(n *parse.BranchNode, with bool) (exec, error) {
	if len(n.Pipe.Decl) > 0 {
		return nil, fmt.Errorf("%s: a variable declared in if or with", location(n))
	}
	cond, err := c.pipeline(n.Pipe, false)
	if err != nil {
		return nil, err
	}
	then, otherwise, err := c.lists(n.List, n.ElseList)
	if err != nil {
		return nil, err
	}
	return func(st *state, dot reflect.Value) error {
		mark := len(st.vars)
		v, err := cond(st, dot)
		if err != nil {
			return err
		}
		truth, ok := isTrue(v)
		if !ok {
			return errNotHandled
		}
		switch {
		case truth && with:
			err = then(st, v)
		case truth:
			err = then(st, dot)
		case otherwise != nil:
			err = otherwise(st, dot)
		}
		st.vars = st.vars[:mark]
		return err
	}, nil
}

// rangeNode compiles range over slices, arrays and maps with string
// keys (in sorted order); other kinds are not handled.
func (c *compiler) rangeNode(n *parse.RangeNode) (exec, error) {
	if hasBreakOrContinue(n.List) {
		return nil, fmt.Errorf("%s: break or continue", location(n))
	}
	var keyVar, elemVar string
	switch len(n.Pipe.Decl) {
	case 0:
	case 1:
		elemVar = n.Pipe.Decl[0].Ident[0]
	case 2:
		keyVar, elemVar = n.Pipe.Decl[0].Ident[0], n.Pipe.Decl[1].Ident[0]
	default:
		return nil, fmt.Errorf("%s: range declaring %d variables", location(n), len(n.Pipe.Decl))
	}
	if n.Pipe.IsAssign {
		return nil, fmt.Errorf("%s: range assigning variables", location(n))
	}
	over, err := c.pipeline(n.Pipe, false)
	if err != nil {
		return nil, err
	}
	body, otherwise, err := c.lists(n.List, n.ElseList)
	if err != nil {
		return nil, err
	}
	one := func(st *state, k, e reflect.Value) error {
		mark := len(st.vars)
		if keyVar != "" {
			st.vars = append(st.vars, variable{keyVar, k})
		}
		if elemVar != "" {
			st.vars = append(st.vars, variable{elemVar, e})
		}
		err := body(st, e)
		st.vars = st.vars[:mark]
		return err
	}
	return func(st *state, dot reflect.Value) error {
		mark := len(st.vars)
		defer func() { st.vars = st.vars[:mark] }()
		v, err := over(st, dot)
		if err != nil {
			return err
		}
		v, isNil := indirect(v)
		if !v.IsValid() || isNil && v.Kind() != reflect.Slice && v.Kind() != reflect.Map {
			return errNotHandled
		}
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				if err := one(st, reflect.ValueOf(i), v.Index(i)); err != nil {
					return err
				}
			}
			if v.Len() > 0 {
				return nil
			}
		case reflect.Map:
			if v.Type().Key().Kind() != reflect.String {
				return errNotHandled
			}
			keys := v.MapKeys()
			sortStringKeys(keys)
			for _, k := range keys {
				if err := one(st, k, v.MapIndex(k)); err != nil {
					return err
				}
			}
			if len(keys) > 0 {
				return nil
			}
		default:
			return errNotHandled
		}
		if otherwise != nil {
			return otherwise(st, dot)
		}
		return nil
	}, nil
}

func hasBreakOrContinue(l *parse.ListNode) bool {
	if l == nil {
		return false
	}
	for _, n := range l.Nodes {
		switch n := n.(type) {
		case *parse.BreakNode, *parse.ContinueNode:
			return true
		case *parse.IfNode:
			if hasBreakOrContinue(n.List) || hasBreakOrContinue(n.ElseList) {
				return true
			}
		case *parse.WithNode:
			if hasBreakOrContinue(n.List) || hasBreakOrContinue(n.ElseList) {
				return true
			}
		}
	}
	return false
}

// call compiles {{template "name" pipeline}}: the template runs with the
// pipeline's value as dot and as $.
func (c *compiler) call(n *parse.TemplateNode) (exec, error) {
	arg, err := c.pipeline(n.Pipe, false)
	if err != nil {
		return nil, err
	}
	if n.Pipe != nil && len(n.Pipe.Decl) > 0 {
		return nil, fmt.Errorf("%s: a declaration in a template call", location(n))
	}
	callee, err := c.template(n.Name)
	if err != nil {
		return nil, err
	}
	return func(st *state, dot reflect.Value) error {
		v, err := arg(st, dot)
		if err != nil {
			return err
		}
		if st.depth >= maxDepth {
			return errNotHandled
		}
		saved, mark := st.base, len(st.vars)
		st.base = mark
		st.vars = append(st.vars, variable{"$", v})
		st.depth++
		err = callee.run(st, v)
		st.depth--
		st.vars, st.base = st.vars[:mark], saved
		return err
	}, nil
}

// unwrapAny takes a command's value out of an interface{} (a nil one
// becomes no value), as text/template does after each command.
func unwrapAny(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface && v.Type().NumMethod() == 0 {
		if v.IsNil() {
			return reflect.Value{}
		}
		return v.Elem()
	}
	return v
}
