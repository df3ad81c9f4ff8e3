// Package chartlib holds the chart library the site publishes: a build of
// echarts with only the chart types and components package site/chart
// uses (entry.js), bundled and minified by esbuild at the versions
// package-lock.json pins. The built file is committed and embedded, so an
// installed masrl draws charts without node_modules; TestBuild rebuilds it
// from node_modules and requires the same bytes, and `make echarts`
// (go test -run TestBuild -update) rewrites it after entry.js or the lock
// changed.
package chartlib

import _ "embed"

//go:embed echarts.min.js
var library []byte

// Library returns the built chart library. The slice is shared: callers
// must not modify it.
func Library() []byte { return library }
