package serve

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/masrl/masrl/internal/sse"
)

// Live reload: masrl serve adds one script to every HTML page it serves,
// never to the files it builds, so the published site is without it
// (TestServeLiveScriptOnlyServed). The script opens a stream of
// Server-Sent Events; the server sends the site's version when the
// stream opens and after every build, and a page whose version differs
// from the one it was served with reloads. A page served between a build
// and its event therefore reloads at once or not at all, never misses a
// change, and a failed build shows its findings the same way.

// liveScriptPath and liveEventsPath are under a name no site file has:
// keys and values are lower-case slugs, which never start with "_".
const (
	liveScriptPath = "/_masrl/live.js"
	liveEventsPath = "/_masrl/events"
)

// liveScript reloads the page when the served site's version differs
// from the one in its data-version attribute.
const liveScript = `(() => {
  const version = document.currentScript.dataset.version;
  const events = new EventSource("` + liveEventsPath + `");
  events.addEventListener("version", (e) => {
    if (e.data !== version) {
      events.close();
      location.reload();
    }
  });
  addEventListener("pagehide", () => events.close());
})();
`

// withLiveScript returns an HTML page with the live-reload script before
// its closing body tag (at its end without one).
func withLiveScript(page []byte, version int) []byte {
	tag := `<script src="` + liveScriptPath + `" data-version="` + strconv.Itoa(version) + `"></script>`
	i := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 {
		i = len(page)
	}
	out := make([]byte, 0, len(page)+len(tag)+1)
	out = append(out, page[:i]...)
	out = append(out, tag...)
	out = append(out, '\n')
	return append(out, page[i:]...)
}

// serveEvents streams the site's version (internal/sse, which masrl
// trace serve shares): once at once, then after every build, until the
// page or the server goes away.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	sse.StreamVersions(w, r, s.quit, func() (int, <-chan struct{}) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.version, s.changed
	})
}
