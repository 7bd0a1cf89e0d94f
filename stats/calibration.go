package stats

import (
	"cmp"
	"math"
	"slices"
)

// Forecast is one probability of success and what happened (Y 1 or 0),
// with the cluster (task) it belongs to.
type Forecast struct {
	P, Y    float64
	Cluster int // index into the caller's cluster ids
}

// Calibration holds the calibration figures of a set of forecasts.
type Calibration struct {
	Brier    float64 // mean (P − Y)²
	ECEWidth float64 // expected calibration error over equal-width bins
	ECEMass  float64 // expected calibration error over equal-mass bins
}

// Calibrate returns the Brier score (Brier 1950) and the expected
// calibration error ECE = Σ_b (n_b/N)·|mean P_b − mean Y_b| (Naeini,
// Cooper & Hauskrecht 2015; Guo et al. 2017) over bins equal-width bins
// (bin b holds b/B ≤ P < (b+1)/B, the last one closed at 1) and bins
// equal-mass bins (the forecasts sorted by P, ties in input order, cut
// into bins groups whose sizes differ by at most one, the larger first,
// as numpy.array_split cuts). Empty bins count nothing. NaN without
// forecasts; bins < 1 counts as 1.
func Calibrate(f []Forecast, bins int) Calibration {
	w := make([]float64, len(f))
	for i := range w {
		w[i] = 1
	}
	order := sortedForecasts(f)
	return calibrateWeighted(f, order, w, max(bins, 1))
}

// sortedForecasts returns the positions of f sorted by P, stable.
func sortedForecasts(f []Forecast) []int {
	order := make([]int, len(f))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(f[a].P, f[b].P) })
	return order
}

// calibrateWeighted is Calibrate with forecast i counted w[i] times (a
// whole number: a bootstrap resample's multiplicity of its cluster).
func calibrateWeighted(f []Forecast, order []int, w []float64, bins int) Calibration {
	nan := math.NaN()
	var total, sq float64
	type bin struct{ n, p, y float64 }
	width := make([]bin, bins)
	for i, x := range f {
		if w[i] == 0 {
			continue
		}
		total += w[i]
		sq += w[i] * (x.P - x.Y) * (x.P - x.Y)
		b := min(int(x.P*float64(bins)), bins-1)
		b = max(b, 0)
		width[b].n += w[i]
		width[b].p += w[i] * x.P
		width[b].y += w[i] * x.Y
	}
	if total == 0 {
		return Calibration{nan, nan, nan}
	}
	out := Calibration{Brier: sq / total}
	ece := func(bs []bin) float64 {
		var e float64
		for _, b := range bs {
			if b.n > 0 {
				e += b.n / total * math.Abs(b.p/b.n-b.y/b.n)
			}
		}
		return e
	}
	out.ECEWidth = ece(width)
	// Equal mass: bin k holds positions [start_k, start_k + size_k) of the
	// expanded sorted sample (each forecast repeated w times).
	m := int(total)
	q, r := m/bins, m%bins
	mass := make([]bin, bins)
	k, left := 0, q
	if r > 0 {
		left++
	}
	for _, i := range order {
		copies := int(w[i])
		for copies > 0 {
			for left == 0 && k < bins-1 {
				k++
				left = q
				if k < r {
					left++
				}
			}
			take := copies
			if k < bins-1 {
				take = min(copies, left)
			}
			mass[k].n += float64(take)
			mass[k].p += float64(take) * f[i].P
			mass[k].y += float64(take) * f[i].Y
			copies -= take
			left -= take
		}
	}
	out.ECEMass = ece(mass)
	return out
}

// ReliabilityBin is one equal-width bin of a reliability diagram.
type ReliabilityBin struct {
	Lo, Hi float64
	N      int
	MeanP  float64 // mean forecast in the bin (NaN when empty)
	FracY  float64 // share of successes in the bin (NaN when empty)
}

// Reliability returns the equal-width bins of Calibrate with their counts,
// mean forecast and observed frequency: the points of a reliability
// diagram.
func Reliability(f []Forecast, bins int) []ReliabilityBin {
	bins = max(bins, 1)
	out := make([]ReliabilityBin, bins)
	sp, sy := make([]float64, bins), make([]float64, bins)
	for _, x := range f {
		b := max(min(int(x.P*float64(bins)), bins-1), 0)
		out[b].N++
		sp[b] += x.P
		sy[b] += x.Y
	}
	for b := range out {
		out[b].Lo, out[b].Hi = float64(b)/float64(bins), float64(b+1)/float64(bins)
		out[b].MeanP, out[b].FracY = math.NaN(), math.NaN()
		if out[b].N > 0 {
			out[b].MeanP, out[b].FracY = sp[b]/float64(out[b].N), sy[b]/float64(out[b].N)
		}
	}
	return out
}

// CalibrationIntervals are the task-cluster bootstrap intervals of the
// three figures of Calibrate.
type CalibrationIntervals struct {
	Brier, ECEWidth, ECEMass Interval
}

// ClusterCalibration returns Calibrate's figures with their percentile
// cluster-bootstrap intervals: the clusters (ids; Forecast.Cluster indexes
// them) are drawn as ClusterBootstrap draws them and each forecast counts
// as often as its cluster was drawn; equal-mass bins are recut on every
// resample.
func ClusterCalibration(ids []string, f []Forecast, bins int, opts BootstrapOptions) (CalibrationIntervals, error) {
	bins = max(bins, 1)
	order := sortedForecasts(f)
	stat := func(pick func(Calibration) float64) func(idx []int) float64 {
		return func(idx []int) float64 {
			counts := make([]float64, len(ids))
			for _, i := range idx {
				counts[i]++
			}
			w := make([]float64, len(f))
			for i, x := range f {
				w[i] = counts[x.Cluster]
			}
			return pick(calibrateWeighted(f, order, w, bins))
		}
	}
	var out CalibrationIntervals
	var err error
	if out.Brier, err = ClusterBootstrap(ids, stat(func(c Calibration) float64 { return c.Brier }), opts); err != nil {
		return out, err
	}
	if out.ECEWidth, err = ClusterBootstrap(ids, stat(func(c Calibration) float64 { return c.ECEWidth }), opts); err != nil {
		return out, err
	}
	out.ECEMass, err = ClusterBootstrap(ids, stat(func(c Calibration) float64 { return c.ECEMass }), opts)
	return out, err
}
