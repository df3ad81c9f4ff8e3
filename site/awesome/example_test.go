package awesome_test

import (
	"fmt"

	"github.com/masrl/masrl/site/awesome"
)

func ExampleReplaceBlock() {
	doc := "# Awesome list\n\n" + awesome.BeginMarker + "\n(stale)\n" + awesome.EndMarker + "\n\nSee LICENSE.\n"
	out, err := awesome.ReplaceBlock([]byte(doc), []byte("- [A paper](https://example.org/a) - What it does.\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// # Awesome list
	//
	// <!-- BEGIN GENERATED PAPER LIST -->
	// - [A paper](https://example.org/a) - What it does.
	// <!-- END GENERATED PAPER LIST -->
	//
	// See LICENSE.
}
