package browsertest

import (
	"os"

	"github.com/chromedp/chromedp"
	"testing"
)

// TestAssetsFixture checks the chart and search assets in a real browser on
// a fixture built from the corpus, independently of the site's templates.
func TestAssetsFixture(t *testing.T) {
	parallel(t)
	c, v := loadCorpus(t)
	dir, ids := fixtureSite(t, c, v)
	shapes := corpusShapes(c, v, nil)
	shapes["chart-hostile"] = []shape{{Type: "bar", Points: 2, Sum: 4}}
	b := startBrowser(t, dir)
	p := b.newPage(t)

	t.Run("charts", func(t *testing.T) {
		p.open(t, "index.html")
		checkLazyCharts(t, p, "fixture charts")
		checkCharts(t, p, "fixture charts", ids, shapes)
		checkAxe(t, p, "fixture charts")
		// Show the tooltips of the hostile chart and a heatmap, then look
		// for anything the hostile text could have created.
		var ok bool
		p.eval(t, `(() => {
		  for (const id of ["chart-hostile", "chart-coverage-reward-type-credit-granularity"]) {
		    echarts.getInstanceByDom(document.getElementById(id)).dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 0});
		  }
		  return true;
		})()`, &ok)
		p.eval(t, `new Promise(r => setTimeout(() => r(true), 300))`, &ok)
		var hostile struct {
			Flag any `json:"flag"`
			Imgs int `json:"imgs"`
		}
		p.eval(t, `({flag: window.__hostile === undefined ? null : window.__hostile, imgs: document.querySelectorAll("img").length})`, &hostile)
		if hostile.Flag != nil || hostile.Imgs != 0 {
			t.Errorf("hostile chart text became markup: flag %v, %d img elements", hostile.Flag, hostile.Imgs)
		}
		// A narrower window redraws every chart at the new width.
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(480, 900)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `Array.from(document.querySelectorAll("div.chart")).every(d => {
		  const c = d.querySelector("canvas");
		  return c && d.clientWidth < 480 && Math.abs(c.getBoundingClientRect().width - d.clientWidth) < 2;
		})`)
		// and a wider one widens them again (the window's own size, 1280).
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `Array.from(document.querySelectorAll("div.chart")).every(d => {
		  const c = d.querySelector("canvas");
		  return c && d.clientWidth > 480 && Math.abs(c.getBoundingClientRect().width - d.clientWidth) < 2;
		})`)
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
