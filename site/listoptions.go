package site

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// ListOptions returns opt completed with what a build of the list whose
// corpus is in corpusDir reads from disk, so that Build itself reads
// nothing there: the site's settings, masrl.yaml (config when given,
// else the corpus directory's) with every override (the flags of its
// keys given a value, siteconfig.Resolve) laid over it; the templates
// (a --templates folder as it is, masrl.yaml's templates: folder opened
// inside its root and laid over the embedded ones); the releases and
// upkeep dates (release.ReadHistory); the days rows joined the list,
// asked of git when the build wants them (corpus.AddedFromHistory); and
// the assets: folder opened inside the corpus directory. masrl build
// calls it once and masrl serve before every build, since masrl.yaml
// may have changed. What opt sets of those is replaced; the rest (Out,
// WithClaims, ECharts, TraceExample, Downloads) is kept.
func ListOptions(corpusDir, config string, overrides map[string]string, opt Options) (Options, error) {
	cfg, configDir, err := siteconfig.Resolve(config, corpusDir, overrides)
	if err != nil {
		return Options{}, err
	}
	opt.Config = *cfg
	opt.Templates = TemplateFS(cfg.Templates) // --templates names any folder
	if overrides["templates"] == "" && cfg.Templates != "" {
		tfs, err := cfg.OpenTemplates(configDir)
		if err != nil {
			return Options{}, err
		}
		opt.Templates = TemplateOverlay(tfs)
	}
	if opt.History, err = release.ReadHistory(corpusDir); err != nil {
		return Options{}, err
	}
	opt.AddedDates = func(keyColumn int) (map[string]string, error) {
		return corpus.AddedFromHistory(context.Background(), corpusDir, keyColumn)
	}
	if opt.AssetFiles, err = cfg.OpenAssets(corpusDir); err != nil {
		return Options{}, err
	}
	return opt, nil
}

// WriteOutcome prints, as prog (masrl build, masrl serve), what a
// build of a list says besides its pages: its warnings, one per line,
// and, when it failed, every finding of the check that refused the
// corpus (Diagnostics.WriteRefusal: the previous site was left as it
// was) or the error. refused says the check failed, which the command
// answers with its findings' exit code rather than an error's.
func WriteOutcome(w io.Writer, prog string, res *Result, err error) (refused bool) {
	if res != nil {
		for _, d := range res.Warnings {
			fmt.Fprintln(w, d.String())
		}
	}
	if err == nil {
		return false
	}
	if ds, ok := IsCheckError(err); ok {
		ds.WriteRefusal(w, prog, "the previous site was left as it was")
		return true
	}
	fmt.Fprintf(w, "%s: %v\n", prog, err)
	return false
}
