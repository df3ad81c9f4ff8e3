package site

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/templates"
)

// This file is the theme: what a list may change in how its site looks
// without touching masrl's source. The embedded templates and assets are
// the only defaults; a templates directory is laid over them (TemplateFS),
// and the list's own assets folder is published beside them.

// Defaults returns every file a site's look is made of, as built in: the
// templates (NAME.html) and, under assets/, the style sheets, scripts
// and icon. masrl templates export writes exactly these, and a directory
// given as templates overrides any subset of them.
func Defaults() fs.FS { return data.Overlay(templates.FS, assetFS) }

// AssetAbout says what each built-in asset serves, for the export's
// index; a test keeps it in step with site/assets. Templates say it in
// their own first comment.
var assetAbout = map[string]string{
	"assets/charts.js":   "draws the charts of the pages that have them from their inert JSON",
	"assets/favicon.svg": "the site's icon (masrl.yaml's favicon replaces it)",
	"assets/reader.css":  "the papers list's search box and filters",
	"assets/search.js":   "searches and filters the papers list across all its pages, from search.json, and keeps the state in the URL",
	"assets/site.js":     "the entry pages' Copy and Download buttons for the BibTeX block",
	"assets/style.css":   "the site's style sheet, linked by every page (extra_css is linked after it)",
}

// AssetAbout returns what the built-in asset name (assets/...) serves, or
// "" for a name masrl does not ship.
func AssetAbout(name string) string { return assetAbout[name] }

// TemplateFS returns the embedded templates with the files of dir laid
// over them: a file in dir replaces the embedded one of the same name, and
// templates dir does not have are taken from the binary. dir's assets/
// folder likewise replaces built-in assets of the same name.
func TemplateFS(dir string) fs.FS {
	if dir == "" {
		return templates.FS
	}
	return TemplateOverlay(os.DirFS(dir))
}

// TemplateOverlay lays top over the embedded templates, as TemplateFS
// does a directory: for a folder read through an os.Root.
func TemplateOverlay(top fs.FS) fs.FS { return data.Overlay(top, templates.FS) }

// assets publishes the site's static files under assets/: the built-in
// ones, each replaced by a file of the same name in the templates
// directory's assets/ folder, then the list's own assets folder
// (Options.Assets), whose files are published as they are and may
// replace a built-in one too. Every name is a valid fs path, so none
// leaves the output directory.
func (r *renderer) assets() error {
	files := map[string][]byte{}
	layers := []fs.FS{assetFS}
	if r.opt.Templates != nil {
		layers = append(layers, r.opt.Templates)
	}
	for i, l := range layers {
		err := fs.WalkDir(l, "assets", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if i > 0 && p == "assets" && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipDir
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			b, err := fs.ReadFile(l, p)
			if err != nil {
				return err
			}
			files[p] = b
			return nil
		})
		if err != nil {
			return fmt.Errorf("templates: %w", err)
		}
	}
	if r.opt.AssetFiles != nil {
		err := fs.WalkDir(r.opt.AssetFiles, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("%s/%s: %w", r.opt.assetsName(), p, err)
			}
			if d.IsDir() {
				return nil
			}
			b, err := fs.ReadFile(r.opt.AssetFiles, p)
			if err != nil {
				return fmt.Errorf("%s/%s: %w", r.opt.assetsName(), p, err)
			}
			files[path.Join("assets", p)] = b
			return nil
		})
		if err != nil {
			return err
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := r.files.Add(n, files[n]); err != nil {
			return err
		}
	}
	return nil
}

// prepareTheme checks the files masrl.yaml names inside the assets folder
// and fills SiteInfo's links to them: a name outside the folder, or one
// it does not hold, is an error naming the key.
func (r *renderer) prepareTheme() error {
	r.site.Favicon, r.site.FaviconType = "assets/favicon.svg", iconType(".svg")
	for _, k := range []struct {
		key, name string
		to        *string
	}{
		{"extra_css", r.opt.ExtraCSS, &r.site.ExtraCSS},
		{"logo", r.opt.Logo, &r.site.Logo},
		{"favicon", r.opt.Favicon, &r.site.Favicon},
	} {
		if k.name == "" {
			continue
		}
		if r.opt.AssetFiles == nil {
			return fmt.Errorf("masrl.yaml: %s: %s: the list has no assets folder (%s beside papers.csv, or masrl.yaml's assets)", k.key, k.name, r.opt.assetsName())
		}
		if !fs.ValidPath(k.name) {
			return fmt.Errorf("masrl.yaml: %s: %q: want a path inside %s/", k.key, k.name, r.opt.assetsName())
		}
		if st, err := fs.Stat(r.opt.AssetFiles, k.name); err != nil || st.IsDir() {
			return fmt.Errorf("masrl.yaml: %s: %s/%s: want a file inside the assets folder", k.key, r.opt.assetsName(), k.name)
		}
		*k.to = path.Join("assets", k.name)
	}
	if r.opt.Favicon != "" {
		r.site.FaviconType = iconType(path.Ext(r.opt.Favicon))
	}
	return nil
}

// iconTypes are the media types a favicon's link names, by extension;
// a fixed table, not the system's, so that builds agree everywhere. An
// extension not here gets no type attribute.
var iconTypes = map[string]string{
	".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
	".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
}

// iconType is the type attribute of a favicon with the extension ext, or
// "" for an extension iconTypes does not have. The values are
// masrl's own, never the list's, so they are safe as an attribute.
func iconType(ext string) template.HTMLAttr {
	t, ok := iconTypes[strings.ToLower(ext)]
	if !ok {
		return ""
	}
	return template.HTMLAttr(`type="` + t + `"`)
}

// assetsName is the list's assets folder as masrl.yaml names it, for
// messages.
func (o Options) assetsName() string {
	if o.Theme.Assets != "" {
		return o.Theme.Assets
	}
	return "assets"
}
