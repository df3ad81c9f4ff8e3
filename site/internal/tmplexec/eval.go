package tmplexec

import (
	"fmt"
	"reflect"
	"sort"
	"sync/atomic"
	"text/template/parse"
)

// steps is a chain of field names (.A.B) with, for each, the way it was
// resolved for the last receiver type met.
type steps []*step

type step struct {
	name  string
	cache atomic.Pointer[resolved]
}

// resolved is how a field name is reached on one receiver type: a
// method (by its index in the method set), a struct field (by its index
// path), or a map key.
type resolved struct {
	typ    reflect.Type
	addr   bool // the receiver was addressable: the pointer's method set
	method int  // >= 0: a method without arguments
	outs   int  // its results: 1, or 2 with an error
	index  []int
	mapKey reflect.Value // valid: a map with string keys
	bad    bool          // text/template would fail or call a method with arguments
}

func newSteps(names []string) steps {
	s := make(steps, len(names))
	for i, n := range names {
		s[i] = &step{name: n}
	}
	return s
}

func (s steps) eval(v reflect.Value) (reflect.Value, error) {
	for _, st := range s {
		var err error
		if v, err = st.eval(v); err != nil {
			return v, err
		}
	}
	return v, nil
}

// eval looks the step's name up on v as text/template does: through
// pointers and interfaces, methods first, then struct fields, then map
// keys. A nil receiver, a missing key or anything text/template would
// report as an error is not handled.
func (st *step) eval(v reflect.Value) (reflect.Value, error) {
	if !v.IsValid() {
		return v, errNotHandled
	}
	v, isNil := indirect(v)
	if isNil {
		return v, errNotHandled
	}
	addr := v.CanAddr()
	r := st.cache.Load()
	if r == nil || r.typ != v.Type() || r.addr != addr {
		r = resolve(v.Type(), addr, st.name)
		st.cache.Store(r)
	}
	switch {
	case r.bad:
		return v, errNotHandled
	case r.method >= 0:
		recv := v
		if addr {
			recv = v.Addr()
		}
		out := recv.Method(r.method).Call(nil)
		if r.outs == 2 && !out[1].IsNil() {
			return v, errNotHandled
		}
		return out[0], nil
	case r.index != nil:
		if len(r.index) == 1 {
			return v.Field(r.index[0]), nil
		}
		f, err := v.FieldByIndexErr(r.index)
		if err != nil {
			return v, errNotHandled
		}
		return f, nil
	case r.mapKey.IsValid():
		e := v.MapIndex(r.mapKey)
		if !e.IsValid() {
			return e, errNotHandled
		}
		return e, nil
	}
	return v, errNotHandled
}

func resolve(t reflect.Type, addr bool, name string) *resolved {
	r := &resolved{typ: t, addr: addr, method: -1}
	mt := t
	if addr && t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		mt = reflect.PointerTo(t)
	}
	if m, ok := mt.MethodByName(name); ok {
		ft := m.Type // with the receiver first
		switch {
		case ft.NumIn() != 1 || ft.IsVariadic():
			r.bad = true
		case ft.NumOut() == 1:
			r.method, r.outs = m.Index, 1
		case ft.NumOut() == 2 && ft.Out(1) == errorType:
			r.method, r.outs = m.Index, 2
		default:
			r.bad = true
		}
		return r
	}
	switch t.Kind() {
	case reflect.Struct:
		f, ok := t.FieldByName(name)
		if !ok || !f.IsExported() {
			r.bad = true
			return r
		}
		r.index = f.Index
	case reflect.Map:
		if t.Key().Kind() != reflect.String || reflect.TypeFor[string]() != t.Key() {
			r.bad = true
			return r
		}
		r.mapKey = reflect.ValueOf(name)
	default:
		r.bad = true
	}
	return r
}

// indirect follows pointers and interfaces to the value they hold; isNil
// says it stopped at a nil one.
func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}

// indirectInterface takes the value out of an interface.
func indirectInterface(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface || v.IsNil() {
		if v.Kind() == reflect.Interface {
			return reflect.Value{}
		}
		return v
	}
	return v.Elem()
}

