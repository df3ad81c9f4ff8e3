package corpus

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// An edit of a corpus is a set of its files with new content: masrl add
// changes papers.csv and papers.bib, refresh --write papers.csv, papers.bib
// and upkeep.yaml, watch --apply excluded.csv, fmt any of the four corpus
// files. Propose checks the corpus as the edit would leave it, over an
// overlay of the directory (the new content in memory, the rest read from
// the directory), so that a proposed edit never touches the disk and its
// findings name the real files. Apply then writes the files as one
// transaction, all or none, even when the process is killed half way:
//
//  1. every new content is written and synced to a temporary file beside
//     its target (.masrl-edit.NAME.RANDOM.tmp);
//  2. a journal (JournalFile) naming each temporary file, its target, the
//     hash of the target's old content and of its new one is written,
//     synced and renamed into place: from here the edit is decided;
//  3. each temporary file is renamed over its target;
//  4. the journal is removed.
//
// A process killed before step 2 leaves the corpus as it was (and
// temporary files that nothing reads); one killed after it leaves the
// journal, which Load reports as an error at its path, so that masrl
// check never passes a corpus whose papers.bib has a new entry and whose
// papers.csv has not yet its row, and which every command that writes the
// corpus refuses until Recover (masrl recover) has completed the edit.
//
// The journal is read as untrusted input, since a pull request can commit
// one: Recover accepts only the journal format Apply writes, only the
// corpus files an edit may change (EditableFiles) as targets and only
// temporary names of Apply's own form, reads and writes through an
// os.Root of the corpus directory, and renames a temporary file only when
// its content hashes to the journal's new hash and its target still holds
// the journal's old content, so that it never writes outside the corpus
// and never replaces content that the journal does not describe.

// JournalFile is the journal of an edit under way, in the corpus directory.
const JournalFile = ".masrl-edit.journal"

// UpkeepFile is the record of the list's upkeep dates beside the corpus
// files (release.UpkeepFile), which refresh --write changes with the rows.
const UpkeepFile = "upkeep.yaml"

// journalHeader is the journal's first line: the format's name and
// version, so that a file of another kind is never taken for one.
const journalHeader = "masrl edit journal 1"

// maxJournal bounds what Recover reads of a journal: Apply's own is a few
// hundred bytes.
const maxJournal = 4096

// EditableFiles are the files of a corpus directory an edit may write:
// the corpus files and upkeep.yaml. Propose and Apply refuse any other
// name, and Recover any journal naming another.
func EditableFiles() []string {
	return []string{PapersFile, ExcludedFile, BibFile, SpotcheckFile, UpkeepFile}
}

// tempRE is the name of Apply's temporary files: the target and 16
// random hex digits.
var tempRE = regexp.MustCompile(`^\.masrl-edit\.(papers\.csv|excluded\.csv|papers\.bib|spotcheck\.csv|upkeep\.yaml)\.[0-9a-f]{16}\.tmp$`)

// Proposal is a corpus as an edit would leave it, checked, beside the
// corpus as it stands.
type Proposal struct {
	// Dir is the corpus directory the edit is of.
	Dir string
	// Changes are the edited files' new content, by file name.
	Changes map[string][]byte
	// Before is the corpus as it stands; After is the corpus with Changes
	// in place of its files, read from memory and the directory, its
	// positions naming the directory's files.
	Before, After *Checked
}

// Propose loads and starts checking the corpus of ck as it would be with
// changes (a file name of EditableFiles and its new content) in place of
// its files, against ck's data and check options. Nothing is written: the
// new content is read from memory over the directory (an overlay), and
// every finding and message names the corpus's own files. The error is
// for a name that is not an editable file and for what could not be read.
func Propose(ck *Checked, changes map[string][]byte) (*Proposal, error) {
	dir := ck.Corpus.Dir
	if err := checkEditNames(changes); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	nc, err := LoadFS(overlayFS{base: root.FS(), files: changes}, dir, LoadOptions{})
	if err != nil {
		return nil, err
	}
	return &Proposal{Dir: dir, Changes: changes, Before: ck, After: StartCheck(nc, ck.Data, ck.opt)}, nil
}

// Diff is what the proposal changes: entries added, removed and changed,
// the counts that move and the claims whose outcome changes.
func (p *Proposal) Diff() Diff {
	return DiffCorpora(p.Before.Corpus, p.After.Corpus, p.After.Vocabulary, p.After.Claims)
}

