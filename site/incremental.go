package site

import (
	"hash/maphash"
	"html/template"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"

	"github.com/masrl/masrl/site/internal/tmplexec"
	"github.com/masrl/masrl/site/outdir"
)

// This file is the incremental build. A page is a pure function of its
// template set and the data its template executes with (what jobs.go
// hands to ExecuteTemplate, with the entry lists and pieces that data
// reaches), so a page whose data hashes as it did in the last build has
// the bytes it had: Build then keeps the last build's file instead of
// rendering it. Every page is keyed on its own (pageKey), on the worker
// that would render it. After one row is edited, the pages whose data
// shows that row are rendered again: its entry page, the entry pages
// listing it as a cell neighbour, the papers list page holding it, its
// term pages and its cells' pages; a tag edit also renders the pages
// that count every entry (home, taxonomy, fields, coverage), whose
// counts change. The other pages are kept. That holds because each list
// page's data reaches only what its template prints: a value's view
// points back to its field through a FieldRef, a cell to its table
// through a TableHead and to its row and column through TermRefs, and a
// coverage table shows TableCells, which hold no entries (views.go).
// Had a term page's data led to its field and from there to every term,
// or a cell's to its table and every other cell, each page would reach
// every entry: any edit would render them all, and each key would walk
// the whole graph. The views therefore form no cycle but the coverage
// page's own (a table leads back to its view), which that page's walk
// marks (keyWalker). An entry page is keyed by its input (entryInput in
// entrypage.go): its entry's hash, the hashes of the neighbours it lists
// and the few values it shows of the other views, with the context every
// entry page shares hashed once (share); its data is made from that
// input only when the key changed.
//
// Files written by a function rather than a template are kept
// the same way when their inputs hash as before (generateKeyed): the
// search index, its BibTeX file and papers.json, made from the rows
// alone, are keyed by the rows' hashes and header; and when a row
// changed, the index and papers.json are assembled from each row's
// encoding, kept by the row's key, so that only the changed rows are
// encoded again (rowPieces). The other such files
// (the feeds, the sitemap, the CSV and stats downloads) and the copied
// assets are always written; the output directory replaces only files
// whose bytes differ (outdir).
//
// The key is computed from the data itself, not from a list of which rows
// a page depends on, so that a page type added later cannot forget to
// declare a dependency: whatever its template can read is hashed. A field
// that never reaches a page (only the order of a list, a list's marker
// number, what a view is built from) is unexported, which no template
// can read, and marked `hash:"-"`. TestIncrementalMatchesFull holds
// incremental builds to full ones, byte for byte, on random edits;
// TestTitleEditRendersItsListPages holds the list pages a title edit
// renders to those whose bytes it changes.

