//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/masrl/masrl/trace"
)

func main() {
	js.Global().Set("masrlValidate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return `{"valid":false,"findings":[],"error":"masrlValidate(text, {strict}) needs the trace text as a string"}`
		}
		strict := len(args) > 1 && args[1].Type() == js.TypeObject && args[1].Get("strict").Truthy()
		return validateJSON(args[0].String(), strict)
	}))
	js.Global().Set("masrlImport", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return `{"traces":[],"diagnostics":[],"error":"masrlImport(text) needs the OTLP/JSON text as a string"}`
		}
		return importJSON(args[0].String())
	}))
	js.Global().Set("masrlSchema", js.FuncOf(func(js.Value, []js.Value) any {
		return string(trace.SchemaJSON())
	}))
	// Keep the module alive: the page calls into it after main returns.
	select {}
}
