package stats

import (
	"math"
	"testing"
)

// checkKrippendorff compares Coincidences.Alpha with krippendorff.alpha
// (nominal) on the reliability data: each unit's values counted per kind.
func checkKrippendorff(t *testing.T, c interopCases, ref interopRef) {
	for i, cs := range c.Kripp {
		co := NewCoincidences(3)
		for u := range cs.Data[0] {
			counts := make([]int, 3)
			for _, coder := range cs.Data {
				if v := coder[u]; v != nil {
					counts[int(*v)]++
				}
			}
			co.AddUnit(counts)
		}
		want := math.NaN()
		if a := ref.Kripp[i].Alpha; a != nil {
			want = *a
		}
		if got := co.Alpha(); !nearRef(got, want) {
			t.Errorf("krippendorff case %d: α %v, krippendorff %v", i, got, want)
		}
	}
}

// checkCalibration compares Calibrate with the numpy Brier score and ECE.
func checkCalibration(t *testing.T, c interopCases, ref interopRef) {
	for i, cs := range c.Calibration {
		f := make([]Forecast, len(cs.Prob))
		for j := range f {
			f[j] = Forecast{P: cs.Prob[j], Y: cs.Y[j]}
		}
		got, w := Calibrate(f, cs.Bins), ref.Calibration[i]
		if !nearRef(got.Brier, w.Brier) || !nearRef(got.ECEWidth, w.ECEWidth) || !nearRef(got.ECEMass, w.ECEMass) {
			t.Errorf("calibration case %d (%d forecasts, %d bins): %+v, numpy %+v", i, len(f), cs.Bins, got, w)
		}
	}
}