// Cache carries what one build rendered to the next: every page's key (a
// hash of its template set and data) and, for a build in memory, the
// files; for a build into a directory, the keys of what the output and
// its build buffer hold (outdir exchanges them on every build). It also
// keeps the list items the last build used, by template, entry hash and
// link.
// A Cache serves one output (or memory) at a time: Build starts it afresh
// when Options.Out changes. Its keys of the buffer's pages hold only
// while the buffer has the mark its build left there (outdir.MarkName):
// a build of another process into the same output rewrites the mark,
// and Build then renders every page again. A file written by anything
// else is not seen (outdir.Files.Keep says why). Use one Cache from one
// goroutine at a time.
type Cache struct {
	seed maphash.Seed
	out  string // the output the keys describe; "" in memory
	// keys are the pages of the output (or of mem), buffer those of the
	// build buffer; nil: nothing known.
	keys, buffer map[string]uint64
	mem          *outdir.Files // the last build in memory
	// outputListing and bufferListing are what the output and its
	// buffer hold, as this cache's builds published them (nil: not
	// known), so that a build need not read the buffer's every directory
	// (outdir.Open).
	outputListing, bufferListing *outdir.Listing
	// outputMark and bufferMark are the marks the output and its buffer
	// have as this cache's builds left them (outdir.MarkName): buffer's
	// keys hold only while the buffer has bufferMark, which another
	// process's build into the same output changes.
	outputMark, bufferMark string
	// items are the entry list items, full and brief, the last build
	// used, rendered with the templates of tmplKey.
	items   map[itemKey]template.HTML
	tmplKey uint64
	// tmpl are the templates parsed from tmplSources, reused while the
	// sources are the same.
	tmpl        map[string]*tmplexec.Set
	tmplSources string
	// tmplHTMLOnly says tmpl runs on html/template alone (Options.htmlOnly).
	tmplHTMLOnly bool
	// pieces are the per-row pieces of files made from the rows, by
	// file and by row key and context (rowPieces).
	pieces map[string]map[uint64][]byte
	// fields are the fields keyWalker hashes, by struct type: the same
	// in every build, shared by the walkers of every CPU.
	fields sync.Map // reflect.Type -> []int
	// last are the last published build's views, which an edit's first
	// pages start from (quick.go); nil before the first.
	last *lastBuild
	// quick is true when the last build's first pages were made so.
	quick bool
	// Rendered and Reused count the last build's pages.
	Rendered, Reused int
	// rendered are the pages queued with their data (all but the entry
	// pages) that the last build rendered rather than kept: what a test
	// holds to the pages an edit changed.
	rendered []string
}

// itemKey names a list item: its template, its entry's hash (which
// covers the item's fields and tags, hashEntries), its link and its
// title's heading level.
type itemKey struct {
	template string
	entry    uint64
	href     string
	level    int // of the item's title (itemView.Level)
}

// NewCache returns an empty cache: the first build with it renders
// every page.
func NewCache() *Cache { return &Cache{seed: maphash.MakeSeed()} }

// walker returns a keyWalker of this cache's seed and field table.
func (c *Cache) walker(entries map[uintptr]uint64) *keyWalker {
	kw := &keyWalker{seed: c.seed, entries: entries, memo: map[ptrKey]uint64{}, fields: &c.fields, ownFields: map[reflect.Type][]int{}}
	kw.levels = []*maphash.Hash{new(maphash.Hash)}
	kw.levels[0].SetSeed(c.seed)
	kw.h = kw.levels[0]
	return kw
}

// startBuild readies the cache for a build into out ("" in memory).
func (c *Cache) startBuild(out string) {
	if out != "" {
		out = filepath.Clean(out)
	}
	if out != c.out {
		c.keys, c.buffer, c.mem, c.outputListing, c.bufferListing = nil, nil, nil, nil, nil
		c.outputMark, c.bufferMark = "", ""
		c.out = out
	}
	c.Rendered, c.Reused, c.rendered = 0, 0, nil
}

// useTemplates drops the list items rendered with other templates.
func (c *Cache) useTemplates(key uint64) {
	if c.items == nil || key != c.tmplKey {
		c.items, c.tmplKey = map[itemKey]template.HTML{}, key
	}
}

// finish records a build's outcome. published: the files are in place
// (memory: files; a directory: the buffer is the output now). A build
// into a directory that failed after it started writing pages (touched)
// leaves the buffer's pages half-written: their keys are forgotten, and
// the output's stand.
func (c *Cache) finish(keys map[string]uint64, files *outdir.Files, published, touched bool) {
	switch {
	case c.out == "" && published:
		c.keys, c.mem = keys, files
	case c.out == "":
	case published:
		c.keys, c.buffer = keys, c.keys
	case touched:
		c.buffer = nil
	}
}

// found drops the keys of the buffer's pages unless the buffer has the
// mark this cache's last build left in it (outdir.Output.Found).
func (c *Cache) found(mark string) {
	if mark == "" || mark != c.bufferMark {
		c.buffer, c.bufferListing = nil, nil
	}
}