// isTrue is text/template's truth: not the zero value of its kind, a
// non-empty collection, any struct; ok is false for kinds it refuses.
func isTrue(v reflect.Value) (truth, ok bool) {
	v = indirectInterface(v)
	if !v.IsValid() {
		return false, true
	}
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() > 0, true
	case reflect.Bool:
		return v.Bool(), true
	case reflect.Complex64, reflect.Complex128:
		return v.Complex() != 0, true
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.UnsafePointer, reflect.Interface:
		return !v.IsNil(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() != 0, true
	case reflect.Float32, reflect.Float64:
		return v.Float() != 0, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() != 0, true
	case reflect.Struct:
		return true, true
	}
	return false, false
}

func sortStringKeys(keys []reflect.Value) {
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
}

// function compiles a call of a function of the FuncMap or of one of
// text/template's builtins this package reproduces.
func (c *compiler) function(id *parse.IdentifierNode, argNodes []parse.Node) (eval, error) {
	if fn, ok := c.set.funcs[id.Ident]; ok {
		return c.funcMapCall(id, reflect.ValueOf(fn), argNodes)
	}
	args := make([]operand, len(argNodes))
	for i, n := range argNodes {
		a, err := c.operand(n)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	switch id.Ident {
	case "and", "or":
		or := id.Ident == "or"
		return func(st *state, dot, final reflect.Value, hasFinal bool) (reflect.Value, error) {
			var v reflect.Value
			for _, a := range args {
				var err error
				if v, err = a(st, dot); err != nil {
					return v, err
				}
				if !v.IsValid() {
					return v, errNotHandled
				}
				if truth, _ := isTrue(v); truth == or {
					return v, nil
				}
			}
			if hasFinal {
				if !final.IsValid() {
					return final, errNotHandled
				}
				v = final
			}
			return v, nil
		}, nil
	case "not":
		return fixed(args, 1, func(vs []reflect.Value) (reflect.Value, error) {
			truth, _ := isTrue(vs[0])
			return reflect.ValueOf(!truth), nil
		}), nil
	case "len":
		return fixed(args, 1, func(vs []reflect.Value) (reflect.Value, error) {
			v, isNil := indirect(vs[0])
			if isNil || !v.IsValid() {
				return v, errNotHandled
			}
			switch v.Kind() {
			case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
				return reflect.ValueOf(v.Len()), nil
			}
			return v, errNotHandled
		}), nil
	case "eq":
		return variadic(args, 2, func(vs []reflect.Value) (reflect.Value, error) {
			for _, b := range vs[1:] {
				cmp, err := compare(vs[0], b)
				if err != nil {
					return b, err
				}
				if cmp == 0 {
					return reflect.ValueOf(true), nil
				}
			}
			return reflect.ValueOf(false), nil
		}), nil
	case "ne", "lt", "le", "gt", "ge":
		op := id.Ident
		return fixed(args, 2, func(vs []reflect.Value) (reflect.Value, error) {
			cmp, err := compare(vs[0], vs[1])
			if err != nil {
				return vs[0], err
			}
			if op != "ne" && cmp == unordered {
				return vs[0], errNotHandled
			}
			var r bool
			switch op {
			case "ne":
				r = cmp != 0
			case "lt":
				r = cmp < 0
			case "le":
				r = cmp <= 0
			case "gt":
				r = cmp > 0
			case "ge":
				r = cmp >= 0
			}
			return reflect.ValueOf(r), nil
		}), nil
	case "printf":
		return variadic(args, 1, func(vs []reflect.Value) (reflect.Value, error) {
			f := indirectInterface(vs[0])
			if !f.IsValid() || f.Type() != stringType {
				return f, errNotHandled
			}
			as := make([]any, len(vs)-1)
			for i, v := range vs[1:] {
				if v = indirectInterface(v); v.IsValid() {
					if !v.CanInterface() {
						return v, errNotHandled
					}
					as[i] = v.Interface()
				}
			}
			return reflect.ValueOf(fmt.Sprintf(f.String(), as...)), nil
		}), nil
	}
	return nil, fmt.Errorf("%s: function %s is not handled", location(id), id.Ident)
}

// fixed is a builtin of n arguments, the pipeline's value counting as
// the last.
func fixed(args []operand, n int, do func([]reflect.Value) (reflect.Value, error)) eval {
	return withArgs(args, n, n, do)
}

// variadic is a builtin of at least min arguments.
func variadic(args []operand, min int, do func([]reflect.Value) (reflect.Value, error)) eval {
	return withArgs(args, min, -1, do)
}

func withArgs(args []operand, min, max int, do func([]reflect.Value) (reflect.Value, error)) eval {
	return func(st *state, dot, final reflect.Value, hasFinal bool) (reflect.Value, error) {
		n := len(args)
		if hasFinal {
			n++
		}
		if n < min || max >= 0 && n > max {
			return reflect.Value{}, errNotHandled
		}
		var small [4]reflect.Value
		vs := small[:0]
		for _, a := range args {
			v, err := a(st, dot)
			if err != nil {
				return v, err
			}
			if !v.IsValid() {
				return v, errNotHandled
			}
			vs = append(vs, v)
		}
		if hasFinal {
			if !final.IsValid() {
				return final, errNotHandled
			}
			vs = append(vs, final)
		}
		return do(vs)
	}
}

// unordered is compare's result for values that are equal or not but
// have no order (booleans).
const unordered = 2

// compare compares two values of basic kinds as text/template's eq and
// lt do: integers with integers (signed and unsigned mixed), floats,
// strings and, for equality only, booleans. Other kinds and mixed kinds
// are not handled.
func compare(a, b reflect.Value) (int, error) {
	a, b = indirectInterface(a), indirectInterface(b)
	if !a.IsValid() || !b.IsValid() {
		return 0, errNotHandled
	}
	ka, kb := basicKind(a), basicKind(b)
	switch {
	case ka == 0 || kb == 0:
		return 0, errNotHandled
	case ka == 'i' && kb == 'u':
		if a.Int() < 0 {
			return -1, nil
		}
		return cmp3(uint64(a.Int()), b.Uint()), nil
	case ka == 'u' && kb == 'i':
		if b.Int() < 0 {
			return 1, nil
		}
		return cmp3(a.Uint(), uint64(b.Int())), nil
	case ka != kb:
		return 0, errNotHandled
	}
	switch ka {
	case 'i':
		return cmp3(a.Int(), b.Int()), nil
	case 'u':
		return cmp3(a.Uint(), b.Uint()), nil
	case 'f':
		x, y := a.Float(), b.Float()
		if x != x || y != y {
			return 0, errNotHandled
		}
		return cmp3(x, y), nil
	case 's':
		return cmp3(a.String(), b.String()), nil
	case 'b':
		if a.Bool() == b.Bool() {
			return 0, nil
		}
		return unordered, nil
	}
	return 0, errNotHandled
}

func cmp3[T int64 | uint64 | float64 | string](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func basicKind(v reflect.Value) byte {
	switch v.Kind() {
	case reflect.Bool:
		return 'b'
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return 'i'
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return 'u'
	case reflect.Float32, reflect.Float64:
		return 'f'
	case reflect.String:
		return 's'
	}
	return 0
}

// funcMapCall compiles a call of a FuncMap function: its arguments
// checked against its parameters as text/template checks them (constants
// converted to the parameter's type), called by reflection; an error it
// returns, or a panic, hands the template to html/template.
func (c *compiler) funcMapCall(id *parse.IdentifierNode, fn reflect.Value, argNodes []parse.Node) (eval, error) {
	t := fn.Type()
	if t.Kind() != reflect.Func || t.IsVariadic() {
		return nil, fmt.Errorf("%s: function %s is not handled (variadic)", location(id), id.Ident)
	}
	switch {
	case t.NumOut() == 1:
	case t.NumOut() == 2 && t.Out(1) == errorType:
	default:
		return nil, fmt.Errorf("%s: function %s is not handled (its results)", location(id), id.Ident)
	}
	if t.Out(0) == reflect.TypeFor[reflect.Value]() {
		return nil, fmt.Errorf("%s: function %s is not handled (returns a reflect.Value)", location(id), id.Ident)
	}
	if len(argNodes) > t.NumIn() || len(argNodes) < t.NumIn()-1 {
		return nil, fmt.Errorf("%s: function %s with %d arguments", location(id), id.Ident, len(argNodes))
	}
	for in := range t.Ins() {
		if in == reflect.TypeFor[reflect.Value]() {
			return nil, fmt.Errorf("%s: function %s is not handled (a reflect.Value parameter)", location(id), id.Ident)
		}
	}
	args := make([]operand, len(argNodes))
	for i, n := range argNodes {
		a, err := c.argument(n, t.In(i))
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", id.Ident, err)
		}
		args[i] = a
	}
	withFinal := len(argNodes) == t.NumIn()-1
	var last reflect.Type
	if withFinal {
		last = t.In(t.NumIn() - 1)
	}
	return func(st *state, dot, final reflect.Value, hasFinal bool) (reflect.Value, error) {
		if hasFinal != withFinal {
			return reflect.Value{}, errNotHandled
		}
		in := make([]reflect.Value, t.NumIn())
		for i, a := range args {
			v, err := a(st, dot)
			if err != nil {
				return v, err
			}
			in[i] = v
		}
		if hasFinal {
			v, ok := assignable(final, last)
			if !ok {
				return v, errNotHandled
			}
			in[len(args)] = v
		}
		out := fn.Call(in)
		if len(out) == 2 && !out[1].IsNil() {
			return out[0], errNotHandled
		}
		return out[0], nil
	}, nil
}

// argument compiles an argument of a FuncMap function of type typ.
func (c *compiler) argument(n parse.Node, typ reflect.Type) (operand, error) {
	var constant reflect.Value
	switch n := n.(type) {
	case *parse.StringNode:
		if typ.Kind() == reflect.String {
			constant = reflect.New(typ).Elem()
			constant.SetString(n.Text)
		} else if typ.Kind() == reflect.Interface && typ.NumMethod() == 0 {
			constant = reflect.ValueOf(n.Text)
		}
	case *parse.NumberNode:
		switch typ.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if n.IsInt {
				constant = reflect.New(typ).Elem()
				constant.SetInt(n.Int64)
				if constant.Int() != n.Int64 {
					constant = reflect.Value{}
				}
			}
		case reflect.Interface:
			if i, ok := intConstant(n); ok && typ.NumMethod() == 0 {
				constant = reflect.ValueOf(i)
			}
		}
	case *parse.BoolNode:
		if typ.Kind() == reflect.Bool {
			constant = reflect.New(typ).Elem()
			constant.SetBool(n.True)
		} else if typ.Kind() == reflect.Interface && typ.NumMethod() == 0 {
			constant = reflect.ValueOf(n.True)
		}
	default:
		a, err := c.operand(n)
		if err != nil {
			return nil, err
		}
		return func(st *state, dot reflect.Value) (reflect.Value, error) {
			v, err := a(st, dot)
			if err != nil {
				return v, err
			}
			v, ok := assignable(v, typ)
			if !ok {
				return v, errNotHandled
			}
			return v, nil
		}, nil
	}
	if !constant.IsValid() {
		return nil, fmt.Errorf("%s: constant %s for a %s is not handled", location(n), n, typ)
	}
	if typ.Kind() == reflect.Interface {
		constant = constant.Convert(typ)
	}
	return func(*state, reflect.Value) (reflect.Value, error) { return constant, nil }, nil
}

// assignable is v as an argument of type typ, as text/template allows
// it: assignable, or an interface holding an assignable value.
func assignable(v reflect.Value, typ reflect.Type) (reflect.Value, bool) {
	if !v.IsValid() {
		return v, false
	}
	if v.Type().AssignableTo(typ) {
		return v, true
	}
	if v.Kind() == reflect.Interface && !v.IsNil() && v.Elem().Type().AssignableTo(typ) {
		return v.Elem(), true
	}
	return v, false
}
