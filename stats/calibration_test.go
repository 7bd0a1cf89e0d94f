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
	if ci.Brier.Estimate != plain.Brier || ci.ECEWidth.Estimate != plain.ECEWidth || ci.ECEMass.Estimate != plain.ECEMass {
		t.Errorf("estimates %+v, plain %+v", ci, plain)
	}
	if !(ci.ECEMass.Lo <= ci.ECEMass.Hi) || !ci.Brier.OK {
		t.Errorf("intervals %+v", ci)
	}
	// Cluster 0 twice, cluster 3 not at all.
	w := make([]float64, len(f))
	var twice []Forecast
	for i, x := range f {
		w[i] = []float64{2, 1, 1, 0}[x.Cluster]
		for range int(w[i]) {
			twice = append(twice, x)
		}
	}
	got, want := calibrateWeighted(f, sortedForecasts(f), w, 7), Calibrate(twice, 7)
	if !nearRef(got.Brier, want.Brier) || !nearRef(got.ECEWidth, want.ECEWidth) || !nearRef(got.ECEMass, want.ECEMass) {
		t.Errorf("weighted %+v, expanded %+v", got, want)
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