// listed records what a build into a directory published: the output
// becomes the next build's buffer, with its listing and mark. A build
// that did not publish may have written into the buffer: what it leaves
// of the listing has no names (outdir.Output.Unfinished), and its mark
// is the one that build wrote.
func (c *Cache) listed(out *outdir.Output) {
	published := out.Listing()
	if u := out.Unfinished(); u != nil {
		c.bufferListing, c.bufferMark = u, u.Mark()
		return
	}
	c.bufferListing, c.outputListing = c.outputListing, published
	c.bufferMark, c.outputMark = c.outputMark, out.Mark()
}

// incremental is one build's part of a Cache: the keys it computes.
type incremental struct {
	cache     *Cache
	tmplKey   uint64             // the template sources
	entries   map[uintptr]uint64 // *EntryView -> its hash, for every entry
	entryHash []uint64           // the same by EntryView.index
	keys      []uint64           // by job; 0: not keyed
	reused    []bool             // by job
	walkers   sync.Pool          // *keyWalker, for pageKey
	mu        sync.Mutex         // guards items while workers render
	// items are the list items this build used, which replace the
	// cache's when it succeeds: items of rows edited since are dropped.
	items map[itemKey]template.HTML
	// rowKeys are the rows' keys (rowKeys); nil: not known.
	rowKeys  []uint64
	rowsOnce sync.Once
	// pieces are the pieces of the files this build encoded (rowPieces),
	// by file, which replace the cache's when it succeeds.
	pieces map[string]map[uint64][]byte
	// shared are the hashes of values many entry pages read (share).
	shared map[ptrKey]uint64
}

// hashEntries hashes every entry's view once, on every CPU: the lists
// of the papers, term and cell pages then hash as their entries' keys.
// A worker's walker keeps what it hashed from one entry to the next,
// so that the tags the entries share (a field's values, a few dozen
// *Tag) are walked once, not once per entry: the views live as long
// as the build and no longer change, and they hold no cycle, so a
// value's hash does not depend on the entry it was first reached from.
func (r *renderer) hashEntries() {
	inc := r.inc
	hs := make([]uint64, len(r.entries))
	workers := max(1, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			kw := inc.cache.walker(nil)
			for i := w; i < len(r.entries); i += workers {
				kw.resetKeepingMemo() // the views live until the build ends
				kw.walk(reflect.ValueOf(r.entries[i]))
				hs[i] = kw.h.Sum64()
			}
		})
	}
	wg.Wait()
	inc.entries = make(map[uintptr]uint64, len(r.entries))
	for i, ev := range r.entries {
		inc.entries[reflect.ValueOf(ev).Pointer()] = hs[i]
	}
	inc.entryHash = hs
}

// share hashes the value p points to, which many entry pages' inputs
// hold (the entryContext, a cell's links), once a build: the pages' keys
// then hold its hash instead of walking it each (keyWalker.shared). Call it before the
// pages are rendered, and do not change the value afterwards. A value
// that cannot be hashed is not shared, and the pages reading it are not
// keyed.
func (inc *incremental) share(p any) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	kw := inc.cache.walker(inc.entries)
	kw.walk(v.Elem())
	if kw.bad {
		return
	}
	if inc.shared == nil {
		inc.shared = map[ptrKey]uint64{}
	}
	inc.shared[ptrKey{v.Pointer(), v.Type()}] = kw.h.Sum64()
}

// pageKey is the key of a page: its template set, its template, its file
// and its data. ok is false when the data holds something that cannot be
// hashed (a function, a channel): such a page is always rendered.
func (inc *incremental) pageKey(tmpl, file string, data any) (key uint64, ok bool) {
	// A walker per page would allocate its maps again for each of
	// 10,000 entry pages: they are pooled, and emptied for each page
	// (a page's data may be freed after it, and its addresses reused).
	kw, _ := inc.walkers.Get().(*keyWalker)
	if kw == nil {
		kw = inc.cache.walker(inc.entries)
	}
	defer inc.walkers.Put(kw)
	kw.reset()
	kw.shared = inc.shared
	kw.u64(inc.tmplKey)
	kw.str(tmpl)
	kw.str(file)
	kw.walk(reflect.ValueOf(data))
	if kw.bad {
		return 0, false
	}
	return kw.h.Sum64() | 1, true // never 0, which means not keyed
}

