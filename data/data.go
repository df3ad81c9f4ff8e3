// Package data holds the project's own data, embedded into the binary: the
// controlled vocabularies, the paper's claims, the orchestration
// sub-decisions, prose pages and site settings. Packages that interpret the
// files (corpus, site) parse them; this package only carries the bytes, so
// that one copy of each file drives every consumer.
package data

import "embed"

// FS is the embedded data directory. An embed.FS is read-only.
//
//go:embed *.yaml pages/*.md
var FS embed.FS
