package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaPointers returns the sorted distinct pointers of schema findings.
func schemaPointers(fs []Finding) []string {
	var ps []string
	for _, f := range fs {
		if f.Rule == RuleSchema {
			ps = append(ps, f.Pointer)
		}
	}
	sort.Strings(ps)
	return slices.Compact(ps)
}

// syntaxClean reports whether the fast path found nothing that the library
// decodes differently by design (malformed JSON, duplicate keys, invalid
// UTF-8, out-of-range numbers).
func syntaxClean(res *Result) bool {
	for _, f := range res.Findings {
		switch f.Rule {
		case RuleSyntax, RuleDuplicate, RuleUTF8, RuleRange:
			return false
		}
	}
	return true
}

// compareWithLibrary requires the fast path alone, the hybrid and the
// library alone to agree on the verdict and the locations of schema errors,
// and the fast path to give the same result (findings and measures) with
// and without its plain path.
func compareWithLibrary(t *testing.T, data []byte) {
	t.Helper()
	fast := check(t, data, Options{fastOnly: true, MaxFindings: 1 << 20})
	loop := check(t, data, Options{fastOnly: true, MaxFindings: 1 << 20, memberLoopOnly: true})
	if !reflect.DeepEqual(fast, loop) {
		t.Fatalf("plain path and member loop differ:\n%v\n%v\ninput: %s", fast.Findings, loop.Findings, data)
	}
	if !syntaxClean(fast) {
		return
	}
	lib, err := LibraryValidate(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("library cannot read what the fast path read: %v\n%s", err, data)
	}
	want := schemaPointers(lib)
	if got := schemaPointers(fast.Findings); !slices.Equal(got, want) {
		t.Fatalf("fast path %q, library %q\ninput: %s\nlibrary: %v", got, want, data, lib)
	}
	hybrid := check(t, data, Options{MaxFindings: 1 << 20})
	if got := schemaPointers(hybrid.Findings); !slices.Equal(got, want) {
		t.Fatalf("hybrid %q, library %q\ninput: %s", got, want, data)
	}
}

// referenceSchema compiles the upstream schema.
func referenceSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(referenceDir(t), "trace_schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	id := doc.(map[string]any)["$id"].(string)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// compareWithReference requires trace.schema.json and the upstream schema
// to accept and reject the same documents, at the same locations.
func compareWithReference(t *testing.T, ref *jsonschema.Schema, data []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return
	}
	l, err := compileLibrary()
	if err != nil {
		t.Fatal(err)
	}
	ours := l.errorsOf(l.root, v, "")
	theirs := l.errorsOf(ref, v, "")
	ptrs := func(es []libError) []string {
		var ps []string
		for _, e := range es {
			ps = append(ps, e.Pointer)
		}
		return slices.Compact(ps)
	}
	if !slices.Equal(ptrs(ours), ptrs(theirs)) {
		t.Fatalf("ours %v, reference %v\ninput: %s", ours, theirs, data)
	}
}

// mutate changes one random place of a decoded document: deletes a member,
// replaces a value, or adds a member.
func mutate(rng *rand.Rand, doc any) any {
	type place struct {
		parent any
		key    string
		idx    int
	}
	var places []place
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				places = append(places, place{parent: v, key: k, idx: -1})
				walk(x)
			}
			places = append(places, place{parent: v, key: "", idx: -2})
		case []any:
			for i, x := range v {
				places = append(places, place{parent: v, idx: i})
				walk(x)
			}
		}
	}
	walk(doc)
	if len(places) == 0 {
		return doc
	}
	// Sort for determinism: map iteration order is random.
	sort.SliceStable(places, func(i, j int) bool {
		return places[i].key < places[j].key
	})
	pool := []any{"", "x", "spawn", "mesage", "causal", "swarm", json.Number("-1"), json.Number("0"), json.Number("2.5"),
		json.Number("-0.0"), true, nil, []any{}, map[string]any{}, []any{json.Number("1")}, map[string]any{"id": "e1"}}
	p := places[rng.IntN(len(places))]
	val := pool[rng.IntN(len(pool))]
	switch parent := p.parent.(type) {
	case map[string]any:
		switch {
		case p.idx == -2:
			names := []string{"zz", "id", "t", "type", "agent", "src", "dst", "tokens", "topology", "trusted", "role"}
			parent[names[rng.IntN(len(names))]] = val
		case rng.IntN(3) == 0:
			delete(parent, p.key)
		default:
			parent[p.key] = val
		}
	case []any:
		parent[p.idx] = val
	}
	return doc
}

