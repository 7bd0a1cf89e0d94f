package metrics

import (
	"math"
	"math/bits"
)

// lane is where one integer column of a bootJob is summed: bits
// [shift, shift+width) of packed word word, mask = 2^width − 1.
type lane struct {
	c     int // the column: index into the job's use and cols
	col   int // the tally column, j.use[c]
	word  int
	shift uint
	mask  uint64
}

// packing holds the integer columns of every job packed into machine words,
// task by task: a column whose resampled sums stay below 2^width takes a
// lane of width bits, and lanes share words. A resample's column sums are
// then Σ_task multiplicity × word, lane by lane: one multiply-add per word
// instead of one per column, shared by all the rows. Counts are
// non-negative integers, so each lane's sum is exact and never carries into
// the next lane, and, being below 2^53, equals the float64 sum in any
// order.
type packing struct {
	words int      // words per task
	data  []uint64 // data[t*words+i]: word i of task t
}

// packLanes assigns every job's integer columns a lane (the other columns
// go to j.floats) and packs the values of n tasks.
func packLanes(jobs []*bootJob, n int) packing {
	var p packing
	used := 64 // bits taken in the current word; 64: start a new one
	for _, j := range jobs {
		j.lanes, j.floats = nil, nil
		for c, col := range j.cols {
			width, ok := laneWidth(col, n)
			if !ok {
				j.floats = append(j.floats, c)
				continue
			}
			if used+width > 64 {
				p.words++
				used = 0
			}
			j.lanes = append(j.lanes, lane{c: c, col: j.use[c], word: p.words - 1, shift: uint(used), mask: 1<<width - 1})
			used += width
		}
	}
	p.data = make([]uint64, n*p.words)
	for _, j := range jobs {
		for _, l := range j.lanes {
			for k, task := range j.tasks {
				p.data[task*p.words+l.word] |= uint64(j.cols[l.c][k]) << l.shift
			}
		}
	}
	return p
}

// laneWidth returns the bits that any resampled sum of col takes (n tasks
// drawn, so at most n × the largest value), and false when col is not made
// of non-negative integers or its sums could reach 2^53.
func laneWidth(col []float64, n int) (int, bool) {
	var most float64
	for _, v := range col {
		if !(v >= 0 && v == math.Trunc(v) && v < 1<<53) {
			return 0, false
		}
		most = max(most, v)
	}
	hi, lo := bits.Mul64(uint64(n), uint64(most))
	if hi != 0 || lo >= 1<<53 {
		return 0, false
	}
	return max(bits.Len64(lo), 1), true
}

// sum sets acc to the packed column sums of a resample whose tasks are drawn
// counts[t] times, and wf[t] to counts[t] as a float; nz is scratch space
// of len(counts). Drawn tasks are added four at a time (one pass over acc
// per four rows): integer sums, so the grouping does not change them.
func (p *packing) sum(counts []int, acc []uint64, wf []float64, nz []int) {
	clear(acc)
	nz = nz[:0]
	for t, c := range counts {
		wf[t] = float64(c)
		if c != 0 {
			nz = append(nz, t)
		}
	}
	row := func(t int) []uint64 { return p.data[t*p.words : (t+1)*p.words][:len(acc)] }
	i := 0
	for ; i+4 <= len(nz); i += 4 {
		t0, t1, t2, t3 := nz[i], nz[i+1], nz[i+2], nz[i+3]
		w0, w1, w2, w3 := uint64(counts[t0]), uint64(counts[t1]), uint64(counts[t2]), uint64(counts[t3])
		r0, r1, r2, r3 := row(t0), row(t1), row(t2), row(t3)
		for k := range acc {
			acc[k] += w0*r0[k] + w1*r1[k] + w2*r2[k] + w3*r3[k]
		}
	}
	for ; i < len(nz); i++ {
		w, r := uint64(counts[nz[i]]), row(nz[i])
		for k := range acc {
			acc[k] += w * r[k]
		}
	}
}
