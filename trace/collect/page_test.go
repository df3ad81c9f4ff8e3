// trace view --serve listens on TCP, which js/wasm does not have.
//go:build !js

package collect

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestServePage: the page is served at / with the viewer's content
// security policy, any other path is not found, and the server stops
// when the context ends.
func TestServePage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- ServePage(ctx, "127.0.0.1:0", []byte("<!DOCTYPE html>page"), func(a net.Addr) { addrs <- a })
	}()
	var u string
	select {
	case a := <-addrs:
		u = "http://" + a.String() + "/"
	case err := <-done:
		t.Fatal(err)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "<!DOCTYPE html>page" || !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("served %q with policy %q", body, resp.Header.Get("Content-Security-Policy"))
	}
	if resp, err := http.Get(u + "other"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("another path: %v %v", resp, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("after the context ended: %v", err)
	}
}

// TestListen: an address that cannot be had is an error; two free ones
// give the two listeners.
func TestListen(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	if _, _, err := Listen("127.0.0.1:0", busy.Addr().String()); err == nil {
		t.Fatal("listened on a busy address")
	}
	o, p, err := Listen("127.0.0.1:0", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.Close()
	p.Close()
}
