package stats

import (
	"cmp"
	"math"
	"slices"
)

// sortNegatives sorts the negatives by score, ascending, as
// slices.SortFunc with cmp.Compare does. CrossFitThreshold reads only the
// scores in that order (and each one's fold), so any order of ties gives
// the same thresholds: without a NaN or a −0 (which ties with +0 but
// prints apart), by bytes of the score's bits made unsigned-ordered, a few
// linear passes instead of comparisons. It may return its scratch slice
// instead of neg.
func sortNegatives(neg []foldScore) []foldScore {
	for _, e := range neg {
		if math.IsNaN(e.score) || e.score == 0 && math.Signbit(e.score) {
			slices.SortFunc(neg, func(a, b foldScore) int { return cmp.Compare(a.score, b.score) })
			return neg
		}
	}
	if len(neg) < 2 {
		return neg
	}
	key := func(x float64) uint64 {
		b := math.Float64bits(x)
		if b>>63 != 0 {
			return ^b
		}
		return b | 1<<63
	}
	a, tmp := neg, make([]foldScore, len(neg))
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for i := range a {
			count[byte(key(a[i].score)>>shift)]++
		}
		if count[byte(key(a[0].score)>>shift)] == len(a) {
			continue // every key has this byte: the pass would move nothing
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for i := range a {
			d := byte(key(a[i].score) >> shift)
			tmp[count[d]] = a[i]
			count[d]++
		}
		a, tmp = tmp, a
	}
	return a
}
