package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The bootstrap's first statistic (every cluster once) is the plain one,
// and a resample that draws one cluster twice counts its forecasts twice,
// equal-mass bins recut: the same as the forecasts listed twice.
func TestClusterCalibrationWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var f []Forecast
	ids := []string{"a", "b", "c", "d"}
	for i := range 40 {
		p := math.Round(rng.Float64()*20) / 20
		f = append(f, Forecast{P: p, Y: float64(b2i(rng.Float64() < p)), Cluster: i % 4})
	}
	ci, err := ClusterCalibration(ids, f, 7, BootstrapOptions{Resamples: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	plain := Calibrate(f, 7)
	if !nearRef(ci.Brier.Estimate, plain.Brier) || !nearRef(ci.ECEWidth.Estimate, plain.ECEWidth) || !nearRef(ci.ECEMass.Estimate, plain.ECEMass) {
		t.Errorf("estimates %+v, plain %+v", ci, plain)
	}
	if !(ci.ECEMass.Lo <= ci.ECEMass.Hi) || !ci.Brier.OK {
		t.Errorf("intervals %+v", ci)
	}
	// Cluster 0 twice, cluster 3 not at all: the sums of the resample are
	// those of the forecasts listed so, in their full-sample bins.
	a := newCalibrationSums(f, 7, 4)
	a.addForecasts(f, widthBins(f, 7), massBins(f, 7))
	got := a.calibration([]int{0, 0, 1, 2})
	var sq, n float64
	for _, x := range f {
		w := []float64{2, 1, 1, 0}[x.Cluster]
		sq += w * (x.P - x.Y) * (x.P - x.Y)
		n += w
	}
	if !nearRef(got.Brier, sq/n) || math.IsNaN(got.ECEMass) {
		t.Errorf("resample %+v, want Brier %v", got, sq/n)
	}
}

// α of units with perfect agreement is 1; the bootstrap's estimate is the
// plain α of all clusters.
func TestClusterAlpha(t *testing.T) {
	per := []Coincidences{NewCoincidences(3), NewCoincidences(3)}
	per[0].AddUnit([]int{3, 0, 0})
	per[0].AddUnit([]int{0, 2, 0})
	per[1].AddUnit([]int{0, 0, 2})
	per[1].AddUnit([]int{1, 0, 0}) // not pairable
	if a := per[0].Alpha(); a != 1 {
		t.Errorf("perfect agreement: α %v", a)
	}
	iv, err := ClusterAlpha([]string{"x", "y"}, per, BootstrapOptions{Resamples: 50})
	if err != nil || iv.Estimate != 1 || per[1].Units != 1 {
		t.Errorf("%+v %v (units %d)", iv, err, per[1].Units)
	}
}

// ClusterBootstrapN gives each statistic the interval ClusterBootstrap
// gives it alone.
func TestClusterBootstrapNMatchesOne(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e"}
	x := []float64{1, 4, 2, 8, 5}
	sum := func(idx []int) float64 {
		s := 0.0
		for _, i := range idx {
			s += x[i]
		}
		return s
	}
	opts := BootstrapOptions{Resamples: 300, Seed: 9, Workers: 3}
	many, err := ClusterBootstrapN(ids, 2, func(idx []int, out []float64) { out[0], out[1] = sum(idx), -sum(idx) }, opts)
	if err != nil {
		t.Fatal(err)
	}
	one, err := ClusterBootstrap(ids, sum, opts)
	if err != nil {
		t.Fatal(err)
	}
	if many[0] != one || many[1].Lo != -one.Hi || many[1].Hi != -one.Lo {
		t.Errorf("N: %+v, one: %+v", many, one)
	}
}
