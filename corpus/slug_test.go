package corpus

import "testing"

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ in, key, anchor string }{
		{"RL method", "rl-method", "rl-method"},
		{"  A & B -- c_d ", "a-b-c-d", "a-b-c-d"},
		{"Müller", "m-ller", "müller"},
		{"ΑΒΓ", "", "αβγ"},
		{"2024: Agents!", "2024-agents", "2024-agents"},
	} {
		if got := Slug(tc.in); got != tc.key || !IsKey(got) && got != "" {
			t.Errorf("Slug(%q) = %q, want %q (a key)", tc.in, got, tc.key)
		}
		if got := AnchorSlug(tc.in); got != tc.anchor {
			t.Errorf("AnchorSlug(%q) = %q, want %q", tc.in, got, tc.anchor)
		}
	}
}

// FuzzSlug: both slugs follow the one rule, so on ASCII text they agree,
// and a key slug is always a key (or empty).
func FuzzSlug(f *testing.F) {
	for _, s := range []string{"RL method", "Müller", "a--b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := Slug(s)
		if k != "" && !IsKey(k) {
			t.Errorf("Slug(%q) = %q, not a key", s, k)
		}
		ascii := true
		for _, r := range s {
			ascii = ascii && r < 0x80
		}
		if a := AnchorSlug(s); ascii && a != k {
			t.Errorf("ASCII %q: Slug %q, AnchorSlug %q", s, k, a)
		}
	})
}
