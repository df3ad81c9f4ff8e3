package site

import (
	"html/template"
	"sync"
	"testing"
)

// TestCachedRendersOutsideTheLock: while one worker renders a piece,
// another looks up, renders and stores another (cached holds its lock
// for the map only; before, the second waited for the first render and
// this test never ended); and when two render the same piece, the one
// stored first is what both get.
func TestCachedRendersOutsideTheLock(t *testing.T) {
	var (
		mu sync.Mutex
		m  map[string]template.HTML
	)
	inRender, release := make(chan struct{}), make(chan struct{})
	done := make(chan template.HTML)
	go func() {
		done <- cached(&mu, &m, "k", func() template.HTML {
			close(inRender)
			<-release
			return "second"
		})
	}()
	<-inRender
	if got := cached(&mu, &m, "other", func() template.HTML { return "other" }); got != "other" {
		t.Errorf("other: %q", got)
	}
	if got := cached(&mu, &m, "k", func() template.HTML { return "first" }); got != "first" {
		t.Errorf("k, stored first: %q", got)
	}
	close(release)
	if got := <-done; got != "first" {
		t.Errorf("k, rendered second: %q, want the piece stored first", got)
	}
	if got := cached(&mu, &m, "k", func() template.HTML { t.Error("k rendered a third time"); return "" }); got != "first" {
		t.Errorf("k, cached: %q", got)
	}
}
