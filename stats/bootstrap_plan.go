package stats

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// sumsPlan is how BootstrapSums sums every column of every group on a
// resample, all groups at once: a resample's sums are Σ counts[t]·(cluster
// t's values) over the clusters t drawn.
//
// A column of non-negative integers whose every resampled sum stays below
// 2^53 (counts) is exact in any order; such columns are packed into lanes
// of machine words, each lane as wide as its largest possible sum, so one
// integer multiply-add per word and drawn cluster sums several columns (a
// lane never carries into the next). The lanes of all groups share one
// row of words per cluster, of which a cluster keeps only the stretches of
// the groups it has data in; clusters whose stretches are the same are
// added four at a time. The other columns are summed as SumDot sums them
// (floatPlan).
type sumsPlan struct {
	lanes   [][]lane // lanes[g]: where each packed column of group g is summed
	words   int      // packed words in a row
	layouts []layout
	float   floatPlan
}

// lane is one packed column: bits [shift, shift+width) of word.
type lane struct {
	col, word int
	shift     uint
	mask      uint64
}

// layout is a set of clusters that keep the same stretches of words.
type layout struct {
	spans    []span     // the stretches, in order
	clusters []int      // the clusters, ascending
	rows     [][]uint64 // rows[k]: the words of clusters[k]'s stretches, one after the other
}

// span is a stretch of words [at, at+n) of a row.
type span struct{ at, n int }

// gapWords is how many zero words a cluster's row may hold between two
// stretches that are then kept as one.
const gapWords = 4

func planAllSums(groups []SumGroup, n int) *sumsPlan {
	p := &sumsPlan{lanes: make([][]lane, len(groups)), float: planFloats(groups, n)}
	used := 64 // bits taken in the last word
	first := make([]int, len(groups))
	for g, gr := range groups {
		first[g] = p.words - 1
		if used == 64 {
			first[g] = p.words
		}
		for c, col := range gr.Cols {
			width, ok := laneWidth(col, n)
			if !ok {
				continue
			}
			if used+width > 64 {
				p.words++
				used = 0
			}
			p.lanes[g] = append(p.lanes[g], lane{col: c, word: p.words - 1, shift: uint(used), mask: 1<<width - 1})
			used += width
		}
	}
	// rows[t]: cluster t's words from word from[t], the first of a group it
	// has data in.
	rows := make([][]uint64, n)
	from := make([]int, n)
	for g, gr := range groups {
		if len(p.lanes[g]) == 0 {
			continue
		}
		for k := range groupLen(gr, n) {
			t := clusterAt(gr, k)
			if rows[t] == nil {
				from[t] = first[g]
			}
			for _, l := range p.lanes[g] {
				w := l.word - from[t]
				for len(rows[t]) <= w {
					rows[t] = append(rows[t], 0)
				}
				rows[t][w] |= uint64(gr.Cols[l.col][k]) << l.shift
			}
		}
	}
	byKey := map[string]int{}
	for t, row := range rows {
		spans := splitSpans(row, from[t])
		if len(spans) == 0 {
			continue
		}
		var key []byte
		for _, sp := range spans {
			key = binary.AppendUvarint(binary.AppendUvarint(key, uint64(sp.at)), uint64(sp.n))
		}
		i, ok := byKey[string(key)]
		if !ok {
			i = len(p.layouts)
			byKey[string(key)] = i
			p.layouts = append(p.layouts, layout{spans: spans})
		}
		var words []uint64
		for _, sp := range spans {
			words = append(words, row[sp.at-from[t]:sp.at-from[t]+sp.n]...)
		}
		l := &p.layouts[i]
		l.clusters = append(l.clusters, t)
		l.rows = append(l.rows, words)
	}
	return p
}

