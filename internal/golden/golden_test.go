package golden

import (
	"path/filepath"
	"testing"
)

func TestInTestdata(t *testing.T) {
	for path, want := range map[string]bool{
		filepath.Join("testdata", "golden", "a.md"):       true,
		filepath.Join("..", "x", "testdata", "a.golden"):  true,
		filepath.Join("testdata.go"):                      false,
		filepath.Join("src", "a.golden"):                  false,
		filepath.Join("..", "testdata-not", "a.golden"):   false,
		filepath.Join(string(filepath.Separator), "a.md"): false,
	} {
		if got := inTestdata(path); got != want {
			t.Errorf("inTestdata(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestCheckCompares(t *testing.T) {
	path := filepath.Join("testdata", "hello.golden")
	Check(t, path, []byte("hello\n"))
	var ft fakeT
	Check(&ft, path, []byte("bye\n"))
	if !ft.failed {
		t.Error("Check passed on content that differs from the golden file")
	}
}

// fakeT records a failure instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Fatal(...any)          { f.failed = true }
