package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// ppiCase is one input of python/ppi_reference.py.
type ppiCase struct {
	Y      []float64 `json:"y,omitempty"`
	Yhat   []float64 `json:"yhat,omitempty"`
	YhatU  []float64 `json:"yhat_unlabeled,omitempty"`
	Alpha  float64   `json:"alpha,omitempty"`
	A      []float64 `json:"a,omitempty"`
	B      []float64 `json:"b,omitempty"`
	reason string
}

type pyEstimate struct {
	Value, Lo, Hi, Lambda float64
}

type pyResult struct {
	PPI, Classical, Tuned pyEstimate
	GTOnly                pyEstimate `json:"gt_only"`
	JudgeOnly             pyEstimate `json:"judge_only"`
	Chi2                  float64
	DF                    int
	P                     float64
}

// sums reduces a case to PPISums.
func (c ppiCase) sums() PPISums {
	var s PPISums
	for i, y := range c.Y {
		f := c.Yhat[i]
		s.N++
		s.Y += y
		s.YY += y * y
		s.F += f
		s.FF += f * f
		s.YF += y * f
	}
	for _, f := range c.YhatU {
		s.NU++
		s.FU += f
		s.FFU += f * f
	}
	return s
}

// ppiCases are binary verdicts of judges from accurate to contrary (λ
// clipped at 0 and near 1), reward-model scores, tiny samples, and a few
// category tables.
func ppiCases() []ppiCase {
	rng := rand.New(rand.NewPCG(26, 2))
	var cases []ppiCase
	binary := func(n, nu int, p, tpr, fpr, alpha float64, reason string) {
		c := ppiCase{Alpha: alpha, reason: reason}
		judge := func(y float64) float64 {
			acc := fpr
			if y == 1 {
				acc = tpr
			}
			if rng.Float64() < acc {
				return 1
			}
			return 0
		}
		for range n {
			y := 0.0
			if rng.Float64() < p {
				y = 1
			}
			c.Y, c.Yhat = append(c.Y, y), append(c.Yhat, judge(y))
		}
		for range nu {
			y := 0.0
			if rng.Float64() < p {
				y = 1
			}
			c.YhatU = append(c.YhatU, judge(y))
		}
		cases = append(cases, c)
	}
	binary(200, 2000, 0.4, 0.9, 0.2, 0.05, "lenient judge")
	binary(50, 5000, 0.6, 0.95, 0.05, 0.05, "accurate judge, few labels")
	binary(300, 300, 0.5, 0.7, 0.3, 0.1, "weak judge, alpha 0.1")
	binary(100, 1000, 0.5, 0.2, 0.8, 0.05, "contrary judge: lambda clipped at 0")
	binary(12, 40, 0.5, 0.8, 0.3, 0.05, "tiny sample")
	binary(1000, 1200, 0.3, 0.99, 0.01, 0.01, "near-perfect judge, alpha 0.01")
	// Reward-model scores: f in [0, 1] on a logit scale around Y.
	for _, spread := range []float64{0.5, 2} {
		c := ppiCase{Alpha: 0.05, reason: "scores"}
		score := func(y float64) float64 {
			return 1 / (1 + math.Exp(-(4*y-2)*spread+rng.NormFloat64()))
		}
		for range 150 {
			y := float64(rng.IntN(2))
			c.Y, c.Yhat = append(c.Y, y), append(c.Yhat, score(y))
		}
		for range 900 {
			c.YhatU = append(c.YhatU, score(float64(rng.IntN(2))))
		}
		cases = append(cases, c)
	}
	// Scores larger than the rate scale: λ clipped at 1 is not reached,
	// λ̂ > 1 before clipping.
	c := ppiCase{Alpha: 0.05, reason: "scaled-down scores: lambda clipped at 1"}
	for range 200 {
		y := float64(rng.IntN(2))
		c.Y, c.Yhat = append(c.Y, y), append(c.Yhat, 0.3*y+0.05*rng.Float64())
	}
	for range 400 {
		c.YhatU = append(c.YhatU, 0.3*float64(rng.IntN(2))+0.05*rng.Float64())
	}
	cases = append(cases, c)
	cases = append(cases,
		ppiCase{A: []float64{10, 20, 0, 5}, B: []float64{30, 10, 0, 25}, reason: "shifted mix"},
		ppiCase{A: []float64{10, 10, 10}, B: []float64{30, 31, 29}, reason: "same mix"},
		ppiCase{A: []float64{3, 7}, B: []float64{50, 20}, reason: "2 x 2, no Yates"},
		ppiCase{A: []float64{1, 0, 2, 5, 9, 1}, B: []float64{2, 2, 2, 4, 50, 0}, reason: "sparse"},
	)
	return cases
}

// TestPPIMatchesPython compares PPIMean (λ = 1, 0, tuned), ClassicalMean
// and CompareMix with ppi-python's ppi_mean_ci / classical_mean_ci and
// scipy's chi2_contingency (python/ppi_reference.py): same points,
// intervals and λ to 1e-9.
func TestPPIMatchesPython(t *testing.T) {
	python := testenv.VenvPython(t)
	if err := exec.Command(python, "-c", "import ppi_py, scipy").Run(); err != nil {
		testenv.Missing(t, testenv.Python, "ppi_py or scipy not importable in %s (make venv; python/requirements-stats.txt)", python)
	}
	cases := ppiCases()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, filepath.Join(testenv.RepoRoot(t), "python", "ppi_reference.py"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ppi_reference.py: %v\n%s", err, stderr.String())
	}
	var want []pyResult
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(cases) {
		t.Fatalf("%d results for %d cases", len(want), len(cases))
	}
	const tol = 1e-9
	check := func(i int, what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("case %d (%s) %s: got %.15g, ppi-python/scipy %.15g", i, cases[i].reason, what, got, want)
		}
	}
	checkEst := func(i int, what string, got PPIEstimate, want pyEstimate) {
		t.Helper()
		check(i, what+" value", got.Value, want.Value)
		check(i, what+" lo", got.Lo, want.Lo)
		check(i, what+" hi", got.Hi, want.Hi)
	}
	clipped := map[float64]bool{}
	for i, c := range cases {
		w := want[i]
		if c.Y == nil {
			m := CompareMix(c.A, c.B)
			check(i, "chi2", m.ChiSquare, w.Chi2)
			check(i, "p", m.P, w.P)
			if m.DF != w.DF {
				t.Errorf("case %d df %d, scipy %d", i, m.DF, w.DF)
			}
			continue
		}
		s := c.sums()
		checkEst(i, "ppi", PPIMean(s, 1, c.Alpha), w.PPI)
		checkEst(i, "classical", PPIMean(s, 0, c.Alpha), w.Classical)
		tuned := PPIMeanTuned(s, c.Alpha)
		checkEst(i, "tuned", tuned, w.Tuned)
		check(i, "lambda", tuned.Lambda, w.Tuned.Lambda)
		checkEst(i, "gt only", ClassicalMean(s.N, s.Y, s.YY, c.Alpha), w.GTOnly)
		checkEst(i, "judge only", ClassicalMean(s.N+s.NU, s.F+s.FU, s.FF+s.FFU, c.Alpha), w.JudgeOnly)
		if tuned.Lambda == 0 || tuned.Lambda == 1 {
			clipped[tuned.Lambda] = true
		}
	}
	if !clipped[0] || !clipped[1] {
		t.Errorf("the cases should reach both clips of lambda: got %v", clipped)
	}
}
