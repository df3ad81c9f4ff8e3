// Package masrl holds the files of this repository that the masrl binary
// gives to the lists it scaffolds (masrl init): the GitHub workflows that
// check pull requests, publish the site on Pages and turn accepted
// suggestions into pull requests, and publish a release of the list on a
// v* tag. The workflows serve this repository and
// every list alike, so they are embedded from where GitHub runs them here,
// and a list receives the very files masrl's own CI exercises.
package masrl

import "embed"

// Workflows holds .github/workflows/{check,pages,add-paper,list-release}.yml.
//
//go:embed .github/workflows/check.yml .github/workflows/pages.yml .github/workflows/add-paper.yml .github/workflows/list-release.yml
var Workflows embed.FS
