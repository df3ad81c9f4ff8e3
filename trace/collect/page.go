package collect

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/masrl/masrl/trace/viewer"
)

// ServePage serves page, a page trace view made (viewer.ViewFile), at /
// on addr with the viewer's content security policy, until ctx ends:
// trace view --serve. Once it listens it calls listening with the address
// (addr may ask for any port). It is here, beside trace serve's server,
// so that the viewer, which the WebAssembly validator carries, links no
// HTTP server.
func ServePage(ctx context.Context, addr string, page []byte, listening func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	listening(ln.Addr())
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

// Listen opens trace serve's two listeners, the OTLP/HTTP endpoint's and
// the page's, for Run; when the second cannot be opened the first is
// closed again.
func Listen(otlpAddr, pageAddr string) (otlpLn, pageLn net.Listener, err error) {
	if otlpLn, err = net.Listen("tcp", otlpAddr); err != nil {
		return nil, nil, err
	}
	if pageLn, err = net.Listen("tcp", pageAddr); err != nil {
		otlpLn.Close()
		return nil, nil, err
	}
	return otlpLn, pageLn, nil
}
