package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedIsFresh fails when a generated schema of schema/ is not
// what its source gives: data/vocab.yaml or siteconfig.Keys changed and
// go generate was not run, or the file was edited by hand.
func TestGeneratedIsFresh(t *testing.T) {
	files, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("schema/%s is stale: run go generate ./schema", f.name)
		}
	}
}
