package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/masrl/masrl/data"
)

// ClaimsFile is the name of the claims file, used in positions.
const ClaimsFile = "data/claims.yaml"

// Claim kinds. Each kind is a figure the survey prints that can be recomputed
// from the corpus, so the paper and the CSV cannot drift apart unnoticed.
const (
	KindTotal = "total" // a number of records: retained, excluded or audited
	KindCount = "count" // rows with field=value
	KindCell  = "cell"  // one cell of a cross-tab rows × cols
	KindSet   = "set"   // exactly these keys have field=value
	KindTags  = "tags"  // one entry has these values

	// The kinds below check what the survey prints about its tables and
	// its pool as a whole, not one tag count.

	KindColumns = "columns" // the CSV's header, or how many of its columns a table leaves out
	KindBucket  = "bucket"  // how many rows a printed table lists under some of its buckets
	KindOrder   = "order"   // a printed table's rows follow the CSV's year, then key, within each bucket
	KindShare   = "share"   // at least a share of the pool is dated inside a window
	KindOneOf   = "oneof"   // a representative entry carries one of the values its table allows

	// The kinds below check what the survey prints about the papers
	// besides their tags.

	KindMeta       = "meta"       // one entry's year, venue, affiliation or month, as a table or card prints them
	KindExcluded   = "excluded"   // the records a passage names are in the exclusion log under these ids
	KindReferences = "references" // the References list cites each retained row once (the mentions file)
)

// Claim is one figure of the survey with its provenance: what every kind
// shares, and Check, the kind's own fields and how it is recomputed. A
// `table` block of the claims file expands into one cell claim per printed
// number, so that each number holds or fails on its own.
type Claim struct {
	ID          string
	Kind        string // one of the Kind constants; Check's type follows it
	Description string
	Source      string

	// Line is the line of survey.txt the figure is printed on (for a table
	// cell, its row's line); 0 when the claim does not name one. Printed
	// is the text as printed there, quoted by the errata.
	Line    int
	Printed string

	// Ack records a known disagreement between paper and CSV.
	Ack *Acknowledgement
	Pos Pos

	// Check is the kind's figure: a *TotalClaim for a total claim, a
	// *CountClaim for a count, and so on, one type per kind.
	Check ClaimCheck
}

// ClaimCheck is what one kind of claim claims: its fields, and how the
// corpus is compared with them. Each kind is its own type, so a claim
// carries only the fields its kind reads.
type ClaimCheck interface {
	// Reads names what the claim's result depends on besides which rows
	// the pool holds: the columns of those rows it reads (papers.csv's
	// or a controlled field's, as the vocabulary names them), and
	// ReadsHeader, ReadsExcluded or ReadsMentions for the CSV's header,
	// the exclusion log and the mentions file. An incremental check
	// need not re-verify a claim when an edit touches none of them.
	Reads() []string
	// verify compares the claim with the corpus into r (Expected,
	// Actual, Keys, Responsible) and returns the deviation, rendered
	// like Acknowledgement.CSV.
	verify(x *claimContext, r *ClaimResult) string
}

// What a claim reads besides columns of the pool's rows (ClaimCheck.Reads).
const (
	ReadsHeader   = "papers.csv header" // the CSV's columns, in order
	ReadsExcluded = "excluded"          // the exclusion log's records
	ReadsMentions = "mentions"          // the claims' mentions file
)

// Acknowledgement is an understood disagreement: the paper prints one value,
// the CSV (the survey's source of truth) has another, for a stated reason.
// It records the CSV's value so that it goes stale when the CSV changes.
type Acknowledgement struct {
	Reason string `json:"reason"`
	// CSV is the value the corpus has, rendered like ClaimResult.Actual; for
	// tags claims only the fields that differ.
	CSV string `json:"csv"`
}

// ClaimStatus is the outcome of verifying one claim.
type ClaimStatus string

const (
	Holds        ClaimStatus = "holds"        // the corpus agrees with the paper
	Fails        ClaimStatus = "fails"        // a disagreement nobody has explained
	Acknowledged ClaimStatus = "acknowledged" // the recorded deviation, still true
	Stale        ClaimStatus = "stale"        // the recorded deviation is no longer true
)

