package corpus

import (
	"fmt"
	"io"
)

// EditOptions say how Edit judges and writes an edit.
type EditOptions struct {
	// Claims counts the failures of the list's claims among the check
	// errors the edit is judged by (Checked.Verdict), as masrl check
	// does unless given --claims=false.
	Claims bool
	// DryRun proposes and judges the edit and writes nothing.
	DryRun bool
	// Apply are the options the files are written with.
	Apply ApplyOptions
}

// RefusedError is an edit Edit did not write because the corpus with it
// would fail the check more than the corpus does: more check errors
// after than before. Errors that were there before the edit do not
// refuse it, so that a list with a standing finding can still be kept.
type RefusedError struct {
	// Proposal is the refused edit, whose After check says why.
	Proposal *Proposal
	// Before and After are the check errors without and with the edit.
	Before, After int
	// Claims says whether the claims' failures were counted among them
	// (EditOptions.Claims).
	Claims bool
}

// WriteCheck writes the check of the corpus as the refused edit would
// have left it, as masrl check prints it (text, with the claims when
// the edit was judged with them): the findings that refused it.
func (e *RefusedError) WriteCheck(w io.Writer) error {
	return e.Proposal.After.Report(e.Proposal.Dir, e.Claims).Write(w, "text")
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the edit is refused: the corpus would have %d check errors where it had %d; no file was changed", e.After, e.Before)
}

// Edit is the one workflow by which a command changes a corpus (masrl
// add, import --into, refresh --write, watch --apply): it proposes
// changes over the corpus ck as it stands (Propose), judges the corpus
// with them against ck, and writes them as one transaction (Apply)
// unless opt.DryRun or the judgement refuses them with a *RefusedError.
// The proposal is returned whenever it was made, with a refusal or a
// failed Apply too, so that the caller can report its check and its
// diff. An error of Apply is Apply's: a *HalfAppliedError when the edit
// is half done, else no file changed.
func Edit(ck *Checked, changes map[string][]byte, opt EditOptions) (*Proposal, error) {
	p, err := Propose(ck, changes)
	if err != nil {
		return nil, err
	}
	before, after := p.Before.Verdict(opt.Claims).Errors(), p.After.Verdict(opt.Claims).Errors()
	if after > before {
		return p, &RefusedError{Proposal: p, Before: before, After: after, Claims: opt.Claims}
	}
	if opt.DryRun {
		return p, nil
	}
	return p, p.Apply(opt.Apply)
}
