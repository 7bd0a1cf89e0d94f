package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// reference mirrors testdata/reference.json, written by
// testdata/reference.py from statsmodels and scipy.
type reference struct {
	NormalQuantile []struct{ P, Want float64 } `json:"normal_quantile"`
	Wilson         []struct {
		K, N          int
		Alpha, Lo, Hi float64
	} `json:"wilson"`
	McNemar []struct {
		B, C int
		P    float64
	} `json:"mcnemar"`
	Cohen []struct {
		TP, FP, FN, TN int
		Kappa          float64
	} `json:"cohen"`
	Fleiss []struct {
		Counts [][]int
		Kappa  float64
	} `json:"fleiss"`
	FleissUnequal []struct {
		Counts [][]int
		Kappa  float64
	} `json:"fleiss_unequal"`
	AUC []struct {
		Scores   []float64
		Positive []bool
		AUC      float64
	} `json:"auc"`
	OneWay []struct {
		Groups               [][]float64
		Between, Within, Rho float64
	} `json:"oneway"`
	PassHatK []struct {
		C, N []int
		K    int
		Want float64
	} `json:"pass_hat_k"`
	PairedPowerExact []struct {
		FPRA        float64 `json:"fpr_a"`
		FPRB        float64 `json:"fpr_b"`
		N           int
		Discordance float64
		Alpha       float64
		Power       float64
	} `json:"paired_power_exact"`
	TauBench struct {
		Records, Tasks, Successes int
		PassHatK                  map[string]float64 `json:"pass_hat_k"`
		Between, Within, Rho      float64
		WilsonLo                  float64 `json:"wilson_lo"`
		WilsonHi                  float64 `json:"wilson_hi"`
	} `json:"tau_bench_airline"`
}

func loadReference(t *testing.T) reference {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("decode reference.json: %v", err)
	}
	return ref
}

// near reports whether got is within tol of want, relative for |want| > 1.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func TestReference(t *testing.T) {
	ref := loadReference(t)
	if len(ref.Wilson) == 0 || len(ref.McNemar) == 0 || len(ref.PairedPowerExact) == 0 {
		t.Fatal("reference.json has empty sections")
	}
	t.Run("NormalQuantile", func(t *testing.T) {
		for _, c := range ref.NormalQuantile {
			if got := NormalQuantile(c.P); !near(got, c.Want, 1e-14) {
				t.Errorf("NormalQuantile(%v) = %.17g, want %.17g", c.P, got, c.Want)
			}
		}
	})
	t.Run("Wilson", func(t *testing.T) {
		for _, c := range ref.Wilson {
			lo, hi := Wilson(c.K, c.N, c.Alpha)
			if !near(lo, c.Lo, 1e-12) || !near(hi, c.Hi, 1e-12) {
				t.Errorf("Wilson(%d, %d, %v) = [%.17g, %.17g], want [%.17g, %.17g]", c.K, c.N, c.Alpha, lo, hi, c.Lo, c.Hi)
			}
		}
	})
	t.Run("McNemarExact", func(t *testing.T) {
		for _, c := range ref.McNemar {
			got := McNemarExact(c.B, c.C)
			// Relative tolerance: tiny p-values must keep their digits too.
			if math.Abs(got-c.P) > 1e-9*c.P+1e-300 {
				t.Errorf("McNemarExact(%d, %d) = %.17g, want %.17g", c.B, c.C, got, c.P)
			}
		}
	})
	t.Run("CohenKappa", func(t *testing.T) {
		for _, c := range ref.Cohen {
			if got := CohenKappa(c.TP, c.FP, c.FN, c.TN); !near(got, c.Kappa, 1e-12) {
				t.Errorf("CohenKappa(%d, %d, %d, %d) = %v, want %v", c.TP, c.FP, c.FN, c.TN, got, c.Kappa)
			}
		}
	})
	t.Run("FleissKappa", func(t *testing.T) {
		for _, c := range append(ref.Fleiss, ref.FleissUnequal...) {
			if got := FleissKappa(c.Counts); !near(got, c.Kappa, 1e-12) {
				t.Errorf("FleissKappa(%v) = %v, want %v", c.Counts, got, c.Kappa)
			}
		}
	})
	t.Run("ROCAUC", func(t *testing.T) {
		for _, c := range ref.AUC {
			if got := ROCAUC(c.Scores, c.Positive); !near(got, c.AUC, 1e-12) {
				t.Errorf("ROCAUC(%v, %v) = %v, want %v", c.Scores, c.Positive, got, c.AUC)
			}
		}
	})
	t.Run("OneWayVariance", func(t *testing.T) {
		for _, c := range ref.OneWay {
			b, w, rho := OneWayVariance(c.Groups)
			if !near(b, c.Between, 1e-10) || !near(w, c.Within, 1e-10) || !near(rho, c.Rho, 1e-10) {
				t.Errorf("OneWayVariance(%v) = %v, %v, %v; want %v, %v, %v", c.Groups, b, w, rho, c.Between, c.Within, c.Rho)
			}
		}
	})
	t.Run("PassHatK", func(t *testing.T) {
		for _, c := range ref.PassHatK {
			if got := PassHatK(c.C, c.N, c.K); !near(got, c.Want, 1e-12) {
				t.Errorf("PassHatK(%v, %v, %d) = %v, want %v", c.C, c.N, c.K, got, c.Want)
			}
		}
	})
	t.Run("PairedPowerExact", func(t *testing.T) {
		for _, c := range ref.PairedPowerExact {
			got, err := PairedPowerExact(nil, c.FPRA, c.FPRB, c.N, c.Discordance, c.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got, c.Power, 1e-9) {
				t.Errorf("PairedPowerExact(nil, %v, %v, %d, %v, %v) = %.15g, want %.15g", c.FPRA, c.FPRB, c.N, c.Discordance, c.Alpha, got, c.Power)
			}
		}
	})
}