// fileKey is the key of a file written by a function (generateKeyed):
// its name and what inputs hashes. ok is false when an input cannot be
// hashed.
func (inc *incremental) fileKey(file string, inputs func(kw *keyWalker)) (key uint64, ok bool) {
	kw, _ := inc.walkers.Get().(*keyWalker)
	if kw == nil {
		kw = inc.cache.walker(inc.entries)
	}
	defer inc.walkers.Put(kw)
	kw.reset()
	kw.str("generated")
	kw.str(file)
	inputs(kw)
	if kw.bad {
		return 0, false
	}
	return kw.h.Sum64() | 1, true
}

// entriesInputs hashes every row's key (rowKeys), in papers.csv order:
// what a file made from the rows alone reads of them. Without the keys,
// the file's inputs are not known, and it is always written.
func (r *renderer) entriesInputs(kw *keyWalker) {
	keys, ok := r.rowKeys()
	if !ok {
		kw.bad = true
		return
	}
	kw.u64(uint64(len(keys)))
	for _, k := range keys {
		kw.u64(k)
	}
}

// rowKeys returns, computed once a build, a key of each row of
// papers.csv (corpus.Corpus.Papers): its view's hash (its fields, BibTeX
// source, page and tags) and the header that names its columns
// (corpus.Entry.Columns, which the views' hashes leave out). ok is false
// when the views are not the rows, one by one and by key.
func (r *renderer) rowKeys() ([]uint64, bool) {
	inc := r.inc
	inc.rowsOnce.Do(func() {
		if len(r.entries) != len(r.c.Papers) || len(inc.entryHash) != len(r.entries) {
			return
		}
		keys := make([]uint64, len(r.entries))
		var h maphash.Hash
		h.SetSeed(inc.cache.seed)
		for i, ev := range r.entries {
			if ev.Entry != r.c.Papers[i] || r.byKey[ev.Key] != ev {
				return
			}
			h.Reset()
			writeU64(&h, inc.entryHash[i])
			for _, c := range ev.Columns() {
				writeU64(&h, uint64(len(c)))
				h.WriteString(c)
			}
			keys[i] = h.Sum64()
		}
		inc.rowKeys = keys
	})
	return inc.rowKeys, inc.rowKeys != nil
}

func writeU64(h *maphash.Hash, x uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(x >> (8 * i))
	}
	h.Write(b[:])
}

// rowPieces encodes a file's pieces, one per row of papers.csv, reusing
// those the last build encoded for a row of the same key (rowKeys) in the
// same context (what else the file's pieces read, hashed). In a build
// without a cache, or whose rows have no keys, every piece is encoded.
// The pieces a build used are the next build's (finishCache).
func (r *renderer) rowPieces(file string, context uint64, encode func(i int) ([]byte, error)) ([][]byte, error) {
	pieces := make([][]byte, len(r.c.Papers))
	var keys []uint64
	var old map[uint64][]byte
	if r.inc != nil {
		keys, _ = r.rowKeys()
		r.inc.mu.Lock()
		old = r.inc.cache.pieces[file]
		r.inc.mu.Unlock()
	}
	if keys == nil {
		for i := range pieces {
			b, err := encode(i)
			if err != nil {
				return nil, err
			}
			pieces[i] = b
		}
		return pieces, nil
	}
	used := make(map[uint64][]byte, len(keys))
	var h maphash.Hash
	h.SetSeed(r.inc.cache.seed)
	for i, k := range keys {
		h.Reset()
		writeU64(&h, k)
		writeU64(&h, context)
		pk := h.Sum64()
		b, ok := old[pk]
		if !ok {
			var err error
			if b, err = encode(i); err != nil {
				return nil, err
			}
		}
		pieces[i], used[pk] = b, b
	}
	r.inc.mu.Lock()
	if r.inc.pieces == nil {
		r.inc.pieces = map[string]map[uint64][]byte{}
	}
	r.inc.pieces[file] = used
	r.inc.mu.Unlock()
	return pieces, nil
}

