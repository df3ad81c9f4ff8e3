package corpus

// ReusedRows is how many rows' own findings the check of ck took from the
// check before (checkMemo), for tests that hold Reopen to reusing them.
func ReusedRows(ck *Checked) int {
	ck.Diagnostics()
	if ck.memo == nil {
		return 0
	}
	return ck.memo.reused
}