// splitSpans cuts a row starting at word at into stretches of words at
// runs of more than gapWords zero words, leaving out the zeros at both
// ends.
func splitSpans(row []uint64, at int) []span {
	var out []span
	start, zeros := -1, 0
	for i, v := range row {
		switch {
		case v != 0 && start < 0:
			start = i
		case v != 0 && zeros > gapWords:
			out = append(out, span{at: at + start, n: i - zeros - start})
			start = i
		}
		if v == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	if start >= 0 {
		out = append(out, span{at: at + start, n: len(row) - zeros - start})
	}
	return out
}

// groupLen is the number of clusters with data in gr.
func groupLen(gr SumGroup, n int) int {
	if gr.Clusters != nil {
		return len(gr.Clusters)
	}
	return n
}

// clusterAt is the cluster of gr's k-th data position.
func clusterAt(gr SumGroup, k int) int {
	if gr.Clusters != nil {
		return gr.Clusters[k]
	}
	return k
}

// sumDotPart is the partial sum SumDot adds position k of m into: k mod 4
// in the blocks of four, the first for the rest.
func sumDotPart(k, m int) int {
	if k < m/4*4 {
		return k % 4
	}
	return 0
}

// laneWidth returns the bits any sum of col takes with multiplicities
// adding up to n, false unless col holds non-negative integers whose sums
// stay below 2^53 (float64 holds them exactly).
func laneWidth(col []float64, n int) (int, bool) {
	var top float64
	for _, v := range col {
		if v < 0 || v != math.Trunc(v) {
			return 0, false
		}
		top = max(top, v)
	}
	most := top * float64(max(n, 1))
	if most >= 1<<53 {
		return 0, false
	}
	return max(1, bits.Len64(uint64(most))), true
}

// sumScratch is one worker's space for sumsPlan.sum.
type sumScratch struct {
	acc   []uint64
	parts []float64
}

// sum adds up a resample with multiplicities counts (by cluster position)
// into s: s.acc the packed words, s.parts SumDot's partial sums.
func (p *sumsPlan) sum(counts []int, s *sumScratch) {
	if s.acc == nil {
		s.acc, s.parts = make([]uint64, p.words), make([]float64, p.float.parts)
	}
	clear(s.acc)
	for i := range p.layouts {
		p.layouts[i].sum(counts, s.acc)
	}
	p.float.sum(counts, s.parts)
}

// sum adds the rows of l's drawn clusters, times their counts, into acc,
// four clusters at a time (integers: any order gives the same sums).
func (l *layout) sum(counts []int, acc []uint64) {
	var (
		rows [4][]uint64
		w    [4]uint64
		k    int
	)
	flush := func() {
		off := 0
		for _, sp := range l.spans {
			a := acc[sp.at : sp.at+sp.n]
			switch k {
			case 4:
				addScaled4(a, rows[0][off:off+sp.n], rows[1][off:off+sp.n], rows[2][off:off+sp.n], rows[3][off:off+sp.n], w)
			default:
				for j := range k {
					addScaled(a, rows[j][off:off+sp.n], w[j])
				}
			}
			off += sp.n
		}
		k = 0
	}
	for i, t := range l.clusters {
		if counts[t] == 0 {
			continue
		}
		rows[k], w[k] = l.rows[i], uint64(counts[t])
		if k++; k == 4 {
			flush()
		}
	}
	if k > 0 {
		flush()
	}
}

// addScaled sets acc[i] += w·v[i].
func addScaled(acc, v []uint64, w uint64) {
	acc = acc[:len(v)]
	for i, x := range v {
		acc[i] += w * x
	}
}

// addScaled4 sets acc[i] += w[0]·a[i] + w[1]·b[i] + w[2]·c[i] + w[3]·d[i].
func addScaled4(acc, a, b, c, d []uint64, w [4]uint64) {
	n := len(acc)
	a, b, c, d = a[:n], b[:n], c[:n], d[:n]
	for i := range acc {
		acc[i] += w[0]*a[i] + w[1]*b[i] + w[2]*c[i] + w[3]*d[i]
	}
}

// groupSumsOf sets sums to group g's column sums from a resample's s.
func (p *sumsPlan) groupSumsOf(g int, s *sumScratch, sums []float64) {
	for _, l := range p.lanes[g] {
		sums[l.col] = float64(s.acc[l.word] >> l.shift & l.mask)
	}
	p.float.groupSums(g, s.parts, sums)
}