// reuse puts the last build's file for a page whose key is unchanged
// into files, and reports whether it did.
func (inc *incremental) reuse(files *outdir.Files, name string, key uint64) (bool, error) {
	c := inc.cache
	if c.out == "" {
		if c.keys[name] != key || c.mem == nil {
			return false, nil
		}
		b, ok := c.mem.Get(name)
		if !ok {
			return false, nil
		}
		return true, files.Put(name, b)
	}
	if c.buffer[name] != key {
		return false, nil
	}
	return files.Keep(name)
}

// item returns a list item rendered in an earlier build, or renders it.
func (inc *incremental) item(k itemKey, render func() (template.HTML, error)) (template.HTML, error) {
	inc.mu.Lock()
	h, ok := inc.items[k]
	if !ok {
		h, ok = inc.cache.items[k]
	}
	inc.mu.Unlock()
	if !ok {
		var err error
		if h, err = render(); err != nil {
			return "", err
		}
	}
	inc.mu.Lock()
	if inc.items == nil {
		inc.items = map[itemKey]template.HTML{}
	}
	inc.items[k] = h
	inc.mu.Unlock()
	return h, nil
}

// keyWalker hashes a value and everything it reaches, following pointers
// (each once per walk: a shared value is hashed once and referred to by
// its hash; a cycle by a mark) and reading unexported fields, so that
// the hash covers everything a template or a piece can print. Maps hash
// the same in any iteration order.
type keyWalker struct {
	seed maphash.Seed
	// h is the hash being written: levels[level], the walk's at level
	// 0 and a value's own (a pointer's, a map entry's) above it. The
	// levels are kept from value to value, as a maphash.Hash is too large
	// to copy for every pointer.
	h       *maphash.Hash
	levels  []*maphash.Hash
	level   int
	entries map[uintptr]uint64 // hashes of *EntryView; nil: walk them
	shared  map[ptrKey]uint64  // hashes of the values pages share (incremental.share)
	memo    map[ptrKey]uint64
	// path are the pointers being walked, outermost first: a cycle
	// leads back to one of them. It is short (the data's depth), so a
	// scan finds one sooner than a map would.
	path   []ptrKey
	fields *sync.Map // reflect.Type -> []int, the fields hashed (Cache.fields)
	// ownFields holds the entries of fields this walker used, which it
	// then reads without the sync.Map's cost.
	ownFields map[reflect.Type][]int
	bad       bool // something that cannot be hashed
	// cycles counts the cycles met since the memo was emptied.
	cycles int
}

// hashedFields returns the indexes of the fields of struct type t that
// are hashed: all but those marked `hash:"-"`.
func (kw *keyWalker) hashedFields(t reflect.Type) []int {
	if fs, ok := kw.fields.Load(t); ok {
		kw.ownFields[t] = fs.([]int)
		return fs.([]int)
	}
	fs := []int{}
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("hash") != "-" {
			fs = append(fs, i)
		}
	}
	kw.fields.Store(t, fs)
	kw.ownFields[t] = fs
	return fs
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

var entryViewType = reflect.TypeFor[*EntryView]()

// reset readies the walker for another value.
func (kw *keyWalker) reset() {
	clear(kw.memo)
	kw.path, kw.bad, kw.cycles = kw.path[:0], false, 0
	kw.level, kw.h = 0, kw.levels[0]
	kw.h.Reset()
}

