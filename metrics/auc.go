package metrics

import (
	"cmp"
	"math"
	"slices"

	"github.com/trustlake/trustlake/stats"
)

// aucPairs is what the ROC AUC (Mann–Whitney, ties one half) of any task
// cluster bootstrap sample needs, counted once: for every pair of tasks
// (i, j), the positive–negative episode pairs with the positive in task i
// and the negative in task j, each counting 1 when the positive scores
// higher and ½ on a tie; and every task's positives and negatives. A sample
// drawing task t w[t] times then has AUC Σ w[i]·w[j]·wins[i][j] /
// (Σ w·pos · Σ w·neg): the value stats.ROCAUC gives on the sample with
// each task's episodes repeated, in (distinct tasks drawn)²/2 steps instead
// of a pass over the episodes. Every term is a multiple of ½ far below
// 2⁵³, so the sums are exact and their order does not matter.
type aucPairs struct {
	n        int       // tasks
	wins     []float64 // wins[i*n+j], i <= j: the pairs of i and j either way
	pos, neg []float64 // per task
}

// aucScored is one episode: its score, task number and label.
type aucScored struct {
	score    float64
	task     int
	positive bool
}

// newAUCPairsOf counts the pairs of items, item i of task number taskOf[i]
// of 0..n-1.
func newAUCPairsOf(items []stats.Scored, taskOf []int, n int) *aucPairs {
	a := &aucPairs{n: n, wins: make([]float64, n*n), pos: make([]float64, n), neg: make([]float64, n)}
	sorted := make([]aucScored, len(items))
	for i, it := range items {
		sorted[i] = aucScored{it.Score, taskOf[i], it.Positive}
	}
	slices.SortFunc(sorted, func(x, y aucScored) int { return cmp.Compare(x.score, y.score) })
	below := make([]float64, n)                          // negatives per task scored below the current tie group
	gpos, gneg := make([]float64, n), make([]float64, n) // the group's episodes per task
	var negTasks []int
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].score == sorted[i].score {
			j++
		}
		group := sorted[i:j]
		negTasks = negTasks[:0] // the tasks with a negative in the group
		for _, e := range group {
			if e.positive {
				gpos[e.task]++
			} else {
				if gneg[e.task] == 0 {
					negTasks = append(negTasks, e.task)
				}
				gneg[e.task]++
			}
		}
		for _, e := range group {
			if t := e.task; e.positive && gpos[t] > 0 {
				// The negatives below, then the group's (ties, ½ each):
				// two terms, not one sum of them, so the pass over all
				// tasks is one product each. Exact either way.
				g, row := gpos[t], a.wins[t*n:(t+1)*n]
				row = row[:len(below)]
				for u, b := range below {
					row[u] += g * b
				}
				for _, u := range negTasks {
					row[u] += g * gneg[u] / 2
				}
				a.pos[t] += g
				gpos[t] = 0
			}
		}
		for _, e := range group {
			if t := e.task; !e.positive && gneg[t] > 0 {
				below[t] += gneg[t]
				a.neg[t] += gneg[t]
				gneg[t] = 0
			}
		}
		i = j
	}
	// Fold the lower triangle into the upper one: a sample's wins are
	// Σ_i w_i² wins[i][i] + Σ_{i<j} w_i w_j (wins[i][j] + wins[j][i]),
	// half the products.
	for i := range n {
		for j := i + 1; j < n; j++ {
			a.wins[i*n+j] += a.wins[j*n+i]
		}
	}
	return a
}

// weighted returns the AUC of the sample drawing task t w[t] times (NaN
// without a positive or a negative); drawn is scratch space of len(w).
func (a *aucPairs) weighted(w []float64, drawn []int) float64 {
	drawn = drawn[:0]
	var pos, neg float64
	for t, wt := range w {
		if wt != 0 {
			drawn = append(drawn, t)
			pos += wt * a.pos[t]
			neg += wt * a.neg[t]
		}
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	// Four sums per row, not one: the terms are exact, so the order of
	// the additions does not matter, and independent sums do not wait on
	// each other.
	var num float64
	for k, i := range drawn { // ascending: the upper triangle
		row := a.wins[i*a.n : (i+1)*a.n]
		rest := drawn[k+1:]
		s0, s1, s2, s3 := row[i]*w[i], 0.0, 0.0, 0.0
		for len(rest) >= 4 {
			j0, j1, j2, j3 := rest[0], rest[1], rest[2], rest[3]
			s0 += row[j0] * w[j0]
			s1 += row[j1] * w[j1]
			s2 += row[j2] * w[j2]
			s3 += row[j3] * w[j3]
			rest = rest[4:]
		}
		for _, j := range rest {
			s0 += row[j] * w[j]
		}
		num += w[i] * ((s0 + s1) + (s2 + s3))
	}
	return num / (pos * neg)
}
