package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(name, []byte("an older, longer content"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := createFile(name)
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 1<<20)
	if n, err := f.Write([]byte(big)); err != nil || n != len(big) {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("a second Close: %v, want nil", err)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
	b, err := os.ReadFile(name)
	if err != nil || string(b) != big {
		t.Fatalf("read back %d bytes, %v; want the %d written (truncated first)", len(b), err, len(big))
	}
	if info, _ := os.Stat(name); info.Mode().Perm() != 0o644&^umask(t) {
		t.Errorf("mode %v", info.Mode().Perm())
	}
	if _, err := createFile(filepath.Join(t.TempDir(), "missing", "x.html")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("creating in a missing directory: %v, want an error naming the path", err)
	}
}

// umask returns the process's file mode creation mask, as a file created
// with mode 0o777 shows it.
func umask(t *testing.T) os.FileMode {
	name := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(name, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ info.Mode().Perm()
}
