// Package templates carries the site's html/template files. It exists as a
// package of its own because //go:embed only reaches files at or below the
// embedding package's folder, and the templates live at the top of the
// repository where people who restyle the site look for them.
package templates

import "embed"

// FS holds layout.html (the shared page frame) and one template per page
// type. site.Build reads it unless a directory overrides some files.
//
//go:embed *.html
var FS embed.FS
