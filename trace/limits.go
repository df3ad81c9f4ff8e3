package trace

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// This file is the one place that states how much of its input any trace
// reader holds: the validator (Validate, ValidateBatch: trace validate and
// trace stats), trace view, and the OTLP importer (package otlp: trace
// import and trace serve). A reader that meets more than a limit allows
// stops with an error that says where (line or byte offset), which limit
// it met and the flag that raises it; it never allocates a size the input
// merely announces (a record's length, a frame's content size) before the
// bytes have arrived.
//
// Memory bound. With the defaults, a reader holds at most
//   - validate and stats: per worker (GOMAXPROCS of them), one line of at
//     most MaxLine bytes (its buffer grows with the bytes read, to less
//     than twice MaxLine) or a file of at most 16 MiB read whole;
//     a larger file is streamed through a 64 KiB buffer (2 MiB of
//     readahead). Beyond the input's bytes, the validator keeps what the
//     graph checks need of each event and edge (their ids, times and
//     types: tens of bytes each) and at most MaxFindings findings;
//   - view: the traces it embeds, MaxDocument bytes in all, a line of at
//     most MaxLine bytes each;
//   - import: per worker, one line of OTLP/JSON of at most MaxLine bytes
//     or one protobuf request of at most MaxRecord bytes (a framed record,
//     a bare body, or what a record's zstd frame expands to), twice as
//     many queued, or one OTLP/JSON document of at most MaxDocument
//     bytes; plus the spans of the traces still open (Options.Window). A
//     compressed input is expanded as a stream, through a zstd window of
//     at most 128 MiB (and at most MaxDecompressed, or MaxRecord for a
//     record's frame), and stops after MaxDecompressed bytes.
//
// FuzzValidate, FuzzLineReader, otlp's FuzzImport and FuzzImportProto and
// viewer's FuzzRead hold every input to an allocation bound derived from
// these limits (see `make fuzz-traces` in DEVELOPERS.md).

// MaxDepth is the deepest nesting of arrays and objects the validator reads.
// A trace needs four levels; the limit exists so that a hostile document of
// a million '[' cannot exhaust the stack or the heap. The OTLP/JSON reader
// (jsontext) and the protobuf reader (protobuf-go's recursion limit) stop
// at 10000 levels, which their decoders fix.
const MaxDepth = 1000

// maxNumberLen bounds a number token, which must fit in the buffer whole:
// a stream of a billion digits is an error, not a billion-byte buffer.
const maxNumberLen = 1 << 20

// maxStringLen bounds a string, which is kept whole while it is checked.
const maxStringLen = 64 << 20

// The defaults of Limits.
const (
	// DefaultMaxLine: a JSON Lines trace of a million events is about
	// 100 MB; a line that long is better written as a file of its own,
	// which the validator streams. An OTLP/HTTP request is 4 MiB (gRPC's
	// default) to 20 MiB (the collector's default body limit).
	DefaultMaxLine = 64 << 20
	// DefaultMaxRecord: the same reasoning for one protobuf request.
	DefaultMaxRecord = 64 << 20
	// DefaultMaxDocument: a pretty-printed OTLP/JSON file, or everything
	// trace view embeds in one page (a browser struggles well before).
	DefaultMaxDocument = 256 << 20
	// DefaultMaxDecompressed: what a compressed file may expand to; a
	// bomb of blanks stops here, a collector's day of spans does not.
	DefaultMaxDecompressed = 4 << 30
)

// Limits bound what a reader holds of its input, in bytes. A zero field
// means its default (DefaultMaxLine and the others); commands raise them
// with --max-line, --max-record, --max-document and --max-decompressed.
type Limits struct {
	// MaxLine is the longest line of JSON Lines (a trace per line for
	// validate, stats and view; OTLP/JSON requests for import), without
	// its line end.
	MaxLine int64
	// MaxRecord is the longest OTLP protobuf request: a framed record's
	// announced length, a bare request body, and what a record's zstd
	// frame expands to.
	MaxRecord int64
	// MaxDocument is the most a reader holds whole that is not a line:
	// an OTLP/JSON document that spans lines, and all the traces one
	// trace view page embeds.
	MaxDocument int64
	// MaxDecompressed is the most a zstd- or gzip-compressed input
	// expands to.
	MaxDecompressed int64
}

// OrDefault returns l with every zero (or negative) field set to its
// default.
func (l Limits) OrDefault() Limits {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxLine, DefaultMaxLine)
	def(&l.MaxRecord, DefaultMaxRecord)
	def(&l.MaxDocument, DefaultMaxDocument)
	def(&l.MaxDecompressed, DefaultMaxDecompressed)
	return l
}

// LimitFlag is the command-line flag that raises one field of Limits,
// the flag a LimitError names: the usage beside the limit's default, so
// that every command says the same of it.
type LimitFlag struct {
	Name  string // without the dashes: "max-line"
	Usage string
	Value SizeValue
}