// WriteDiff writes what the edit changes as masrl diff prints it
// (Diff.Markdown), its sides named "before" and "after", after a blank
// line: what masrl add and import --into print below their report.
func (p *Proposal) WriteDiff(w io.Writer) error {
	diff := p.Diff()
	diff.Old, diff.New = "before", "after"
	_, err := io.WriteString(w, "\n"+diff.Markdown(len(p.Before.Corpus.Papers), len(p.After.Corpus.Papers)))
	return err
}

// Apply writes the proposal's files into its directory, all or none
// (Apply, the function).
func (p *Proposal) Apply(opt ApplyOptions) error { return Apply(p.Dir, p.Changes, opt) }

// ApplyOptions change how Apply writes.
type ApplyOptions struct {
	// Pause, when set, is called at every step of the transaction with the
	// step's name: "staged" (temporary files written), "committed" (the
	// journal in place), "renamed NAME" after each target is replaced, and
	// "done". Tests use it to stop the process between two renames.
	Pause func(step string)
}

func (o ApplyOptions) pause(step string) {
	if o.Pause != nil {
		o.Pause(step)
	}
}

// checkEditNames refuses a change of a file an edit may not write.
func checkEditNames(changes map[string][]byte) error {
	for name := range changes {
		if !slices.Contains(EditableFiles(), name) {
			return fmt.Errorf("%s is not a file an edit may change: want one of %s", name, strings.Join(EditableFiles(), ", "))
		}
	}
	return nil
}

// InterruptedError is the refusal to read a corpus for writing, or to
// write it, while the journal of an interrupted edit is in it.
type InterruptedError struct {
	Dir string
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("%s: %s", filepath.Join(e.Dir, JournalFile), e.Reason())
}

// Reason says what the journal means and what to run.
func (e *InterruptedError) Reason() string {
	return fmt.Sprintf("an edit of this corpus was interrupted before all its files were replaced, so they may not agree with each other; run masrl recover --corpus %s to complete it (a journal that no masrl command of yours left, one in a pull request, is to be removed instead)", e.Dir)
}

// Interrupted returns an *InterruptedError when the corpus directory dir
// holds the journal of an interrupted edit, else nil: what a command
// that is about to read the corpus in order to change it asks first.
func Interrupted(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil // the command's own load says why the directory cannot be read
	}
	defer root.Close()
	if _, err := root.Lstat(JournalFile); err == nil {
		return &InterruptedError{Dir: dir}
	}
	return nil
}

// HalfAppliedError is an Apply that failed after its journal was written
// (a rename refused): some files may be replaced, and the journal is
// there for Recover to complete the edit. Any other error of Apply means
// that no file changed.
type HalfAppliedError struct {
	Dir, Name string
	Err       error
}

func (e *HalfAppliedError) Error() string {
	return fmt.Sprintf("replacing %s: %v; the edit is half done: run masrl recover --corpus %s to complete it", filepath.Join(e.Dir, e.Name), e.Err, e.Dir)
}

func (e *HalfAppliedError) Unwrap() error { return e.Err }

// journalFinding is the error Load reports for the journal of an
// interrupted edit in the corpus: a read-only command must not pass a
// corpus whose files may be half replaced.
func journalFinding(fsys fs.FS, dir string) Diagnostics {
	if _, err := fs.Lstat(fsys, JournalFile); err != nil {
		return nil
	}
	var ds Diagnostics
	e := &InterruptedError{Dir: dir}
	ds.add(Error, Pos{File: filepath.Join(dir, JournalFile)}, "", "", "%s", e.Reason())
	return ds
}

// journalEntry is one replaced file of an edit.
type journalEntry struct {
	name, temp string
	old, new   string // sha256 in hex; old is "absent" for a new file
	mode       fs.FileMode
}

