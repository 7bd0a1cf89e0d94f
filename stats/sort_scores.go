package stats

import (
	"cmp"
	"math"
	"slices"
)

// sortNegatives sorts the negatives by score, ascending, as
// slices.SortFunc with cmp.Compare does. CrossFitThreshold reads only the
// scores in that order (and each one's fold), so any order of ties gives
// the same thresholds: with a NaN or a −0 (which ties with +0 but prints
// apart) by comparisons, else by SortScores. It may return another slice
// than neg.
func sortNegatives(neg []foldScore) []foldScore {
	for _, e := range neg {
		if math.IsNaN(e.score) || e.score == 0 && math.Signbit(e.score) {
			slices.SortFunc(neg, func(a, b foldScore) int { return cmp.Compare(a.score, b.score) })
			return neg
		}
	}
	return SortScores(neg, func(e *foldScore) float64 { return e.score })
}

// SortScores sorts items without a NaN score by score, ascending and
// stably (−0 just before +0), by bytes of the score's bits made
// unsigned-ordered: a few linear passes instead of comparisons, for the
// tens of thousands of episode scores of a reward model. It may return
// its scratch slice instead of a.
func SortScores[T any](a []T, score func(*T) float64) []T {
	if len(a) < 2 {
		return a
	}
	keys := make([]uint64, len(a))
	for i := range a {
		b := math.Float64bits(score(&a[i]))
		if b>>63 != 0 {
			keys[i] = ^b
		} else {
			keys[i] = b | 1<<63
		}
	}
	tmp, tmpKeys := make([]T, len(a)), make([]uint64, len(a))
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for _, k := range keys {
			count[byte(k>>shift)]++
		}
		if count[byte(keys[0]>>shift)] == len(a) {
			continue // every key has this byte: the pass would move nothing
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for i, k := range keys {
			d := byte(k >> shift)
			tmp[count[d]], tmpKeys[count[d]] = a[i], k
			count[d]++
		}
		a, tmp = tmp, a
		keys, tmpKeys = tmpKeys, keys
	}
	return a
}
