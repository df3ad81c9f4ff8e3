package corpus

import (
	"fmt"
	"io/fs"

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
)

// Claim is one figure of the survey with its provenance. A `table` block of
// the claims file expands into one cell claim per printed number, so that
// each number holds or fails on its own.
type Claim struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	Source      string `json:"source"`

	Of    string `json:"of,omitempty"`    // total: retained, excluded or audited
	Field string `json:"field,omitempty"` // count, set
	Value string `json:"value,omitempty"` // count, set
	Rows  string `json:"rows,omitempty"`  // cell
	Cols  string `json:"cols,omitempty"`  // cell
	Row   string `json:"row,omitempty"`   // cell
	Col   string `json:"col,omitempty"`   // cell
	Key   string `json:"key,omitempty"`   // tags

	Number int      `json:"number,omitempty"` // total, count, cell
	Keys   []string `json:"keys,omitempty"`   // set, sorted
	Tags   []Tag    `json:"tags,omitempty"`   // tags, in the paper's column order

	// Ack records a known disagreement between paper and CSV.
	Ack *Acknowledgement `json:"acknowledged,omitempty"`
	Pos Pos              `json:"pos"`
}

// Tag is one field value an entry is claimed to have.
type Tag struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

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
	Pos         Pos      `json:"pos"`
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
	b, err := fs.ReadFile(fsys, "claims.yaml")
	if err != nil {
		return nil, err
	}
	cl, err := ParseClaims(ClaimsFile, b, v)
	if err != nil || cl.PoolFile == "" {
		return cl, err
	}
	pb, err := fs.ReadFile(fsys, cl.PoolFile)
	if err != nil {
		return nil, fmt.Errorf("%s: pool: %w", ClaimsFile, err)
	}
	if cl.Pool, err = ParsePool("data/"+cl.PoolFile, pb); err != nil {
		return nil, err
	}
	return cl, nil
}
