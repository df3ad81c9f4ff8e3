// Command genschemas writes the generated schemas of schema/: the row of
// papers.csv (paper.schema.json, from data/vocab.yaml through
// corpus.RowSchema) and masrl.yaml (masrl.schema.json, from
// siteconfig.Keys). Their $id sits beside trace.schema.json's, so that the
// three are published under one address. Package schema runs it through
// go generate; TestGeneratedIsFresh fails when a checked-in file differs
// from what its source gives.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/schema"
)

func main() {
	dir := flag.String("dir", ".", "the schema directory to write into")
	flag.Parse()
	files, err := generated()
	if err == nil {
		for _, f := range files {
			if err = os.WriteFile(filepath.Join(*dir, f.name), f.data, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschemas:", err)
		os.Exit(1)
	}
}

type file struct {
	name string
	data []byte
}

// generated returns the generated schemas from their sources as built
// into the binary.
func generated() ([]file, error) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		return nil, err
	}
	var out []file
	for _, s := range []struct {
		name string
		root schema.Node
	}{
		{"paper.schema.json", corpus.RowSchema(v)},
		{"masrl.schema.json", siteconfig.JSONSchema()},
	} {
		id, err := schema.ID(s.name)
		if err != nil {
			return nil, err
		}
		b, err := schema.Document(id, s.root)
		if err != nil {
			return nil, err
		}
		out = append(out, file{s.name, b})
	}
	return out, nil
}
