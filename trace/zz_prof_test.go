package trace

import (
	"os"
	"testing"
)

func BenchmarkVal38File(b *testing.B) {
	path := os.Getenv("VAL38_FILE")
	if path == "" {
		b.Skip("VAL38_FILE")
	}
	fi, _ := os.Stat(path)
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Validate(f, Options{FindingsOnly: true, SizeHint: fi.Size()})
		f.Close()
		if err != nil || !res.Valid() {
			b.Fatal(err)
		}
	}
}
