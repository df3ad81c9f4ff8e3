package site_test

import (
	"fmt"

	"github.com/masrl/masrl/site"
)

func ExampleReplaceBlock() {
	doc := "# Awesome list\n\n" + site.BeginMarker + "\n(stale)\n" + site.EndMarker + "\n\nLicense: CC0.\n"
	out, err := site.ReplaceBlock([]byte(doc), []byte("- **A paper** (2026)\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// # Awesome list
	//
	// <!-- BEGIN GENERATED PAPER LIST -->
	// - **A paper** (2026)
	// <!-- END GENERATED PAPER LIST -->
	//
	// License: CC0.
}
