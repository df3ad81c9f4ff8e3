// Package sse is the one Server-Sent Events stream of masrl's local
// servers: masrl serve reloads its pages with it (site/serve) and masrl
// trace serve redraws its list of traces (trace/collect). It sits apart
// from both so that neither a site package nor a trace package imports
// the other for it.
package sse

import (
	"fmt"
	"net/http"
)

// StreamVersions sends the version current gives at once, then again
// each time the channel current gave with it is closed, until the page or
// the server (quit) goes away. A page compares the version with its own
// and reloads or redraws when it differs, so it never misses a change.
func StreamVersions(w http.ResponseWriter, r *http.Request, quit <-chan struct{}, current func() (int, <-chan struct{})) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	for {
		version, changed := current()
		if _, err := fmt.Fprintf(w, "event: version\ndata: %d\n\n", version); err != nil {
			return
		}
		fl.Flush()
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-quit:
			return
		}
	}
}
