package browsertest

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/masrl/masrl/site/search"
)

// humanKeyInterval is the pace of a reader typing: about eight keys a
// second. It sets the rhythm of the keystrokes the test sends; the test
// never waits on it for a result.
const humanKeyInterval = 120 * time.Millisecond

// TestKeystrokes types into the papers page's search box the ways a reader
// does (all at once, at a human pace, pasted, composed with an IME,
// corrected with backspace) before the search index has arrived and after,
// and checks that every keystroke counts: once the index is in, the box,
// the list and the address all hold the query typed. Before, the page
// says, in its live region, that the index is loading. The test server
// holds the index back (indexGate) so that "before" is certain.
func TestKeystrokes(t *testing.T) {
	parallel(t)
	dir := publicDir(t)
	c, v := loadCorpus(t)
	ix := search.Build(c, v, nil)
	q := searchQuery(ix)
	if q == "" {
		t.Fatal("no usable query in the corpus")
	}
	b := startBrowser(t, dir)
	p := b.newPage(t)

	// do runs browser actions, failing the test on an error.
	do := func(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(p.ctx, actions...); err != nil {
			t.Fatal(err)
		}
	}
	// insert puts text into the focused box as a paste or an IME's
	// commit does: one input event, no key events.
	insert := func(t *testing.T, text string) {
		t.Helper()
		if _, err := chromedp.Call(p.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	// typeAt types text into the focused box, one key per interval.
	typeAt := func(t *testing.T, text string, every time.Duration, afterKey func(i int)) {
		t.Helper()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for i, r := range text {
			do(t, chromedp.KeyEvent(string(r)))
			if afterKey != nil {
				afterKey(i)
			}
			<-tick.C
		}
	}
	// loading opens the papers page with the index held back, and checks
	// that the page announces the load once the reader turns to the box.
	loading := func(t *testing.T, path string) {
		t.Helper()
		b.index.hold()
		t.Cleanup(b.index.release) // a failed subtest must not hold the next one's index
		p.open(t, path)
		do(t, chromedp.Focus(chromedp.CSS("#paper-search-q")))
		p.waitFor(t, `document.getElementById("search-status").textContent !== ""`)
		var st struct {
			Role, Live, Text, Busy string
			Ready                  bool
		}
		p.eval(t, `(() => { const s = document.getElementById("search-status"), list = document.getElementById("paper-list");
		  return {Role: s.getAttribute("role"), Live: s.getAttribute("aria-live"), Text: s.textContent,
		    Busy: list.getAttribute("aria-busy") || "", Ready: list.hasAttribute("data-search-ready")}; })()`, &st)
		if st.Role != "status" || st.Live != "polite" || !strings.Contains(st.Text, "Loading") || st.Busy != "true" || st.Ready {
			t.Errorf("while the index loads the status says %q (role %q, aria-live %q), the list is aria-busy=%q and ready %v; want a polite status saying it is loading and a busy list",
				st.Text, st.Role, st.Live, st.Busy, st.Ready)
		}
	}
	// agree waits until the index is in and the address agrees with the
	// box (the search writes both in one update), then checks that both
	// hold want and the list shows its matches.
	agree := func(t *testing.T, want string, sel map[string][]string) {
		t.Helper()
		p.waitFor(t, `document.querySelector("#paper-list[data-search-ready]") !== null && (new URLSearchParams(location.search).get("q") || "") === ((v) => v.trim() === "" ? "" : v)(document.getElementById("paper-search-q").value)`)
		var box, href string
		p.eval(t, `document.getElementById("paper-search-q").value`, &box)
		p.eval(t, `location.href`, &href)
		if box != want {
			t.Errorf("box holds %q, want %q", box, want)
		}
		u, err := url.Parse(href)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Query().Get("q"); got != want {
			t.Errorf("address %s has q=%q, want %q", href, got, want)
		}
		for f, vals := range sel {
			if got := u.Query()[f]; !slices.Equal(got, vals) {
				t.Errorf("address %s has %s=%v, want %v", href, f, got, vals)
			}
		}
		if got, wantKeys := p.visibleKeys(t), sorted(ix.Match(want, sel)); !slices.Equal(got, wantKeys) {
			t.Errorf("with %q in the box the list shows %d entries %v, want %d %v", want, len(got), got, len(wantKeys), wantKeys)
		}
		p.check(t, "papers/")
	}

	t.Run("before the index, 0 ms per key", func(t *testing.T) {
		loading(t, "papers/")
		do(t, chromedp.SendKeys(chromedp.CSS("#paper-search-q"), q))
		b.index.release()
		agree(t, q, nil)
	})
	t.Run("index arrives while typing at a human pace", func(t *testing.T) {
		loading(t, "papers/")
		typeAt(t, q, humanKeyInterval, func(i int) {
			if i == 1 {
				b.index.release()
			}
		})
		agree(t, q, nil)
	})
	t.Run("before the index, human pace", func(t *testing.T) {
		loading(t, "papers/")
		typeAt(t, q, humanKeyInterval, nil)
		b.index.release()
		agree(t, q, nil)
	})
	t.Run("after the index, 0 ms per key", func(t *testing.T) {
		p.open(t, "papers/")
		p.waitFor(t, searchReadyJS)
		do(t, chromedp.SendKeys(chromedp.CSS("#paper-search-q"), q))
		agree(t, q, nil)
	})
	t.Run("after the index, human pace", func(t *testing.T) {
		p.open(t, "papers/")
		p.waitFor(t, searchReadyJS)
		typeAt(t, q, humanKeyInterval, nil)
		agree(t, q, nil)
	})
	t.Run("paste before the index", func(t *testing.T) {
		loading(t, "papers/")
		insert(t, q)
		b.index.release()
		agree(t, q, nil)
	})
	t.Run("backspace during the load", func(t *testing.T) {
		loading(t, "papers/")
		do(t, chromedp.SendKeys(chromedp.CSS("#paper-search-q"), q+"xyz"))
		typeAt(t, kb.Backspace+kb.Backspace, humanKeyInterval, nil)
		b.index.release()
		do(t, chromedp.KeyEvent(kb.Backspace))
		agree(t, q, nil)
	})
	t.Run("IME composition across the load", func(t *testing.T) {
		loading(t, "papers/")
		half := q[:len(q)/2]
		for i := 1; i <= len(half); i++ {
			if _, err := chromedp.Call(p.ctx, input.ImeSetComposition, input.ImeSetCompositionParams{Text: half[:i], SelectionStart: int64(i), SelectionEnd: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		b.index.release()
		p.waitFor(t, searchReadyJS)
		insert(t, q)
		agree(t, q, nil)
	})
	t.Run("address with a query and a facet", func(t *testing.T) {
		sel := map[string][]string{"credit_granularity": {"message"}}
		b.index.hold()
		t.Cleanup(b.index.release)
		p.open(t, "papers/?q="+url.QueryEscape(q)+"&credit_granularity=message")
		var box string
		p.eval(t, `document.getElementById("paper-search-q").value`, &box)
		if box != q {
			t.Errorf("before the index arrives the box holds %q, want the address's %q", box, q)
		}
		b.index.release()
		agree(t, q, sel)
	})
}
