package corpus

import (
	"math/rand/v2"
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
			e := &c.Papers[rng.IntN(len(c.Papers))]
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