// differentialCorpus returns hand-written, generated and mutated traces,
// valid and invalid, deterministically.
func differentialCorpus(t *testing.T, mutations int) [][]byte {
	t.Helper()
	var seeds [][]byte
	paths := []string{filepath.Join("testdata", "example.json"), filepath.Join(referenceDir(t), "example_trace.json")}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	invalid, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.json"))
	for _, p := range invalid {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	seeds = append(seeds, synthTrace(t, 12, 7), synthTrace(t, 40, 8))
	corpus := slices.Clone(seeds)
	rng := rand.New(rand.NewPCG(1, 2))
	for range mutations {
		src := seeds[rng.IntN(len(seeds))]
		d := json.NewDecoder(bytes.NewReader(src))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			continue
		}
		for k := 1 + rng.IntN(3); k > 0; k-- {
			v = mutate(rng, v)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		corpus = append(corpus, out)
	}
	return corpus
}

// TestDifferential compares, on the differential corpus, the fast path
// with the library on the embedded schema, the verdicts over reads of
// several sizes, with and without measures, and the embedded schema with
// the upstream one (from the real corpus' reference directory).
//
// Built for WebAssembly (make test runs trace's tests again as the
// traces page's validator is built) it mutates 100 traces rather than
// 600: there it checks that the same code gives the same verdicts once
// compiled to wasm, which runs about ten times slower, and the native run
// covers the mutations.
func TestDifferential(t *testing.T) {
	mutations := 600
	if runtime.GOOS == "js" {
		mutations = 100
	}
	corpus := differentialCorpus(t, mutations)
	t.Run("library", func(t *testing.T) {
		for _, data := range corpus {
			compareWithLibrary(t, data)
		}
	})
	t.Run("reads", func(t *testing.T) {
		for i, data := range corpus {
			if i%4 == 0 {
				compareReaders(t, data)
			}
		}
	})
	t.Run("findings-only", func(t *testing.T) {
		// Skipping the measures must not change a finding, whether the
		// graph is filed inline (a size hint below inlineGraphMax) or on
		// its own goroutine (no hint).
		for _, data := range corpus {
			want := render(check(t, data, Options{}))
			for _, opts := range []Options{{FindingsOnly: true}, {FindingsOnly: true, SizeHint: int64(len(data))}} {
				if got := render(check(t, data, opts)); got != want {
					t.Fatalf("%+v:\n%s\nwith measures:\n%s\ninput: %s", opts, got, want, data)
				}
			}
		}
	})
	t.Run("reference", func(t *testing.T) {
		ref := referenceSchema(t)
		for _, data := range corpus {
			compareWithReference(t, ref, data)
		}
	})
}

// compareReaders requires the same findings whether the input arrives at
// once or in small reads of several sizes, which end the buffer inside and
// right after every kind of token somewhere in the corpus, or is scanned
// in place as a mapped file is, in windows of those sizes.
func compareReaders(t *testing.T, data []byte) {
	t.Helper()
	whole := render(check(t, data, Options{}))
	for _, size := range []int{1, 3, 7, 13} {
		res, err := Validate(&chunkReader{data: data, size: size}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := render(res); got != whole {
			t.Fatalf("reads of %d bytes:\n%s\nat once:\n%s\ninput: %s", size, got, whole, data)
		}
		if got := render(validateWindows(t, data, size, Options{})); got != whole {
			t.Fatalf("mapped, windows of %d bytes:\n%s\nat once:\n%s\ninput: %s", size, got, whole, data)
		}
	}
}

// validateWindows validates a copy of data as a mapped file is validated
// (mappedInput), window bytes at a time, with the bytes the scanner
// releases overwritten by 0xff: a scanner that read a byte it had released
// would read a byte that is not JSON (nor UTF-8) there, and report it.
func validateWindows(t testing.TB, data []byte, window int, opts Options) *Result {
	t.Helper()
	m := &mappedInput{
		data:   bytes.Clone(data),
		window: window,
		page:   1,
		release: func(b []byte) {
			for i := range b {
				b[i] = 0xff
			}
		},
		cancelled: func() error { return nil },
	}
	res, err := NewValidator().validateMapped(m, opts)
	if err != nil {
		t.Fatalf("mapped, windows of %d bytes: %v", window, err)
	}
	return res
}

// chunkReader returns at most size bytes per Read.
type chunkReader struct {
	data []byte
	size int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.size)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// FuzzDifferential feeds arbitrary bytes (seeded with the corpus) to the
// fast path and the library and requires the same schema verdict and
// locations whenever the input is JSON both read the same way.
func FuzzDifferential(f *testing.F) {
	for _, p := range fuzzSeeds(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || !strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
			return
		}
		compareWithLibrary(t, data)
	})
}

