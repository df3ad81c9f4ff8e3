package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

const papers = "key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes\n" +
	"a,A Paper,A,,2025,,V,https://ok.example/a,survey,yes,NA,NA,NA,NA,core,x,yes,\n"

func corpusDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "papers.csv"), []byte(papers), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSnapshotLoad: a snapshot reads back with the hash the corpus had,
// releases come in version order (v10 after v9), and a version is never
// written twice.
func TestSnapshotLoad(t *testing.T) {
	dir := corpusDir(t)
	want, err := corpus.ContentHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v10", "v9"} {
		if _, err := Snapshot(dir, v, "2026-06-01"); err != nil {
			t.Fatal(err)
		}
	}
	rels, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 2 || rels[0].Version != "v9" || rels[1].Version != "v10" || rels[1].Hash != want || len(rels[1].Corpus.Papers) != 1 {
		t.Fatalf("releases: %+v", rels)
	}
	if _, err := Snapshot(dir, "v9", "2026-06-02"); err == nil || !strings.Contains(err.Error(), "never changes") {
		t.Errorf("second v9: %v", err)
	}
	for _, bad := range [][2]string{{"9", "2026-06-01"}, {"v0", "2026-06-01"}, {"v2", "2026-13-01"}} {
		if _, err := Snapshot(dir, bad[0], bad[1]); err == nil {
			t.Errorf("Snapshot(%q, %q) accepted", bad[0], bad[1])
		}
	}
	if none, err := Load(t.TempDir()); err != nil || none != nil {
		t.Errorf("no releases folder: %v %v", none, err)
	}
}

// TestLoadReportsEveryProblem: a folder that is no version, a release.yaml
// that disagrees with its folder, and files that no longer hash as
// recorded are all reported, each at its path.
func TestLoadReportsEveryProblem(t *testing.T) {
	dir := corpusDir(t)
	for _, v := range []string{"v1", "v2", "v3"} {
		if _, err := Snapshot(dir, v, "2026-06-01"); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, Dir)
	os.Mkdir(filepath.Join(root, "latest"), 0o755)
	meta := filepath.Join(root, "v2", MetaFile)
	b, _ := os.ReadFile(meta)
	os.WriteFile(meta, []byte(strings.Replace(strings.Replace(string(b), "version: v2", "version: v7", 1), "2026-06-01", "June", 1)), 0o644)
	os.WriteFile(filepath.Join(root, "v3", "papers.csv"), []byte(papers+"b,B,A,,2025,,V,https://ok.example/b,survey,yes,NA,NA,NA,NA,core,x,yes,\n"), 0o644)
	_, err := Load(dir)
	if err == nil {
		t.Fatal("Load accepted broken releases")
	}
	for _, want := range []string{
		filepath.Join(root, "latest") + `: version "latest"`,
		meta + `: version "v7" in folder v2`,
		meta + `: date "June"`,
		filepath.Join(root, "v3", MetaFile) + `: hash "sha256:`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestUpkeep: dates are recorded one at a time, keeping the other; a
// missing file is all unknown; a bad date or key is an error naming the file.
func TestUpkeep(t *testing.T) {
	dir := t.TempDir()
	if u, err := ReadUpkeep(dir); err != nil || u != (Upkeep{}) {
		t.Fatalf("missing upkeep.yaml: %+v %v", u, err)
	}
	RecordUpkeep(dir, func(u *Upkeep) { u.Refreshed = "2026-07-01" })
	RecordUpkeep(dir, func(u *Upkeep) { u.LinksChecked = "2026-07-02" })
	if u, err := ReadUpkeep(dir); err != nil || u != (Upkeep{"2026-07-01", "2026-07-02"}) {
		t.Errorf("upkeep: %+v %v", u, err)
	}
	path := filepath.Join(dir, UpkeepFile)
	os.WriteFile(path, []byte("refreshed: soon\nlinks_checked: 2026-02-30x\n"), 0o644)
	_, err := ReadUpkeep(dir)
	if err == nil || !strings.Contains(err.Error(), path+`: refreshed "soon"`) || !strings.Contains(err.Error(), `links_checked "2026-02-30x"`) {
		t.Errorf("bad dates: %v", err)
	}
	os.WriteFile(path, []byte("refreshd: 2026-07-01\n"), 0o644)
	if _, err := ReadUpkeep(dir); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("unknown key: %v", err)
	}
}

// FuzzReadUpkeep: any upkeep.yaml is read or refused with an error; none
// panics, and an accepted one holds only dates.
func FuzzReadUpkeep(f *testing.F) {
	f.Add([]byte("refreshed: \"2026-07-01\"\nlinks_checked: 2026-07-02\n"))
	f.Add([]byte("refreshed: [1, 2]\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, UpkeepFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		u, err := ReadUpkeep(dir)
		if err != nil {
			return
		}
		for _, d := range []string{u.Refreshed, u.LinksChecked} {
			if d != "" && !IsDate(d) {
				t.Errorf("accepted %q", d)
			}
		}
	})
}
