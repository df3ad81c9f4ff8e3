package corpus

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/masrl/masrl/data"
)

// This file lets Reopen keep the data (vocabulary, claims, pool, survey)
// of the open before while the files it was read from are unchanged: a
// maintainer's edit to papers.csv then neither parses the YAML again nor
// gives the site a new Data, so that the site can tell that nothing but
// rows changed (site's first pages, Cache) by the Data's identity.

// dataDigest hashes everything the data of the list in dir can be read
// from: every file of the data directory fsys (nil: the embedded one,
// which never changes, but is hashed all the same: it is small) as a
// walk lists it (for data.Dir's overlay, the directory's own files; the
// embedded ones below them do not change), and the list's own vocab.yaml,
// claims.yaml and the files its claims name (listed: Data.listFiles),
// present or not.
// It is "" when a file cannot be read: then nothing is kept.
func dataDigest(fsys fs.FS, profile, dir string, listed []string) string {
	if fsys == nil {
		fsys = data.FS
	}
	h := sha256.New()
	fmt.Fprintf(h, "profile %q dir %q\n", profile, dir)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "data %q %d\n", name, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return ""
	}
	for _, name := range append([]string{VocabFile, ListClaimsFile}, listed...) {
		if dir == "" {
			continue
		}
		b, err := ReadFile(dir, name)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(h, "list %q absent\n", name)
			continue
		}
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "list %q %d\n", name, len(b))
		h.Write(b)
	}
	return string(h.Sum(nil))
}

// listFiles are the files beside claims.yaml the list's own claims name
// (their pool and mentions files), which dataDigest reads; none when the
// data holds no claims of the list's own.
func (d *Data) listFiles() []string {
	if d == nil || d.Profile != "" || d.Claims == nil {
		return nil
	}
	var out []string
	for _, f := range []string{d.Claims.PoolFile, d.Claims.MentionsFile} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// SameRow reports whether e reads as o: the same values at the same
// line. The row of a corpus reopened (Reopen) whose record did not
// change shares its values with the row before, which is seen at once;
// the unchanged rows between two edits are decoded again, and compared.
// A row built by hand is never the same as another.
func (e *Entry) SameRow(o *Entry) bool {
	id := rowID(e)
	if id == nil || rowID(o) == nil || e.Line != o.Line || e.cols != o.cols {
		return false
	}
	return id == rowID(o) || slices.Equal(e.fields, o.fields)
}

// ChangedRows returns the rows of c that may not read as o's row at the
// same index (SameRow): c.Papers[lo:hi]. When c was loaded from o
// (Reopen) and only rows changed in place, that is the rows decoded
// again, the few an edit touched, so that whoever compares the rows of
// two loads (the quick first pages, PassesAfter) need not walk every row
// of a 100,000-entry list; otherwise it is every row.
func (c *Corpus) ChangedRows(o *Corpus) (lo, hi int) {
	if k := c.kept; k != nil && o != nil && k.from.Value() == o && len(c.Papers) == len(o.Papers) {
		return k.lo, k.hi
	}
	return 0, len(c.Papers)
}

// SameBib reports whether c's papers.bib is o's, byte for byte (or both
// have none): the site then keeps what its views took from it.
func (c *Corpus) SameBib(o *Corpus) bool {
	return c.HasBib == o.HasBib && c.bibSrc == o.bibSrc
}
