package stats

import (
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

// massBins returns each forecast's equal-mass bin: forecast i goes to
// the bin of its place in the order by P with ties in input order. Its
// place is where its run of equal P starts in the sorted forecasts plus
// the number of equal ones before it in f.
func massBins(f []Forecast, bins int) []int {
	sorted := make([]float64, len(f))
	for i, x := range f {
		sorted[i] = x.P
	}
	slices.Sort(sorted)
	before := make([]int, len(f)) // per start of a run: forecasts of it placed so far
	out := make([]int, len(f))
	q, r := len(f)/bins, len(f)%bins
	for i, x := range f {
		start, _ := slices.BinarySearch(sorted, x.P)
		pos := start + before[start]
		before[start]++
		if pos < r*(q+1) {
			out[i] = pos / (q + 1)
		} else {
			out[i] = r + (pos-r*(q+1))/q
		}
	}
	return out
}

// calibrationSums holds, per cluster, the sums every figure needs in one
// row: the count, Σ(P − Y)², then per equal-width bin and per equal-mass
// bin the count, ΣP and ΣY.
type calibrationSums struct {
	bins int
	row  int       // sums per cluster: 2 + 6·bins
	sums []float64 // per cluster × row
}

func newCalibrationSums(f []Forecast, bins, clusters int) *calibrationSums {
	row := 2 + 6*bins
	return &calibrationSums{bins: bins, row: row, sums: make([]float64, clusters*row)}
}

// addForecasts adds each forecast of f, with its bins wb[i] and mb[i], to
// its Cluster (to cluster 0 when the sums hold one cluster).
func (a *calibrationSums) addForecasts(f []Forecast, wb, mb []int) {
	clusters := len(a.sums) / a.row
	for i, x := range f {
		c := x.Cluster
		if clusters == 1 {
			c = 0
		}
		s := a.sums[c*a.row : (c+1)*a.row]
		s[0]++
		s[1] += (x.P - x.Y) * (x.P - x.Y)
		for _, k := range [2]int{2 + wb[i]*3, 2 + (a.bins+mb[i])*3} {
			s[k]++
			s[k+1] += x.P
			s[k+2] += x.Y
		}
	}
}

// calibration returns the figures of the clusters idx (with repeats). Each
// sum adds the clusters' rows in the order of idx.
func (a *calibrationSums) calibration(idx []int) Calibration {
	var buf [2 + 6*16]float64 // on the stack for up to 16 bins
	var t []float64
	if a.row <= len(buf) {
		t = buf[:a.row]
	} else {
		t = make([]float64, a.row)
	}
	for _, c := range idx {
		s := a.sums[c*a.row : (c+1)*a.row]
		s = s[:len(t)]
		for k, v := range s {
			t[k] += v
		}
	}
	total := t[0]
	if total == 0 {
		nan := math.NaN()
		return Calibration{nan, nan, nan}
	}
	return Calibration{Brier: t[1] / total, ECEWidth: ece(t[2:2+a.bins*3], total), ECEMass: ece(t[2+a.bins*3:], total)}
}

// ece is Σ_b (n_b/N)·|mean P_b − mean Y_b| over bin sums s (n, ΣP, ΣY per bin).
func ece(s []float64, total float64) float64 {
	var e float64
	for b := 0; b+2 < len(s); b += 3 {
		if s[b] > 0 {
			e += s[b] / total * math.Abs(s[b+1]/s[b]-s[b+2]/s[b])
		}
	}
	return e
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
	for i, b := range widthBins(f, bins) {
		out[b].N++
		sp[b] += f[i].P
		sy[b] += f[i].Y
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
