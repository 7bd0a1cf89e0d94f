package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestROCAUC(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		pos    []bool
		want   float64
	}{
		{"perfect", []float64{0.1, 0.2, 0.8, 0.9}, []bool{false, false, true, true}, 1},
		{"reversed", []float64{0.9, 0.8, 0.2, 0.1}, []bool{false, false, true, true}, 0},
		{"all tied", []float64{3, 3, 3}, []bool{true, false, false}, 0.5},
		{"one swap", []float64{1, 2, 3, 4}, []bool{false, true, false, true}, 0.75},
		{"no positives", []float64{1, 2}, []bool{false, false}, math.NaN()},
		{"no negatives", []float64{1, 2}, []bool{true, true}, math.NaN()},
		{"length mismatch", []float64{1, 2}, []bool{true}, math.NaN()},
		{"NaN score", []float64{1, math.NaN()}, []bool{true, false}, math.NaN()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ROCAUC(c.scores, c.pos)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-15) {
				t.Errorf("ROCAUC = %v, want %v", got, c.want)
			}
		})
	}
}

// TestROCAUCPairCount compares the rank formula with a direct count over all
// positive-negative pairs.
func TestROCAUCPairCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 50 {
		n := 2 + rng.IntN(40)
		scores, pos := make([]float64, n), make([]bool, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(6)) // many ties
			pos[i] = rng.IntN(2) == 0
		}
		var wins, pairs float64
		for i := range n {
			for j := range n {
				if pos[i] && !pos[j] {
					pairs++
					switch {
					case scores[i] > scores[j]:
						wins++
					case scores[i] == scores[j]:
						wins += 0.5
					}
				}
			}
		}
		got := ROCAUC(scores, pos)
		if pairs == 0 {
			if !math.IsNaN(got) {
				t.Fatalf("ROCAUC = %v without pairs, want NaN", got)
			}
			continue
		}
		if want := wins / pairs; math.Abs(got-want) > 1e-12 {
			t.Fatalf("ROCAUC(%v, %v) = %v, pair count %v", scores, pos, got, want)
		}
	}
}

func TestThresholdForFPR(t *testing.T) {
	neg := []float64{0.1, 0.2, 0.2, 0.3, 0.5, 0.5, 0.5, 0.6, 0.7, 0.9}
	cases := []struct {
		name   string
		neg    []float64
		target float64
		want   float64
	}{
		{"accept all", neg, 1, 0.1},
		{"ten percent", neg, 0.1, 0.9},
		{"twenty percent", neg, 0.2, 0.7},
		{"ties straddle the target", neg, 0.4, 0.6},
		{"tied block fits", neg, 0.6, 0.5}, // 6 of 10 scores are >= 0.5
		{"zero", neg, 0, math.Nextafter(0.9, 2)},
		{"tied maximum above target", []float64{1, 1, 1, 0}, 0.5, math.Nextafter(1, 2)},
		{"unsorted input", []float64{0.9, 0.1, 0.5}, 0.34, 0.9},
		{"empty", nil, 0.1, math.NaN()},
		{"bad target", neg, -0.1, math.NaN()},
		{"NaN score", []float64{0.1, math.NaN()}, 0.1, math.NaN()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := thresholdForFPR(c.neg, c.target)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && got != c.want) {
				t.Errorf("thresholdForFPR(%v, %v) = %v, want %v", c.neg, c.target, got, c.want)
			}
		})
	}
}

// TestThresholdForFPRProperty: the chosen threshold meets the target, and the
// next lower negative score would not.
func TestThresholdForFPRProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	share := func(neg []float64, t float64) float64 {
		k := 0
		for _, s := range neg {
			if s >= t {
				k++
			}
		}
		return float64(k) / float64(len(neg))
	}
	for range 200 {
		neg := make([]float64, 1+rng.IntN(50))
		for i := range neg {
			neg[i] = math.Round(rng.NormFloat64()*10) / 10
		}
		target := rng.Float64() * 0.5
		th := thresholdForFPR(neg, target)
		if got := share(neg, th); got > target {
			t.Fatalf("share at threshold %v is %v > target %v", th, got, target)
		}
		lower := math.Inf(-1)
		for _, s := range neg {
			if s < th && s > lower {
				lower = s
			}
		}
		if !math.IsInf(lower, -1) && share(neg, lower) <= target {
			t.Fatalf("lower score %v also meets target %v; threshold %v is not the smallest", lower, target, th)
		}
	}
}

func TestROCCurveAreaIsAUC(t *testing.T) {
	scores := []float64{0.9, 0.8, 0.8, 0.7, 0.6, 0.6, 0.5, 0.4, 0.3, 0.2}
	pos := []bool{true, true, false, true, false, true, false, false, true, false}
	pts := ROCCurve(scores, pos)
	if got, want := len(pts), 9; got != want {
		t.Fatalf("points = %d, want %d (8 distinct scores + origin)", got, want)
	}
	if last := pts[len(pts)-1]; last.FPR != 1 || last.TPR != 1 {
		t.Errorf("last point = %+v, want (1, 1)", last)
	}
	area := 0.0
	for i := 1; i < len(pts); i++ {
		area += (pts[i].FPR - pts[i-1].FPR) * (pts[i].TPR + pts[i-1].TPR) / 2
	}
	if want := ROCAUC(scores, pos); math.Abs(area-want) > 1e-12 {
		t.Errorf("trapezoid area %v, AUC %v", area, want)
	}
	if ROCCurve([]float64{1}, []bool{true}) != nil {
		t.Error("one class: want nil")
	}
}

// thresholdForFPR is thresholdSorted of unsorted scores: NaN when they are
// empty, contain NaN, or target is outside [0, 1].
func thresholdForFPR(negScores []float64, target float64) float64 {
	if len(negScores) == 0 || !(target >= 0 && target <= 1) {
		return math.NaN()
	}
	s := slices.Clone(negScores)
	slices.Sort(s)
	if math.IsNaN(s[0]) || math.IsNaN(s[len(s)-1]) {
		return math.NaN()
	}
	return thresholdSorted(s, target)
}
