package corpus

import (
	"slices"

	"github.com/masrl/masrl/schema"
)

// RowSchema returns the JSON Schema of one row of papers.csv written as a
// JSON object of its 18 columns, every value a string as the CSV holds
// it. The controlled fields' values and definitions come from v, the key
// and arXiv id patterns and the optional columns from the check's own
// rules, so that the schema says what Check says about a single row (not
// what needs the whole corpus: unique keys, BibTeX, years up to next
// year). The top-level schema/paper.schema.json is this for the embedded
// vocabulary (go generate ./schema), and a test keeps it fresh.
func RowSchema(v *Vocabulary) schema.Node {
	root := schema.Node{
		Type: "object", Title: "One row of " + PapersFile, Closed: true,
		Description: "A retained paper as masrl check reads one row of " + PapersFile + ", its columns as JSON strings. Generated from data/vocab.yaml by go generate ./schema; do not edit.",
	}
	for _, col := range paperColumns {
		p := schema.Node{Type: "string"}
		switch f := v.Field(col); {
		case f != nil && f.File == PapersFile:
			p.Title, p.Description, p.Enum = f.Label, f.Definition, f.Allowed()
		case col == "key":
			p.Description = "The entry's key: a lowercase slug, unique in the corpus, which becomes the entry's URL path."
			p.Pattern = keyPattern.String()
		case col == "arxiv_id":
			p.Description = "The new-style arXiv identifier, with an optional version; empty when the work is not on arXiv."
			p.Pattern = "^$|" + arxivIDPattern.String()
		case col == "year":
			p.Pattern = "^[0-9]{4}$"
		case col == "url":
			p.Description = "Absolute http(s) URLs, several separated by ' ; '."
			p.Pattern = "^https?://"
		}
		if !slices.Contains(optionalPaperColumns[:], col) {
			root.Required = append(root.Required, col)
			if p.Enum == nil && p.Pattern == "" {
				p.MinLength = 1
			}
		}
		root.Properties = append(root.Properties, schema.Property{Name: col, Schema: p})
	}
	return root
}
