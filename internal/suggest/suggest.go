// Package suggest finds the value a near miss probably meant, for the "did
// you mean" hints of the corpus check and the trace validator.
package suggest

import "strings"

// maxEdits is how far a typo may be from the value it stands for.
const maxEdits = 2

// Nearest returns the candidate that equals s ignoring case, or else the
// one within two edits of s (ignoring case), the earliest on a tie; "" when
// none is close enough to be a plausible typo, or s is empty.
func Nearest(s string, candidates []string) string {
	if s == "" {
		return ""
	}
	for _, c := range candidates {
		if strings.EqualFold(s, c) {
			return c
		}
	}
	best, bestD := "", maxEdits+1
	ls := strings.ToLower(s)
	for _, c := range candidates {
		if d := editDistance(ls, strings.ToLower(c), bestD); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b in runes. It
// stops early and returns limit once the distance reaches it, because only
// near misses matter.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}