// Apply writes changes (a file name of EditableFiles and its new content)
// into the corpus directory dir as one transaction: after a failure, or
// after the process is killed, either no file has changed or the journal
// of the edit is there for Recover to complete it (see the package's
// comment on edits). A file keeps the mode of the file it replaces (0644
// when there is none). A corpus with the journal of an earlier edit is
// refused with an *InterruptedError.
func Apply(dir string, changes map[string][]byte, opt ApplyOptions) (err error) {
	if err := checkEditNames(changes); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if _, err := root.Lstat(JournalFile); err == nil {
		return &InterruptedError{Dir: dir}
	}
	names := make([]string, 0, len(changes))
	for n := range changes {
		names = append(names, n)
	}
	slices.Sort(names)
	var entries []journalEntry
	committed := false
	defer func() {
		if committed {
			return
		}
		for _, e := range entries {
			root.Remove(e.temp) // nothing was decided: the corpus is as it was
		}
	}()
	for _, n := range names {
		e := journalEntry{name: n, old: "absent", mode: 0o644}
		switch st, err := root.Lstat(n); {
		case err == nil && !st.Mode().IsRegular() && st.Mode()&fs.ModeSymlink == 0:
			return fmt.Errorf("%s: not a regular file: an edit replaces only files", filepath.Join(dir, n))
		case err == nil:
			b, err := readFile(root.FS(), dir, n)
			if err != nil {
				return err
			}
			e.old = hashHex(b)
			if st, err := root.Stat(n); err == nil {
				e.mode = st.Mode().Perm()
			}
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		e.new = hashHex(changes[n])
		if e.temp, err = writeTemp(root, filepath.Join(dir, n), ".masrl-edit."+n+".", changes[n], e.mode); err != nil {
			return err
		}
		entries = append(entries, e)
	}
	opt.pause("staged")
	if err := writeJournal(root, dir, entries); err != nil {
		return err
	}
	committed = true
	opt.pause("committed")
	for _, e := range entries {
		if err := root.Rename(e.temp, e.name); err != nil {
			// The journal stays: Recover completes the edit.
			return &HalfAppliedError{Dir: dir, Name: e.name, Err: err}
		}
		opt.pause("renamed " + e.name)
	}
	if err := syncDir(root); err != nil {
		return err
	}
	if err := root.Remove(JournalFile); err != nil {
		return err
	}
	if err := syncDir(root); err != nil {
		return err
	}
	opt.pause("done")
	return nil
}

// writeTemp writes b to a new temporary file of root named prefix, 16
// random hex digits and ".tmp", synced and with mode, and returns its
// name; path is the file it stands for, in errors.
func writeTemp(root *os.Root, path, prefix string, b []byte, mode fs.FileMode) (string, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	temp := prefix + hex.EncodeToString(rnd[:]) + ".tmp"
	f, err := root.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := f.Write(b)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr, root.Chmod(temp, mode)); err != nil {
		root.Remove(temp)
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return temp, nil
}

// writeJournal writes the journal under a temporary name, syncs it and
// renames it into place: the one step that decides the edit.
func writeJournal(root *os.Root, dir string, entries []journalEntry) error {
	var b strings.Builder
	b.WriteString(journalHeader + "\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %s %s %s %04o\n", e.name, e.temp, e.old, e.new, e.mode)
	}
	b.WriteString("end\n")
	temp, err := writeTemp(root, filepath.Join(dir, JournalFile), JournalFile+".", []byte(b.String()), 0o644)
	if err != nil {
		return err
	}
	if err := syncDir(root); err != nil {
		root.Remove(temp)
		return err
	}
	if err := root.Rename(temp, JournalFile); err != nil {
		root.Remove(temp)
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, JournalFile), err)
	}
	return syncDir(root)
}

// syncDir syncs the directory of root, so that the renames in it are on
// disk before the next step.
func syncDir(root *os.Root) error {
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

func hashHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

var hexHashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// parseJournal reads a journal strictly: the header, one line per target
// in name order, each target once, and "end". Anything else is an error
// at its line.
func parseJournal(path string, b []byte) ([]journalEntry, error) {
	lines := strings.Split(string(b), "\n")
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s: not a journal masrl wrote; check the corpus files and remove it by hand", path, i+1, fmt.Sprintf(format, args...))
	}
	if len(lines) < 3 || lines[0] != journalHeader {
		return nil, bad(0, "want the header %q", journalHeader)
	}
	if lines[len(lines)-1] != "" || lines[len(lines)-2] != "end" {
		return nil, bad(len(lines)-2, `want "end" on the last line`)
	}
	var out []journalEntry
	for i := 1; i < len(lines)-2; i++ {
		f := strings.Split(lines[i], " ")
		if len(f) != 5 {
			return nil, bad(i, "want NAME TEMP OLD NEW MODE")
		}
		e := journalEntry{name: f[0], temp: f[1], old: f[2], new: f[3]}
		switch {
		case !slices.Contains(EditableFiles(), e.name):
			return nil, bad(i, "%q is not a file an edit may change (%s)", e.name, strings.Join(EditableFiles(), ", "))
		case len(out) > 0 && out[len(out)-1].name >= e.name:
			return nil, bad(i, "%s is out of order or named twice", e.name)
		case !tempRE.MatchString(e.temp) || !strings.HasPrefix(e.temp, ".masrl-edit."+e.name+"."):
			return nil, bad(i, "%q is not a temporary file of %s", e.temp, e.name)
		case e.old != "absent" && !hexHashRE.MatchString(e.old):
			return nil, bad(i, "old hash %q: want 64 hex digits or absent", e.old)
		case !hexHashRE.MatchString(e.new):
			return nil, bad(i, "new hash %q: want 64 hex digits", e.new)
		}
		m, err := strconv.ParseUint(f[4], 8, 32)
		if err != nil || m > 0o777 || len(f[4]) != 4 {
			return nil, bad(i, "mode %q: want four octal digits, at most 0777", f[4])
		}
		e.mode = fs.FileMode(m)
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, bad(1, "no file named")
	}
	return out, nil
}