// resetKeepingMemo readies the walker for another value that lives as
// long as the values walked since the last reset, keeping the hashes of
// the pointers they reached: an entry's tags, which every entry with
// the same values shares, are then hashed once. A hash met inside a
// cycle is relative to the path it was met on and only holds in its
// own walk, so after a cycle the memo is emptied as reset does; so it
// is after a walk that met something it cannot hash, which a hash kept
// would no longer report.
func (kw *keyWalker) resetKeepingMemo() {
	if kw.cycles > 0 || kw.bad {
		kw.reset()
		return
	}
	kw.path, kw.bad = kw.path[:0], false
	kw.level, kw.h = 0, kw.levels[0]
	kw.h.Reset()
}

func (kw *keyWalker) u64(x uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(x >> (8 * i))
	}
	kw.h.Write(b[:])
}

func (kw *keyWalker) str(s string) {
	kw.u64(uint64(len(s)))
	kw.h.WriteString(s)
}

// begin starts a value's own hash, which end returns.
func (kw *keyWalker) begin() {
	kw.level++
	if kw.level == len(kw.levels) {
		h := new(maphash.Hash)
		h.SetSeed(kw.seed)
		kw.levels = append(kw.levels, h)
	}
	kw.h = kw.levels[kw.level]
	kw.h.Reset()
}

// end returns the hash begin started and goes back to the one before.
func (kw *keyWalker) end() uint64 {
	s := kw.h.Sum64()
	kw.level--
	kw.h = kw.levels[kw.level]
	return s
}

func (kw *keyWalker) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		kw.u64(0)
	case reflect.Bool:
		if v.Bool() {
			kw.u64(1)
		} else {
			kw.u64(2)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		kw.u64(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		kw.u64(v.Uint())
	case reflect.Float32, reflect.Float64:
		kw.u64(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		kw.u64(math.Float64bits(real(c)))
		kw.u64(math.Float64bits(imag(c)))
	case reflect.String:
		kw.str(v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			kw.u64(math.MaxUint64)
			return
		}
		kw.u64(uint64(v.Len()))
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
			kw.h.Write(v.Bytes())
			return
		}
		for i := range v.Len() {
			kw.walk(v.Index(i))
		}
	case reflect.Struct:
		fs, ok := kw.ownFields[v.Type()]
		if !ok {
			fs = kw.hashedFields(v.Type())
		}
		for _, i := range fs {
			kw.walk(v.Field(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			kw.u64(0)
			return
		}
		if kw.entries != nil && v.Type() == entryViewType {
			if h, ok := kw.entries[v.Pointer()]; ok {
				kw.u64(h)
				return
			}
		}
		k := ptrKey{v.Pointer(), v.Type()}
		if h, ok := kw.memo[k]; ok {
			kw.u64(h)
			return
		}
		if h, ok := kw.shared[k]; ok {
			kw.u64(h)
			return
		}
		for d := len(kw.path) - 1; d >= 0; d-- {
			if kw.path[d] == k {
				// A cycle: the value is being hashed this many levels up.
				kw.cycles++
				kw.u64(3)
				kw.u64(uint64(len(kw.path) - 1 - d))
				return
			}
		}
		kw.path = append(kw.path, k)
		kw.begin()
		kw.walk(v.Elem())
		h := kw.end()
		kw.path = kw.path[:len(kw.path)-1]
		kw.memo[k] = h
		kw.u64(h)
	case reflect.Interface:
		if v.IsNil() {
			kw.u64(0)
			return
		}
		kw.str(v.Elem().Type().String())
		kw.walk(v.Elem())
	case reflect.Map:
		if v.IsNil() {
			kw.u64(math.MaxUint64)
			return
		}
		var sum uint64
		it := v.MapRange()
		for it.Next() {
			kw.begin()
			kw.walk(it.Key())
			kw.walk(it.Value())
			sum += kw.end()
		}
		kw.u64(uint64(v.Len()))
		kw.u64(sum)
	default: // functions, channels, unsafe pointers
		kw.bad = true
	}
}
