package stats

import (
	"encoding/binary"
	"math"
)

// floatPlan sums the columns of BootstrapSums' groups that are not packed
// (floats, negative or huge values) as SumDot sums them over the group's
// clusters: four partial sums, each adding the products of its positions
// in ascending order. Groups with the same clusters form a class, whose
// columns' partial sums lie side by side (parts[base+p·cols+j]: partial p
// of the class's column j), so that a drawn cluster adds its values to
// one stretch per class. Adding a cluster drawn zero times adds zero,
// which leaves a partial sum as it was: only drawn clusters are visited
// (and clusters with a non-finite value, where SumDot would add NaN).
type floatPlan struct {
	cols  [][]int // cols[g]: group g's columns summed here
	slot  [][]int // slot[g][i]: where partial 0 of column cols[g][i] lies
	width []int   // width[g]: the columns of group g's class
	parts int     // partial sums in all
	runs  [][]run // runs[t]: cluster t's stretches of values
	visit []bool  // visit[t]: visited even when not drawn
}

// run is a stretch of a cluster's values, added times its count to
// parts[at:at+len(x)].
type run struct {
	at int
	x  []float64
}

func planFloats(groups []SumGroup, n int) floatPlan {
	f := floatPlan{cols: make([][]int, len(groups)), slot: make([][]int, len(groups)), width: make([]int, len(groups)),
		runs: make([][]run, n), visit: make([]bool, n)}
	type class struct {
		groups []int
		cols   int
	}
	var classes []*class
	byKey := map[string]*class{}
	of := make([]*class, len(groups))
	for g, gr := range groups {
		for c, col := range gr.Cols {
			if _, ok := laneWidth(col, n); !ok {
				f.cols[g] = append(f.cols[g], c)
			}
		}
		if len(f.cols[g]) == 0 {
			continue
		}
		key := []byte("all")
		if gr.Clusters != nil {
			key = key[:0]
			for _, c := range gr.Clusters {
				key = binary.AppendUvarint(key, uint64(c))
			}
		}
		q := byKey[string(key)]
		if q == nil {
			q = &class{}
			byKey[string(key)] = q
			classes = append(classes, q)
		}
		q.groups = append(q.groups, g)
		of[g] = q
	}
	for _, q := range classes {
		base, j := f.parts, 0
		for _, g := range q.groups {
			for range f.cols[g] {
				f.slot[g] = append(f.slot[g], base+j)
				j++
			}
		}
		q.cols = j
		f.parts += 4 * j
		for _, g := range q.groups {
			f.width[g] = j
		}
		gr := groups[q.groups[0]]
		m := groupLen(gr, n)
		for k := range m {
			t := clusterAt(gr, k)
			x := make([]float64, 0, j)
			for _, g := range q.groups {
				for _, c := range f.cols[g] {
					v := groups[g].Cols[c][k]
					x = append(x, v)
					if math.IsNaN(v) || math.IsInf(v, 0) {
						f.visit[t] = true
					}
				}
			}
			f.runs[t] = append(f.runs[t], run{at: base + sumDotPart(k, m)*j, x: x})
		}
	}
	return f
}

// sum sets parts to the partial sums of a resample with multiplicities
// counts (by cluster position).
func (f *floatPlan) sum(counts []int, parts []float64) {
	clear(parts)
	for t, c := range counts {
		if c == 0 && !f.visit[t] {
			continue
		}
		w := float64(c)
		for _, r := range f.runs[t] {
			p := parts[r.at : r.at+len(r.x)]
			for i, x := range r.x {
				p[i] += w * x
			}
		}
	}
}

// groupSums sets group g's columns in sums from the partial sums, added
// as SumDot adds them.
func (f *floatPlan) groupSums(g int, parts, sums []float64) {
	w := f.width[g]
	for i, c := range f.cols[g] {
		s := f.slot[g][i]
		sums[c] = (parts[s] + parts[s+w]) + (parts[s+2*w] + parts[s+3*w])
	}
}
