package stats

// distinctVectors returns the distinct vectors of the statistics laid out
// in flat (width[s] vectors of length n each, as BootstrapRatios lays them
// out) and, per statistic, the indices in them of its A.Num, A.Den, B.Num
// and B.Den (−1, −1 when it is not paired). Vectors are the same when
// their caller's slices are (same first element and length).
func distinctVectors(stats []RatioStat, flat []float64, width []int, n int) (vecs [][]float64, terms [][4]int) {
	type key struct {
		first *float64
		n     int
	}
	index := map[key]int{}
	terms = make([][4]int, len(stats))
	off := 0
	for s, st := range stats {
		t := [4]int{-1, -1, -1, -1}
		for k, v := range [][]float64{st.A.Num, st.A.Den, st.B.Num, st.B.Den}[:width[s]] {
			at := key{&v[0], len(v)}
			j, ok := index[at]
			if !ok {
				j = len(vecs)
				index[at] = j
				vecs = append(vecs, flat[off+k*n:off+(k+1)*n])
			}
			t[k] = j
		}
		terms[s] = t
		off += width[s] * n
	}
	return vecs, terms
}

// weightedSums sets sums[k] to Σ w[i]·vecs[k][i], summed in order of i
// from 0 as WeightedRatio sums, for up to four vectors per pass: the sums
// are independent, so one pass keeps several additions in flight.
func weightedSums(w []float64, vecs [][]float64, sums []float64) {
	n := len(w)
	k := 0
	for ; k+4 <= len(vecs); k += 4 {
		v0, v1, v2, v3 := vecs[k][:n], vecs[k+1][:n], vecs[k+2][:n], vecs[k+3][:n]
		var s0, s1, s2, s3 float64
		for i, wi := range w {
			s0 += wi * v0[i]
			s1 += wi * v1[i]
			s2 += wi * v2[i]
			s3 += wi * v3[i]
		}
		sums[k], sums[k+1], sums[k+2], sums[k+3] = s0, s1, s2, s3
	}
	switch len(vecs) - k {
	case 3:
		v0, v1, v2 := vecs[k][:n], vecs[k+1][:n], vecs[k+2][:n]
		var s0, s1, s2 float64
		for i, wi := range w {
			s0 += wi * v0[i]
			s1 += wi * v1[i]
			s2 += wi * v2[i]
		}
		sums[k], sums[k+1], sums[k+2] = s0, s1, s2
	case 2:
		v0, v1 := vecs[k][:n], vecs[k+1][:n]
		var s0, s1 float64
		for i, wi := range w {
			s0 += wi * v0[i]
			s1 += wi * v1[i]
		}
		sums[k], sums[k+1] = s0, s1
	case 1:
		v0 := vecs[k][:n]
		var s0 float64
		for i, wi := range w {
			s0 += wi * v0[i]
		}
		sums[k] = s0
	}
}
