//go:build !linux

package outdir

// exchange swaps the directories a and b; see exchange_linux.go.
func exchange(a, b string) error { return renameExchange(a, b) }
