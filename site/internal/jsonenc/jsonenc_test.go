package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendString holds AppendString to json.Marshal on any string,
// after a prefix it must keep.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<a>&", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xe2\x80", `"\`, "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got := AppendString([]byte("x"), s)
		if !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Fatalf("AppendString(%q) = %s, want x%s", s, got, want)
		}
	})
}
