package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
)

func templatesCommand() command {
	return command{summary: "export the embedded templates and assets to restyle the site (templates export DIR)", run: runTemplates}
}

// runTemplates dispatches templates' one subcommand, export.
func runTemplates(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "usage: masrl templates export DIR\n\n" +
		"  export  write every embedded template and asset into DIR (new or empty), for --templates DIR\n"
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "export":
		return templatesExport(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		io.WriteString(stderr, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "masrl templates: unknown subcommand %q\n%s", args[0], usage)
	return exitUsage
}

// templatesExport writes site.Defaults (the templates and assets every
// build falls back to) into a new or empty directory, with an index,
// README.txt, saying what each file renders. It never writes over a file:
// a directory that holds anything is refused before anything is written.
func templatesExport(args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "templates export")
	fs0 := newFlagSet("templates export", "templates export DIR", stderr)
	if code, ok := parseFlags(fs0, args); !ok {
		return code
	}
	if fs0.NArg() != 1 {
		fs0.Usage()
		return exitUsage
	}
	dir := fs0.Arg(0)
	n, err := exportTemplates(dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stdout, "%s: %d files; build with --templates %s (or templates: in masrl.yaml) after changing any of them, and delete the ones you keep as they are\n", dir, n, dir)
	return exitOK
}

// exportTemplates writes the defaults into dir and returns how many files
// it wrote, README.txt included.
func exportTemplates(dir string) (int, error) {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return 0, fmt.Errorf("%s: not empty (%s, ...); export into a new or empty directory, never over existing files", dir, ents[0].Name())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	defaults := site.Defaults()
	var index strings.Builder
	index.WriteString("The templates and assets masrl builds a site with, as exported by\n" +
		"masrl templates export. Build with --templates DIR (or templates: in\n" +
		"masrl.yaml): a file here replaces the built-in one of the same name, and\n" +
		"a file you delete is taken from masrl again. Each template says what it\n" +
		"renders in its first comment; the assets:\n\n")
	n := 0
	err := fs.WalkDir(defaults, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(defaults, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		// O_EXCL: a file that appeared meanwhile is never overwritten.
		f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		n++
		if path.Dir(p) == "assets" {
			fmt.Fprintf(&index, "  %s: %s\n", p, site.AssetAbout(p))
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	to := filepath.Join(dir, "README.txt")
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return n, err
	}
	if _, err := io.WriteString(f, index.String()); err != nil {
		f.Close()
		return n, err
	}
	return n + 1, f.Close()
}

// listAssets opens the list's assets folder (name, default "assets") inside
// the corpus directory dir, through an os.Root of dir: a folder, or a
// file in it, that a symbolic link leads out of the corpus is refused
// with its name, never published. nil without the folder, unless
// masrl.yaml names it.
func listAssets(dir, name string) (fs.FS, error) {
	named := name != ""
	if !named {
		name = "assets"
	}
	if !fs.ValidPath(name) || name == "." {
		return nil, fmt.Errorf("masrl.yaml: assets: %q: want a folder inside the corpus directory %s", name, dir)
	}
	if err := corpus.CheckInside(dir, name); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	st, err := root.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !named:
		root.Close()
		return nil, nil
	case err != nil:
		root.Close()
		return nil, fmt.Errorf("masrl.yaml: assets: %s: %w (want a folder inside the corpus directory)", filepath.Join(dir, name), err)
	case !st.IsDir():
		root.Close()
		return nil, fmt.Errorf("masrl.yaml: assets: %s: not a folder", filepath.Join(dir, name))
	}
	sub, err := fs.Sub(root.FS(), name)
	if err != nil {
		root.Close()
		return nil, err
	}
	// Every file is checked now, so that a link out of the corpus deep in
	// the folder stops the build before it starts, with its name. The
	// root stays open for the build; it is closed when collected.
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return corpus.CheckInside(dir, path.Join(name, p))
		}
		return nil
	})
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("assets: %w", err)
	}
	return sub, nil
}

// configTemplates opens the templates folder masrl.yaml names (dir, joined
// to the file's folder configDir by siteconfig.Load) through an os.Root
// of configDir: a folder that a symbolic link leads out of it is refused
// with its name, and a link inside it cannot be followed out. "" : the
// embedded templates.
func configTemplates(dir, configDir string) (fs.FS, error) {
	if dir == "" {
		return site.TemplateFS(""), nil
	}
	rel, err := filepath.Rel(configDir, dir)
	if err != nil || !fs.ValidPath(filepath.ToSlash(rel)) {
		return nil, fmt.Errorf("masrl.yaml: templates: %s: want a folder beside masrl.yaml", dir)
	}
	rel = filepath.ToSlash(rel)
	if err := corpus.CheckInside(configDir, rel); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	root, err := os.OpenRoot(configDir)
	if err != nil {
		return nil, err
	}
	if st, err := root.Stat(rel); err != nil || !st.IsDir() {
		root.Close()
		return nil, fmt.Errorf("masrl.yaml: templates: %s: want a folder beside masrl.yaml", dir)
	}
	sub, err := fs.Sub(root.FS(), rel)
	if err != nil {
		root.Close()
		return nil, err
	}
	return site.TemplateOverlay(sub), nil
}