// Recover completes the interrupted edit of the corpus directory dir and
// returns the names of the files it replaced, and whether there was a
// journal; without one it does nothing to the corpus files. It removes Apply's temporary files left by an edit that was
// never decided. A journal that is not exactly one Apply writes, or that
// no longer describes the files (a target changed since, a temporary file
// missing or with other content), is an error that names it, and nothing
// is written.
func Recover(dir string) (replaced []string, found bool, err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	path := filepath.Join(dir, JournalFile)
	st, err := root.Lstat(JournalFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, removeStrays(root)
	}
	if err != nil {
		return nil, true, err
	}
	replaced, err = recoverJournal(root, dir, path, st)
	return replaced, true, err
}

// recoverJournal is Recover once the journal, st, is found at path.
func recoverJournal(root *os.Root, dir, path string, st fs.FileInfo) ([]string, error) {
	if !st.Mode().IsRegular() || st.Size() > maxJournal {
		return nil, fmt.Errorf("%s: not a journal masrl wrote (a regular file of at most %d bytes); check the corpus files and remove it by hand", path, maxJournal)
	}
	b, err := root.ReadFile(JournalFile)
	if err != nil {
		return nil, err
	}
	entries, err := parseJournal(path, b)
	if err != nil {
		return nil, err
	}
	// Every entry is verified before anything is renamed.
	var todo []journalEntry
	for _, e := range entries {
		target := filepath.Join(dir, e.name)
		cur, err := regularHash(root, e.name, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w; the journal %s names it: check it and remove the journal by hand", target, err, path)
		}
		if cur == e.new {
			continue // renamed before the interruption
		}
		if cur != e.old {
			return nil, fmt.Errorf("%s changed since the interrupted edit (the journal %s wants its old content or its new one): masrl does not overwrite it; check the corpus files and remove the journal by hand", target, path)
		}
		th, err := regularHash(root, e.temp, false)
		if err != nil || th != e.new {
			return nil, fmt.Errorf("%s: the new content of %s is missing or differs from the journal %s: the edit cannot be completed; the corpus files are as before it, remove the journal by hand", filepath.Join(dir, e.temp), target, path)
		}
		todo = append(todo, e)
	}
	var done []string
	for _, e := range todo {
		if err := root.Chmod(e.temp, e.mode); err != nil {
			return done, err
		}
		if err := root.Rename(e.temp, e.name); err != nil {
			return done, fmt.Errorf("replacing %s: %w", filepath.Join(dir, e.name), err)
		}
		done = append(done, e.name)
	}
	if err := syncDir(root); err != nil {
		return done, err
	}
	if err := root.Remove(JournalFile); err != nil {
		return done, err
	}
	return done, errors.Join(syncDir(root), removeStrays(root))
}

// regularHash hashes the regular file name of root: "absent" when there
// is none; anything but a file is an error, and so is a symbolic link
// unless follow (a target of an edit may be a link inside the corpus,
// as Apply read it; the root refuses one leading out).
func regularHash(root *os.Root, name string, follow bool) (string, error) {
	stat := root.Lstat
	if follow {
		stat = root.Stat
	}
	st, err := stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := root.Lstat(name); lerr == nil {
			return "", errors.New("a symbolic link to nothing")
		}
		return "absent", nil
	}
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	b, err := root.ReadFile(name)
	if err != nil {
		return "", err
	}
	return hashHex(b), nil
}

// removeStrays removes the temporary files of edits that were never
// decided (killed before their journal was written).
func removeStrays(root *os.Root) error {
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		if tempRE.MatchString(n) || journalTempRE.MatchString(n) {
			if st, err := root.Lstat(n); err == nil && st.Mode().IsRegular() {
				errs = append(errs, root.Remove(n))
			}
		}
	}
	return errors.Join(errs...)
}

