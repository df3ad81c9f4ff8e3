package browsertest

import (
	"os"
	"testing"
)

// TestAssetsFixture checks the chart and search assets in a real browser on
// a fixture built from the corpus, independently of the site's templates.
func TestAssetsFixture(t *testing.T) {
	c, v := loadCorpus(t)
	dir, ids := fixtureSite(t, c, v)
	shapes := corpusShapes(c, v)
	b := startBrowser(t, dir)
	p := b.newPage(t)

	t.Run("charts", func(t *testing.T) {
		p.open(t, "index.html")
		checkCharts(t, p, "fixture charts", ids, shapes)
		checkAxe(t, p, "fixture charts")
		screenshot(t, p, "fixture-charts", "light")
		screenshot(t, p, "fixture-charts", "dark")
		checkCharts(t, p, "fixture charts after switching to dark", ids, shapes)
		screenshot(t, p, "fixture-charts", "light")
		if os.Getenv("MASRL_CHART_SHOTS") != "" {
			screenshotCharts(t, p, "fixture", "light", ids)
			screenshotCharts(t, p, "fixture", "dark", ids)
		}
		p.check(t, "fixture charts")
	})
	t.Run("search", func(t *testing.T) {
		checkSearch(t, p, "papers.html", c, v)
		checkAxe(t, p, "fixture papers")
		p.check(t, "fixture papers")
	})
}