// Flags returns the flags that raise the limits of l named in which:
// "line", "record", "document" or "decompressed", in that order.
func (l *Limits) Flags(which ...string) []LimitFlag {
	var out []LimitFlag
	for _, w := range which {
		switch w {
		case "line":
			out = append(out, LimitFlag{"max-line", "the longest line of JSON Lines read, in `bytes` (KiB, MiB, GiB allowed; default " + FormatSize(DefaultMaxLine) + ")", SizeValue{&l.MaxLine}})
		case "record":
			out = append(out, LimitFlag{"max-record", "the longest OTLP protobuf request read, decompressed, in `bytes` (default " + FormatSize(DefaultMaxRecord) + ")", SizeValue{&l.MaxRecord}})
		case "document":
			out = append(out, LimitFlag{"max-document", "the most `bytes` read whole that are not one line (a multi-line OTLP/JSON document; what trace view embeds; default " + FormatSize(DefaultMaxDocument) + ")", SizeValue{&l.MaxDocument}})
		case "decompressed":
			out = append(out, LimitFlag{"max-decompressed", "the most `bytes` a compressed input may expand to (default " + FormatSize(DefaultMaxDecompressed) + ")", SizeValue{&l.MaxDecompressed}})
		}
	}
	return out
}

// MemoryLimit is the soft heap limit (debug.SetMemoryLimit) of a process
// that runs the validator, as masrl trace does. A million-event trace
// keeps about 80 MB of columns live; without a limit the collector lets
// the heap grow to twice that before it runs, and the limit holds the
// process near the 128 MB the validator promises, at a few percent of
// CPU.
const MemoryLimit = 96 << 20

// GCPercent is the GOGC (debug.SetGCPercent) of a process that runs the
// validator over batches. A batch of small traces keeps little live (a few
// MB), so at the default of 100 the collector would run every few MB of
// garbage; at 400 it runs a quarter as often, and MemoryLimit still bounds
// the heap.
const GCPercent = 400

// ValidateGCPercent is the GOGC of a process that runs masrl trace
// validate: off, so that MemoryLimit alone paces the collector. Validating
// a trace keeps nearly everything it allocates (buffers sized once, the id
// table, the columns) until its findings are written, so a collection
// frees little; on the 1,000,000-event trace the collector ran twice in
// the first 25 ms at GCPercent, for 5 to 10 ms of CPU, and at this setting
// not at all (its heap stays under the limit). The memory stays bounded by
// MemoryLimit: a larger trace, or a batch whose garbage reaches the limit,
// is collected there, as at GCPercent once the heap nears the limit.
const ValidateGCPercent = -1

// ErrLimit is wrapped by every error of a reader that met one of its
// Limits.
var ErrLimit = errors.New("input limit")

// LimitError says that the input has more than a limit allows: what
// (a line, a record, ...), the limit, the flag that raises it, and where
// the offending part starts.
type LimitError struct {
	What  string // "line 3", "record 2", "the decompressed input"
	Limit int64
	Flag  string // "--max-line"
	Byte  int64  // offset in the input (decompressed, if it was) where it starts
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s (from byte %d) is longer than %s, the most masrl reads (raise it with %s)",
		e.What, e.Byte, FormatSize(e.Limit), e.Flag)
}

func (e *LimitError) Unwrap() error { return ErrLimit }

// FormatSize writes n bytes as the largest binary unit that divides it
// ("64 MiB"), or in bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseSize reads a size in bytes: a number, optionally followed by a unit
// (K, KiB, M, MiB, G, GiB, all binary; B or none for bytes).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, like 64MiB or 1GiB", s)
	}
	var shift uint
	switch strings.ToLower(strings.TrimSpace(t[i:])) {
	case "", "b":
	case "k", "kb", "kib":
		shift = 10
	case "m", "mb", "mib":
		shift = 20
	case "g", "gb", "gib":
		shift = 30
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q, want KiB, MiB or GiB", s, t[i:])
	}
	if n > (1<<62)>>shift {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n << shift, nil
}

// SizeValue is a limit read from the command line, as ParseSize reads
// it ("64MiB"): a flag.Value over one field of Limits, so that every
// --max-* flag takes the same units and refuses the same mistakes.
type SizeValue struct{ N *int64 }

// String is the size in FormatSize's words, or "" when it is unset (the
// default applies).
func (v SizeValue) String() string {
	if v.N == nil || *v.N == 0 {
		return ""
	}
	return FormatSize(*v.N)
}

// Set reads a size with ParseSize.
func (v SizeValue) Set(s string) error {
	n, err := ParseSize(s)
	if err == nil {
		*v.N = n
	}
	return err
}

// ReadAtMost reads r to its end, or returns ErrLimit once it has more than
// max bytes. Its buffer doubles as bytes arrive but never beyond max+1,
// so reading to the limit costs about twice the limit, and a size the
// input merely announces is never allocated.
func ReadAtMost(r io.Reader, max int64) ([]byte, error) {
	buf := make([]byte, 0, min(max+1, 64<<10))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return nil, ErrLimit
			}
			buf = slices.Grow(buf, int(min(int64(len(buf)), max+1-int64(len(buf)))))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if int64(len(buf)) > max {
				return nil, ErrLimit
			}
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// LimitedReader reads R until it has delivered Max bytes, and then fails
// with a LimitError of What and Flag: it bounds what a decompressor may
// expand to without holding any of it.
type LimitedReader struct {
	R         io.Reader
	Max       int64
	What      string
	Flag      string
	delivered int64
}

func (l *LimitedReader) Read(p []byte) (int, error) {
	if l.delivered >= l.Max {
		// One byte more tells an input of exactly Max bytes from a
		// longer one.
		var one [1]byte
		n, err := l.R.Read(one[:])
		if n == 0 {
			return 0, err
		}
		return 0, &LimitError{What: l.What, Limit: l.Max, Flag: l.Flag}
	}
	if rem := l.Max - l.delivered; int64(len(p)) > rem {
		p = p[:rem]
	}
	n, err := l.R.Read(p)
	l.delivered += int64(n)
	return n, err
}
