package metrics

import (
	"math"
	"slices"
	"sync"
)

// nearEnd is the most order statistics orderPair keeps at either end in
// one pass over a column.
const nearEnd = 128

// setPercentiles sets targets[c].Boot to the percentile interval of
// vals[c*R:(c+1)*R], on workers goroutines. It reorders vals.
func setPercentiles(targets []*Metric, vals []float64, R int, alpha float64, workers int) {
	var wg sync.WaitGroup
	for w := range min(workers, len(targets)) {
		wg.Go(func() {
			for c := w; c < len(targets); c += workers {
				targets[c].Boot = percentiles(vals[c*R:(c+1)*R], alpha)
			}
		})
	}
	wg.Wait()
}

// percentiles returns the alpha/2 and 1−alpha/2 quantiles of the non-NaN
// values by linear interpolation between order statistics (type 7, as
// stats' bootstrap intervals), or NaNs when none is left. It reorders vals.
func percentiles(vals []float64, alpha float64) [2]float64 {
	kept := vals[:0]
	for _, v := range vals {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	var out [2]float64
	for k, p := range [2]float64{alpha / 2, 1 - alpha/2} {
		h := p * float64(len(kept)-1)
		i := int(math.Floor(h))
		lo, hi := orderPair(kept, i)
		out[k] = lo
		if i < len(kept)-1 && h != float64(i) {
			out[k] = lo + (h-float64(i))*(hi-lo)
		}
	}
	return out
}

// orderPair returns the i-th and (i+1)-th smallest of xs (0-based; the
// second is the first again when i is the last), which it may reorder. The
// quantiles of a bootstrap interval sit near either end, so when either
// end is within nearEnd values a single pass keeps that end sorted in a
// small buffer; otherwise it selects (selectNth).
func orderPair(xs []float64, i int) (float64, float64) {
	n := len(xs)
	if i >= n-1 {
		v := selectNth(xs, n-1)
		return v, v
	}
	var buf [nearEnd]float64
	switch {
	case i+2 <= nearEnd && i+2 <= n-i:
		if lo, hi, ok := belowBar(xs, i+2, false); ok {
			return lo, hi
		}
		low := smallest(xs, i+2, buf[:0])
		return low[i], low[i+1]
	case n-i <= nearEnd:
		if lo, hi, ok := belowBar(xs, n-i, true); ok {
			return lo, hi
		}
		high := largest(xs, n-i, buf[:0])
		return high[n-i-1], high[n-i-2]
	}
	lo := selectNth(xs, i)
	return lo, slices.Min(xs[i+1:]) // after selectNth, the (i+1)-th smallest
}

// belowBar returns the (k−1)-th and k-th smallest values of xs (the k-th
// and (k−1)-th largest when top: x(i) and x(i+1) for i = n−k), by a guess:
// a bar from every 16th value that about 2k values pass, one pass
// collecting those, and a selection among them. false when the guess does
// not give them (the caller keeps the k values itself).
func belowBar(xs []float64, k int, top bool) (float64, float64, bool) {
	var sample [nearEnd]float64
	m := 0
	for i := 0; i < len(xs) && m < len(sample); i += 16 {
		sample[m] = xs[i]
		m++
	}
	want := min(m-1, 2*k*m/len(xs)+3) // the want-th of the sample, from the end kept
	if want < 0 || 2*k > len(xs) {
		return 0, 0, false
	}
	var bar float64
	if top {
		bar = selectNth(sample[:m], m-1-want)
	} else {
		bar = selectNth(sample[:m], want)
	}
	// The values beyond the bar, then the bar itself as often as it occurs
	// (many values can tie with it). A zero bar could stand for both 0 and
	// −0, so it is not repeated.
	var cand [4 * nearEnd]float64
	out, ties := cand[:0], 0
	for _, v := range xs {
		switch {
		case !top && v < bar || top && v > bar:
			if len(out) == len(cand) {
				return 0, 0, false // a poor guess: too many values passed
			}
			out = append(out, v)
		case v == bar:
			ties++
		}
	}
	n := len(out)
	switch {
	case n >= k && top: // x(i), x(i+1) are the k-th and (k−1)-th largest
		v := selectNth(out, n-k)
		return v, slices.Min(out[n-k+1:]), true
	case n >= k: // the (k−1)-th and k-th smallest
		v := selectNth(out, k-2)
		return v, slices.Min(out[k-1:]), true
	case n+ties < k || bar == 0:
		return 0, 0, false
	case top: // bar k−n times, then out ascending
		if k-n >= 2 {
			return bar, bar, true
		}
		return bar, slices.Min(out), true
	}
	// out ascending, then bar k−n times
	lo, hi := bar, bar
	if k-2 < n {
		lo = selectNth(out, k-2)
		if k-1 < n {
			hi = slices.Min(out[k-1:])
		}
	}
	return lo, hi, true
}

// smallest returns the k smallest values of xs in ascending order, in buf.
func smallest(xs []float64, k int, buf []float64) []float64 {
	for _, v := range xs {
		if len(buf) == k {
			if v >= buf[k-1] {
				continue
			}
			buf = buf[:k-1]
		}
		j := len(buf)
		buf = append(buf, v)
		for ; j > 0 && buf[j-1] > v; j-- {
			buf[j] = buf[j-1]
		}
		buf[j] = v
	}
	return buf
}

// largest returns the k largest values of xs in descending order, in buf.
func largest(xs []float64, k int, buf []float64) []float64 {
	for _, v := range xs {
		if len(buf) == k {
			if v <= buf[k-1] {
				continue
			}
			buf = buf[:k-1]
		}
		j := len(buf)
		buf = append(buf, v)
		for ; j > 0 && buf[j-1] < v; j-- {
			buf[j] = buf[j-1]
		}
		buf[j] = v
	}
	return buf
}

// selectNth reorders xs so that xs[n] is the n-th smallest (0-based), with
// no larger value before it and no smaller one after it, and returns it
// (Hoare's quickselect with a median-of-three pivot).
func selectNth(xs []float64, n int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case n <= j:
			hi = j
		case n >= i:
			lo = i
		default:
			return xs[n]
		}
	}
	return xs[n]
}