// journalTempRE is the journal's own name while it is being written.
var journalTempRE = regexp.MustCompile(`^\.masrl-edit\.journal\.[0-9a-f]{16}\.tmp$`)

// EscapeError is a corpus file that is a symbolic link leading out of the
// corpus directory. A pull request can add one, and what it points at
// (the process's environment, a private key) must never be read, printed
// in a check's annotations or published with the site.
type EscapeError struct {
	Path   string // the corpus file, as dir/name
	Target string // where the link points, when it can be read
	Err    error
}

func (e *EscapeError) Error() string { return e.Path + ": " + e.Reason() }

func (e *EscapeError) Unwrap() error { return e.Err }

// Reason says what is wrong, without the path.
func (e *EscapeError) Reason() string {
	to := ""
	if e.Target != "" {
		to = " to " + e.Target
	}
	return "a symbolic link" + to + " that leads out of the corpus directory: masrl reads only files inside it; put the file itself there"
}

// openFile opens the file name of the corpus directory dir through fsys
// (an os.Root's, which refuses to leave the directory), naming the file
// dir/name in its errors and saying why a link out of the directory is
// refused.
func openFile(fsys fs.FS, dir, name string) (fs.File, error) {
	f, err := fsys.Open(name)
	if err == nil {
		return f, nil
	}
	return nil, fileError(fsys, dir, name, err)
}

func fileError(fsys fs.FS, dir, name string, err error) error {
	path := filepath.Join(dir, name)
	if !errors.Is(err, fs.ErrNotExist) {
		// The link may be the file or a folder on its way
		// (releases/v1/papers.csv with releases a link out).
		parts := strings.Split(name, "/")
		for i := range parts {
			p := strings.Join(parts[:i+1], "/")
			if st, lerr := fs.Lstat(fsys, p); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
				target, _ := fs.ReadLink(fsys, p)
				return &EscapeError{Path: filepath.Join(dir, filepath.FromSlash(p)), Target: target, Err: err}
			}
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: "open", Path: path, Err: pe.Err}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// readFile reads the file name of the corpus directory dir through fsys,
// as openFile opens it.
func readFile(fsys fs.FS, dir, name string) ([]byte, error) {
	f, err := openFile(fsys, dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
	}
	return b, nil
}

// ReadFile reads the file name of the corpus directory dir as Load reads
// the corpus files: through an os.Root of dir, so that a link out of it is
// an *EscapeError, never read. Whoever reads a file the corpus names
// (masrl.yaml, a claims file, the published downloads) reads it so.
func ReadFile(dir, name string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return readFile(root.FS(), dir, filepath.ToSlash(name))
}

// CheckInside returns an *EscapeError when the slash-separated path name
// in the corpus directory dir leads out of dir through a symbolic link,
// else nil (also when it does not exist): for a reader of a folder of
// the corpus (releases/, history/) that then reads it by path.
func CheckInside(dir, name string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if _, err := root.Stat(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fileError(root.FS(), dir, name, err)
	}
	return nil
}

// OpenFile opens the file name of the corpus directory dir for reading as
// ReadFile reads it, for a reader that streams it (the site publishes
// papers.csv as it was read).
func OpenFile(dir, name string) (fs.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close() // the file opened stays open
	return openFile(root.FS(), dir, filepath.ToSlash(name))
}

// overlayFS is a corpus directory with some files replaced by content in
// memory: what Propose loads.
type overlayFS struct {
	base  fs.FS
	files map[string][]byte
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if b, ok := o.files[name]; ok {
		return &memFile{Reader: bytes.NewReader(b), info: memInfo{name: name, size: int64(len(b))}}, nil
	}
	return o.base.Open(name)
}

// Lstat and ReadLink let openFile tell a link out of the directory among
// the base's files.
func (o overlayFS) Lstat(name string) (fs.FileInfo, error) {
	if b, ok := o.files[name]; ok {
		return memInfo{name: name, size: int64(len(b))}, nil
	}
	return fs.Lstat(o.base, name)
}

func (o overlayFS) ReadLink(name string) (string, error) {
	if _, ok := o.files[name]; ok {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return fs.ReadLink(o.base, name)
}

// memFile is a file of overlayFS; it is an io.ReaderAt as an *os.File is,
// which StreamStats's chunked reading uses.
type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
