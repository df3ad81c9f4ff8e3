package site

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
)

// This file is the job queue: pages and generated files are queued while
// the views are ready, then rendered on every CPU and handed to Files.

// renderJob is one page waiting to be rendered.
type renderJob struct {
	tmpl  string // "" for a file whose content is raw or written by write
	file  string
	data  any
	raw   string
	write func(io.Writer) error
	// input and build, for a page queued with renderLater, make the
	// page's input and its data from the input, when it is rendered.
	input func() any
	build func(input any) (any, *Page)
	// inputs, for a file written by write, hashes everything write reads
	// (generateKeyed); nil: the file is always written.
	inputs func(kw *keyWalker)
}

// render queues a page; runJobs executes the queue once every page's data
// is ready. The paths are claimed at once, so a collision is reported where
// it happens.
func (r *renderer) render(name string, p *Page, data any) error {
	if err := r.files.Claim(p.File); err != nil {
		return err
	}
	r.frame(name, p)
	if name != "404" {
		r.pages = append(r.pages, strings.TrimSuffix(p.File, "index.html"))
	}
	r.jobs = append(r.jobs, renderJob{tmpl: name, file: p.File, data: data})
	return nil
}

// renderLater queues a page whose data is made when the page is
// rendered, on a worker, so that the data of 100,000 entry pages, with
// their pieces, is never in memory at once; and in two steps: input
// returns what the page is made from, which an incremental build keys
// the page by (everything build reads of the build must be in it), and
// build makes the page's data from it, only when the page is rendered.
func (r *renderer) renderLater(name, file string, input func() any, build func(input any) (any, *Page)) error {
	if err := r.files.Claim(file); err != nil {
		return err
	}
	r.pages = append(r.pages, strings.TrimSuffix(file, "index.html"))
	r.jobs = append(r.jobs, renderJob{tmpl: name, file: file, input: input, build: build})
	return nil
}

// runJobs executes the queued pages on every CPU and hands each page to
// r.files as soon as it is rendered: a streaming build writes it through a
// buffered writer straight into its file, so that it never holds more than
// one page per CPU, and those only in part. Page data is read-only by now,
// html/template is safe for concurrent use and Files locks, so the only
// other shared state is each job's error slot; the first error in queue
// order is returned, so failures are reported the same way on every run.
func (r *renderer) runJobs() error {
	if r.cache.err != nil {
		return r.cache.err
	}
	if r.inc != nil {
		r.inc.keys = make([]uint64, len(r.jobs))
		r.inc.reused = make([]bool, len(r.jobs))
	}
	r.early = newEarlyPages(r.jobs, r.opt, r.shownEarly)
	errs := make([]error, len(r.jobs))
	next := make(chan int, 64)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			w := bufio.NewWriterSize(nil, 64<<10)
			var page bytes.Buffer
			for i := range next {
				errs[i] = r.runJob(i, w, &page)
			}
		})
	}
	for _, i := range r.jobOrder() {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return r.cache.err // a piece of a page built on a worker
}

// keepKeyed records key as job i's and keeps the file the last build
// wrote under that key, if there is one: whether it did, in which case
// the job is done.
func (r *renderer) keepKeyed(i int, key uint64) (bool, error) {
	file := r.jobs[i].file
	r.inc.keys[i] = key
	if r.early.wants(i) {
		return false, nil // rendered for Options.Early, never kept
	}
	kept, err := r.inc.reuse(r.files, file, key)
	if err != nil {
		return false, fmt.Errorf("writing %s: %w", file, err)
	}
	r.inc.reused[i] = kept
	return kept, nil
}

// runJob makes job i's key in an incremental build and keeps the last
// build's file when the key is unchanged; it makes the page's data, if it
// was queued without, and renders the page otherwise.
func (r *renderer) runJob(i int, w *bufio.Writer, page *bytes.Buffer) error {
	j := r.jobs[i]
	if j.build != nil {
		// A page queued with renderLater is keyed by its input, and its
		// data made only when it is rendered.
		input := j.input()
		if r.inc != nil {
			if key, ok := r.inc.pageKey(j.tmpl, j.file, input); ok {
				if kept, err := r.keepKeyed(i, key); kept || err != nil {
					return err
				}
			}
		}
		var p *Page
		j.data, p = j.build(input)
		r.frame(j.tmpl, p)
	} else if r.inc != nil && j.tmpl != "" {
		if key, ok := r.inc.pageKey(j.tmpl, j.file, j.data); ok {
			if kept, err := r.keepKeyed(i, key); kept || err != nil {
				return err
			}
		}
	}
	if r.inc != nil && j.inputs != nil {
		if key, ok := r.inc.fileKey(j.file, j.inputs); ok {
			if kept, err := r.keepKeyed(i, key); kept || err != nil {
				return err
			}
		}
	}
	if r.early.wants(i) {
		return r.runJobEarly(j, page)
	}
	if !r.files.Streaming() {
		return r.runJobInMemory(j, page)
	}
	return r.runJobToFile(j, w, page)
}

