package collect

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/masrl/masrl/trace/viewer"
)

// ServePage serves page, a page trace view made (viewer.ViewFile), at /
// on ln with the viewer's content security policy, until ctx ends: trace
// view --serve. It is here, beside trace serve's server, so that the
// viewer, which the WebAssembly validator carries, links no HTTP server.
func ServePage(ctx context.Context, ln net.Listener, page []byte) error {
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", viewer.Policy())
		w.Write(page)
	})}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
