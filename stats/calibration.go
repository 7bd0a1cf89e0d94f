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
	bins = max(bins, 1)
	a := newCalibrationSums(f, bins, 1)
	a.addForecasts(f, widthBins(f, bins), massBins(f, bins))
	return a.calibration([]int{0})
}

// widthBins returns each forecast's equal-width bin.
func widthBins(f []Forecast, bins int) []int {
	out := make([]int, len(f))
	for i, x := range f {
		out[i] = max(min(int(x.P*float64(bins)), bins-1), 0)
	}
	return out
}

// massBins returns each forecast's equal-mass bin.
func massBins(f []Forecast, bins int) []int {
	order := make([]int, len(f))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(f[a].P, f[b].P) })
	out := make([]int, len(f))
	q, r := len(f)/bins, len(f)%bins
	pos := 0
	for b := range bins {
		size := q
		if b < r {
			size++
		}
		for _, i := range order[pos : pos+size] {
			out[i] = b
		}
		pos += size
	}
	return out
}

// calibrationSums holds, per cluster, the sums every figure needs: the
// count and Σ(P − Y)², and per bin of each kind the count, ΣP and ΣY.
type calibrationSums struct {
	bins  int
	n, sq []float64 // per cluster
	width []float64 // per cluster × bin × (n, ΣP, ΣY)
	mass  []float64
}

func newCalibrationSums(f []Forecast, bins, clusters int) *calibrationSums {
	return &calibrationSums{bins: bins, n: make([]float64, clusters), sq: make([]float64, clusters),
		width: make([]float64, clusters*bins*3), mass: make([]float64, clusters*bins*3)}
}

// addForecasts adds each forecast of f, with its bins wb[i] and mb[i], to
// its Cluster (to cluster 0 when the sums hold one cluster).
func (a *calibrationSums) addForecasts(f []Forecast, wb, mb []int) {
	for i, x := range f {
		c := x.Cluster
		if len(a.n) == 1 {
			c = 0
		}
		a.n[c]++
		a.sq[c] += (x.P - x.Y) * (x.P - x.Y)
		for _, t := range []struct {
			sums []float64
			b    int
		}{{a.width, wb[i]}, {a.mass, mb[i]}} {
			k := (c*a.bins + t.b) * 3
			t.sums[k]++
			t.sums[k+1] += x.P
			t.sums[k+2] += x.Y
		}
	}
}

// calibration returns the figures of the clusters idx (with repeats).
func (a *calibrationSums) calibration(idx []int) Calibration {
	var total, sq float64
	width, mass := make([]float64, a.bins*3), make([]float64, a.bins*3)
	for _, c := range idx {
		total += a.n[c]
		sq += a.sq[c]
		base := c * a.bins * 3
		for k := range width {
			width[k] += a.width[base+k]
			mass[k] += a.mass[base+k]
		}
	}
	if total == 0 {
		nan := math.NaN()
		return Calibration{nan, nan, nan}
	}
	ece := func(s []float64) float64 {
		var e float64
		for b := 0; b < len(s); b += 3 {
			if s[b] > 0 {
				e += s[b] / total * math.Abs(s[b+1]/s[b]-s[b+2]/s[b])
			}
		}
		return e
	}
	return Calibration{Brier: sq / total, ECEWidth: ece(width), ECEMass: ece(mass)}
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
// them) are drawn as ClusterBootstrap draws them, each forecast counting
// as often as its cluster was drawn. Each forecast keeps the equal-width
// and equal-mass bin it has in the full sample (so a resample costs
// clusters × bins, not forecasts); the estimates are Calibrate's.
func ClusterCalibration(ids []string, f []Forecast, bins int, opts BootstrapOptions) (CalibrationIntervals, error) {
	bins = max(bins, 1)
	a := newCalibrationSums(f, bins, max(len(ids), 1))
	a.addForecasts(f, widthBins(f, bins), massBins(f, bins))
	ivs, err := ClusterBootstrapN(ids, 3, func(idx []int, out []float64) {
		c := a.calibration(idx)
		out[0], out[1], out[2] = c.Brier, c.ECEWidth, c.ECEMass
	}, opts)
	if err != nil {
		return CalibrationIntervals{}, err
	}
	return CalibrationIntervals{Brier: ivs[0], ECEWidth: ivs[1], ECEMass: ivs[2]}, nil
}