// pageKeys returns the keys of the pages the build rendered or kept.
func (r *renderer) pageKeys() map[string]uint64 {
	keys := make(map[string]uint64, len(r.jobs))
	for i, j := range r.jobs {
		if k := r.inc.keys[i]; k != 0 {
			keys[j.file] = k
		}
	}
	return keys
}

// jobOrder is the order runJobs hands out the jobs: the pages of
// Options.First first, then the few large ones (the papers page with every entry, term and cell pages, the
// JSON downloads, the search index and the feeds, each a second or more of
// one CPU at 100,000 entries), then the many small ones, so that no CPU
// is left alone with a large job at the end. Queue order still decides
// which error is reported.
func (r *renderer) jobOrder() []int {
	order := make([]int, 0, len(r.jobs))
	for i := range r.jobs {
		if r.early.wants(i) {
			order = append(order, i)
		}
	}
	for pass := range 2 {
		for i, j := range r.jobs {
			large := j.write != nil || j.tmpl == "papers" || j.tmpl == "term" || j.tmpl == "cell"
			if large == (pass == 0) && !r.early.wants(i) {
				order = append(order, i)
			}
		}
	}
	return order
}

// execute writes a job's content to w: a page's template output with its
// entry lists written in place (writePage); other files as they are. A
// page's data is made by then (runJob).
func (r *renderer) execute(j renderJob, w *bufio.Writer, buf *bytes.Buffer) error {
	switch {
	case j.write != nil:
		if err := j.write(w); err != nil {
			return fmt.Errorf("writing %s: %w", j.file, err)
		}
		return nil
	case j.tmpl == "":
		_, err := w.WriteString(j.raw)
		return err
	}
	buf.Reset()
	if err := r.tmpl[j.tmpl].ExecuteTemplate(buf, "layout", j.data); err != nil {
		return fmt.Errorf("rendering %s with %s.html: %w", j.file, j.tmpl, err)
	}
	return r.writePage(w, buf.Bytes())
}

// generate queues a file whose content write produces while the pages are
// rendered (feeds, indexes, JSON downloads), so that it takes its share of
// the CPUs instead of running before them.
func (r *renderer) generate(name string, write func(w io.Writer) error) error {
	if err := r.files.Claim(name); err != nil {
		return err
	}
	r.jobs = append(r.jobs, renderJob{file: name, write: write})
	return nil
}

// generateKeyed is generate for a file whose every input inputs hashes:
// an incremental build keeps the last build's file when they hash the
// same (fileKey), instead of writing it again.
func (r *renderer) generateKeyed(name string, inputs func(kw *keyWalker), write func(w io.Writer) error) error {
	if err := r.generate(name, write); err != nil {
		return err
	}
	r.jobs[len(r.jobs)-1].inputs = inputs
	return nil
}

func (r *renderer) runJobInMemory(j renderJob, page *bytes.Buffer) error {
	b, err := r.renderToMemory(j, page)
	if err != nil {
		return err
	}
	return r.files.Put(j.file, b)
}

// renderToMemory returns a job's content.
func (r *renderer) renderToMemory(j renderJob, page *bytes.Buffer) ([]byte, error) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := r.execute(j, w, page); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// runJobEarly renders one of the pages of Options.First: into memory,
// handed to r.early, then stored like any other.
func (r *renderer) runJobEarly(j renderJob, page *bytes.Buffer) error {
	b, err := r.renderToMemory(j, page)
	if err == nil {
		err = r.files.Put(j.file, b)
	}
	if err != nil {
		r.early.done(j.file, nil)
		return err
	}
	r.early.done(j.file, b)
	return nil
}

// runJobToFile renders a job into its file through w, which it resets.
// A half-written file after an error does no harm: it is in the build
// buffer, which a failed build never publishes and the next build
// rewrites.
func (r *renderer) runJobToFile(j renderJob, w *bufio.Writer, page *bytes.Buffer) error {
	f, err := r.files.Create(j.file)
	if err != nil {
		return fmt.Errorf("writing %s: %w", j.file, err)
	}
	defer f.Close()
	w.Reset(f)
	if err := r.execute(j, w, page); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", j.file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", j.file, err)
	}
	return nil
}
