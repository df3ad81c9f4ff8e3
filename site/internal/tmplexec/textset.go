package tmplexec

import (
	htmltemplate "html/template"
	"reflect"
	texttemplate "text/template"
	"unsafe"
)

// textSet returns the text/template set under h, which holds every
// escaped tree, the ones html/template derives for a template called in
// another context ("description$htmltemplate_stateAttr…") included; the
// html/template set exports none of those. It returns nil when the
// field is not what this package expects (another Go release), and
// every template then runs on html/template.
func textSet(h *htmltemplate.Template) *texttemplate.Template {
	if h == nil {
		return nil
	}
	f, ok := reflect.TypeFor[htmltemplate.Template]().FieldByName("text")
	if !ok || f.Type != reflect.TypeFor[*texttemplate.Template]() {
		return nil
	}
	p := unsafe.Add(unsafe.Pointer(h), f.Offset)
	return *(**texttemplate.Template)(p)
}