// fuzzValidateBase and fuzzValidatePerByte bound what FuzzValidate lets
// one validation allocate: a fixed part and a part per input byte.
const (
	fuzzValidateBase    = 16 << 20
	fuzzValidatePerByte = 64
)

// FuzzValidate requires Validate never to panic, to stay within a memory
// bound proportional to its input, to report findings in order, and to
// treat every input as JSON or report why not; and to give
// the same result whether it scans the input in memory, streams it
// through the readahead's chunks or scans it in windows as a mapped file,
// with or without the plain path or the
// windows of addEdgeNear, and the same findings when a Validator
// scans it in place (as a line of a batch) and without measures.
func FuzzValidate(f *testing.F) {
	for _, p := range fuzzSeeds(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := Validate(bytes.NewReader(data), Options{})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		// The validator's memory is its buffers and tables, a string
		// or number at most of its fixed limits (limits.go), and what it
		// keeps of each event: bounded by the input, whatever it holds.
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(fuzzValidateBase+fuzzValidatePerByte*len(data)); got > bound {
			t.Fatalf("validating %d bytes allocated %d bytes, more than the bound of %d", len(data), got, bound)
		}
		streamed, err := Validate(struct{ io.Reader }{bytes.NewReader(data)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, streamed) {
			t.Fatalf("in memory and streamed results differ:\n%v\n%v", res.Findings, streamed.Findings)
		}
		// Every event and edge read by the member loop: the same result
		// as with the plain path.
		loop, err := Validate(bytes.NewReader(data), Options{memberLoopOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, loop) {
			t.Fatalf("plain path and member loop differ:\n%v\n%v", res.Findings, loop.Findings)
		}
		// Every edge end looked up by hash alone: the same result as
		// with the windows of addEdgeNear.
		hashOnly, err := Validate(bytes.NewReader(data), Options{hashOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, hashOnly) {
			t.Fatalf("edge ends found near and by hash differ:\n%v\n%v", res.Findings, hashOnly.Findings)
		}
		// In place a window at a time, as a mapped file is read, the
		// bytes behind the scanner released: the same result.
		if mapped := validateWindows(t, data, 7, Options{}); !reflect.DeepEqual(res, mapped) {
			t.Fatalf("read and mapped results differ:\n%v %+v\n%v %+v", res.Findings, res.Report, mapped.Findings, mapped.Report)
		}
		// In place (a line of a batch), and findings only, with the graph
		// filed inline: the same findings.
		v := NewValidator()
		inPlace, err := v.ValidateBytes(data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, inPlace) {
			t.Fatalf("in place and read results differ:\n%v %+v\n%v %+v", inPlace.Findings, inPlace.Report, res.Findings, res.Report)
		}
		only, err := v.ValidateBytes(data, Options{FindingsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Findings, only.Findings) {
			t.Fatalf("findings only and with measures differ:\n%v\n%v", only.Findings, res.Findings)
		}
		// Again, with the checker the last two checks left for reuse: the
		// same result as the first time.
		again, err := v.ValidateBytes(data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(inPlace, again) {
			t.Fatalf("a reused checker differs:\n%v %+v\n%v %+v", again.Findings, again.Report, inPlace.Findings, inPlace.Report)
		}
		if !slices.IsSortedFunc(res.Findings, func(a, b Finding) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		}) {
			t.Fatalf("findings out of order: %v", res.Findings)
		}
		if res.Valid() && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		for _, f := range res.Findings {
			if f.Line < 1 || f.Col < 1 {
				t.Fatalf("finding without a position: %v", f)
			}
		}
	})
}

func fuzzSeeds(f *testing.F) [][]byte {
	var out [][]byte
	paths, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.json"))
	paths = append(paths, filepath.Join("testdata", "example.json"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, data)
	}
	// A generated trace: its events and edges sit one per line, as the
	// plain path reads them (example.json spreads them over lines).
	return append(out, synthTrace(f, 6, 1))
}