// ClaimResult is a claim compared with the corpus: the claims-audit page and
// each entry's "claims this entry takes part in" are rendered from it.
type ClaimResult struct {
	ID          string      `json:"id"`
	Kind        string      `json:"kind"`
	Description string      `json:"description"`
	Source      string      `json:"source"`
	Expected    string      `json:"expected"`
	Actual      string      `json:"actual"`
	Status      ClaimStatus `json:"status"`
	Reason      string      `json:"reason,omitempty"`
	// Keys are the entries the claim involves: for counts the keys in the
	// cell now, for sets and tags the keys named by the paper or the CSV.
	Keys []string `json:"keys"`
	// Responsible are the keys that make a set or tags claim differ; for
	// counts, the keys in the cell now.
	Responsible []string `json:"responsible,omitempty"`
	// Line and Printed are the claim's: where survey.txt prints it.
	Line    int    `json:"line,omitempty"`
	Printed string `json:"printed,omitempty"`
	Pos     Pos    `json:"pos"`
}

// OK reports whether the result does not fail the check.
func (r ClaimResult) OK() bool { return r.Status == Holds || r.Status == Acknowledged }

// Claims is the parsed claims file.
type Claims struct {
	Claims []Claim
	// Pool, when set, is the survey's pool the claims are about:
	// VerifyClaims counts only its records, so rows added since the survey
	// move no claim. Nil counts the whole corpus (fixtures, other corpora).
	Pool *Pool
	// PoolFile is the claims file's pool: the name of the pool file
	// beside it, which LoadClaimsFS reads into Pool; "" for none.
	PoolFile string
	// Mentions, when set, are where the paper names each of its papers,
	// read from MentionsFile beside the claims file: a references claim
	// holds them to the pool, the survey's entry pages show them.
	Mentions     *Mentions
	MentionsFile string
}

// LoadClaims parses the claims file embedded from data/claims.yaml against
// the default vocabulary, with the survey's pool of data/survey-pool.yaml.
func LoadClaims(v *Vocabulary) (*Claims, error) {
	return LoadClaimsFS(data.FS, v)
}

// LoadClaimsFS reads claims.yaml from a data directory (the embedded one,
// or data/ on disk for masrl serve) and the pool file it names (pool:
// survey-pool.yaml). A claims file that names no pool counts the whole
// corpus, as fixtures that describe their own corpus want.
func LoadClaimsFS(fsys fs.FS, v *Vocabulary) (*Claims, error) {
	return loadClaims(fsys, "data", v)
}

// ListClaimsFile is the name of a list's own claims beside papers.csv.
const ListClaimsFile = "claims.yaml"

// LoadListClaims reads a list's own claims, claims.yaml in its corpus
// directory, with the pool file it names beside it: nil, nil when the
// list has none. Without the survey profile these are the only claims a
// list is checked against.
//
// Both are read through an os.Root of dir, as the corpus files are
// (LoadWith): a claims file or pool file that links out of the corpus
// directory is an *EscapeError, not read.
func LoadListClaims(dir string, v *Vocabulary) (*Claims, error) {
	if dir == "" {
		return nil, nil
	}
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer root.Close()
	if _, err := root.Lstat(ListClaimsFile); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return loadClaims(corpusFS{root.FS(), dir}, dir, v)
}

// corpusFS is a corpus directory's fs.FS whose errors name the file as
// dir/name and say why a link out of the directory is refused (openFile).
type corpusFS struct {
	fsys fs.FS
	dir  string
}

func (c corpusFS) Open(name string) (fs.File, error) { return openFile(c.fsys, c.dir, name) }

// loadClaims reads claims.yaml and its pool file from fsys, naming both
// in messages as files of the directory dir.
func loadClaims(fsys fs.FS, dir string, v *Vocabulary) (*Claims, error) {
	b, err := fs.ReadFile(fsys, ListClaimsFile)
	if err != nil {
		return nil, err
	}
	name := path.Join(filepath.ToSlash(dir), ListClaimsFile)
	cl, err := ParseClaims(name, b, v)
	if err != nil {
		return nil, err
	}
	if cl.MentionsFile != "" {
		mb, err := fs.ReadFile(fsys, cl.MentionsFile)
		if err != nil {
			return nil, fmt.Errorf("%s: mentions: %w", name, err)
		}
		if cl.Mentions, err = ParseMentions(path.Join(filepath.ToSlash(dir), cl.MentionsFile), mb); err != nil {
			return nil, err
		}
	}
	if cl.PoolFile == "" {
		return cl, nil
	}
	pb, err := fs.ReadFile(fsys, cl.PoolFile)
	if err != nil {
		return nil, fmt.Errorf("%s: pool: %w", name, err)
	}
	if cl.Pool, err = ParsePool(path.Join(filepath.ToSlash(dir), cl.PoolFile), pb); err != nil {
		return nil, err
	}
	return cl, nil
}
