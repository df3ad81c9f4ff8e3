//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains itself when the module is built for a native platform, so
// that go build ./... and go vet ./... still cover this package.
func main() {
	fmt.Fprintln(os.Stderr, "masrl-wasm runs in a browser: build it with GOOS=js GOARCH=wasm (make wasm)")
	os.Exit(2)
}
