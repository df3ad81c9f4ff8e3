package corpus

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// TestClaimReadsIsWhatMovesIt edits the survey's real corpus at random,
// one cell at a time (a row's column, or an exclusion's screening label),
// and expects no claim whose Reads does not name what the edit touched to
// change its result: an incremental check may skip those. The edits must
// also move some claims that do read them, so that the test is not
// vacuous; every kind of the survey's claims file takes part.
func TestClaimReadsIsWhatMovesIt(t *testing.T) {
	c, v, cl := loadRealWithClaims(t)
	kinds := map[string]bool{}
	for _, k := range cl.Claims {
		kinds[k.Kind] = true
		if k.Check == nil || k.Check.Reads() == nil && k.Kind != KindTotal {
			t.Errorf("%s: %s claim reads nothing", k.ID, k.Kind)
		}
	}
	for _, k := range []string{KindTotal, KindCount, KindCell, KindSet, KindTags, KindColumns, KindBucket,
		KindOrder, KindShare, KindOneOf, KindMeta, KindExcluded, KindReferences} {
		if !kinds[k] {
			t.Errorf("the survey's claims have no %s claim: the test does not cover it", k)
		}
	}
	cols := slices.DeleteFunc(c.Papers[0].Columns(), func(col string) bool {
		return col == "key" // a key decides which rows the pool holds
	})
	rng := rand.New(rand.NewPCG(32, 39))
	before := VerifyClaims(c, v, cl)
	moved := 0
	for range 400 {
		var touched string
		var undo func()
		if rng.IntN(8) == 0 {
			ex := &c.Excluded[rng.IntN(len(c.Excluded))]
			old := ex.ScreeningLabel
			ex.ScreeningLabel = "edited " + strconv.Itoa(rng.IntN(100))
			touched, undo = ReadsExcluded, func() { ex.ScreeningLabel = old }
		} else {
			e := c.Papers[rng.IntN(len(c.Papers))]
			col := cols[rng.IntN(len(cols))]
			old, oldYear := e.Value(col), e.Year
			val := c.Papers[rng.IntN(len(c.Papers))].Value(col) // another row's: moves counts
			switch f := v.Field(col); {
			case rng.IntN(4) == 0 && f != nil:
				allowed := f.Allowed()
				val = allowed[rng.IntN(len(allowed))]
			case rng.IntN(4) == 0:
				val = "edited"
			}
			setColumn(e, col, val)
			touched, undo = col, func() { setColumn(e, col, old); e.Year = oldYear }
		}
		after := VerifyClaims(c, v, cl)
		for i, k := range cl.Claims {
			if reflect.DeepEqual(before[i], after[i]) {
				continue
			}
			if !slices.Contains(k.Check.Reads(), touched) {
				t.Errorf("%s (%s, reads %v): editing %s changed it from %s %q to %s %q", k.ID, k.Kind,
					k.Check.Reads(), touched, before[i].Status, before[i].Actual, after[i].Status, after[i].Actual)
			}
			moved++
		}
		undo()
	}
	if moved == 0 {
		t.Error("no edit moved any claim: the test proves nothing")
	}
}

// setColumn sets a row's column as loading it would: year also sets the
// number the share claims date rows by.
func setColumn(e *Entry, col, val string) {
	e.SetValue(col, val)
	if col == "year" {
		e.Year, _ = strconv.Atoi(val)
	}
}

// TestClaimJSON holds a claim's JSON to what it was when every kind's
// fields were fields of Claim (testdata/claims/kinds.json, written by
// that code): the same keys, in the same order, for every kind.
func TestClaimJSON(t *testing.T) {
	got := claimsJSON(t)
	want, err := os.ReadFile(filepath.Join("testdata", "claims", "kinds.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("claims as JSON differ from testdata/claims/kinds.json:\n%s", got)
	}
}

// claimJSONIDs are a claim of each kind, and of each set of fields a kind
// writes (scoped counts, acknowledged ones), from the survey's claims.
var claimJSONIDs = []string{"total/retained", "table1/category/rl_method", "table2/shared/NA", "table2/shared/agent", "c2/verified-partial", "c2/verified-no", "c2/kimi-k2-6", "table16/magrpo", "table16/markov-games1994", "table16/magrpo/year-venue", "schema/columns", "table16/omitted-columns", "fig4/coverage-audit", "pool/focal", "table16/bucket/B", "table16/order", "fig2/window", "s10.3/acl-2025-attacks", "table16/core-cards", "table10/R1/magrpo", "table10/R4/malt", "s1.1/coverage-refresh", "s4.2/excluded-frameworks", "table19/mas-zero", "fig8/harness-rl", "references/retained"}

// claimsJSON returns the JSON of the survey's claims named by claimJSONIDs.
func claimsJSON(t *testing.T) []byte {
	_, _, cl := loadRealWithClaims(t)
	var pick []Claim
	for _, c := range cl.Claims {
		if slices.Contains(claimJSONIDs, c.ID) {
			pick = append(pick, c)
		}
	}
	if len(pick) != len(claimJSONIDs) {
		t.Fatalf("%d of the %d claims named", len(pick), len(claimJSONIDs))
	}
	b, err := json.MarshalIndent(pick, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}
