package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// planCases are judges from weak to near perfect, with a limited number of
// episodes (the ppi_power n_max case) or unlimited.
var planCases = []struct {
	a        PPIAgreement
	w, alpha float64
	episodes int
}{
	{PPIAgreement{P: 0.4, TPR: 0.9, FPR: 0.2}, 0.03, 0.05, 5000},
	{PPIAgreement{P: 0.6, TPR: 0.95, FPR: 0.05}, 0.02, 0.05, 20000},
	{PPIAgreement{P: 0.3, TPR: 0.7, FPR: 0.3}, 0.05, 0.1, 2000},
	{PPIAgreement{P: 0.5, TPR: 0.99, FPR: 0.01}, 0.01, 0.05, 100000},
	{PPIAgreement{P: 0.4, TPR: 0.9, FPR: 0.2}, 0.03, 0.05, 0},
}

// TestPPIPlanClosedForm checks the searched PPI++ label count against the
// closed form n = n₀·M·(1−ρ²)/(M − ρ²·n₀) (n₀·(1−ρ²) for unlimited M),
// which holds when λ is not clipped, and that PPI++ needs no more labels
// than ground truth alone or PPI.
func TestPPIPlanClosedForm(t *testing.T) {
	for _, c := range planCases {
		p, err := PPILabelsForHalfWidth(c.a, c.w, c.alpha, c.episodes)
		if err != nil {
			t.Fatal(err)
		}
		z := zTwoSided(c.alpha)
		n0 := c.a.P * (1 - c.a.P) * z * z / (c.w * c.w)
		r2 := p.Rho * p.Rho
		want := n0 * (1 - r2)
		if c.episodes > 0 {
			M := float64(c.episodes)
			want = n0 * M * (1 - r2) / (M - r2*n0)
		}
		if got := float64(p.Tuned); got < want-1e-6 || got > want+1 {
			t.Errorf("%+v: tuned labels %d, closed form %.3f", c, p.Tuned, want)
		}
		// PPI++ never needs more than ground truth alone or PPI; PPI
		// (λ = 1) may, for a weak judge.
		if !(p.Tuned <= p.PPI && p.Tuned <= p.Classical) || p.Lambda <= 0 || p.Lambda >= 1 {
			t.Errorf("%+v: labels classical %d, PPI %d ≥ tuned %d, λ %v in (0, 1)", c, p.Classical, p.PPI, p.Tuned, p.Lambda)
		}
	}
	if _, err := PPILabelsForHalfWidth(PPIAgreement{P: 1.2}, 0.1, 0.05, 0); err == nil {
		t.Error("rate 1.2 accepted")
	}
}

// TestPPIPlanMatchesPython compares the PPI++ label counts with
// ppi-python's ppi_power (python/ppi_reference.py) for the same PPI
// correlation, classical sample size and number of episodes: within 1 (it
// rounds, the plan rounds up).
func TestPPIPlanMatchesPython(t *testing.T) {
	python := testenv.VenvPython(t)
	if err := exec.Command(python, "-c", "import ppi_py").Run(); err != nil {
		testenv.Missing(t, testenv.Python, "ppi_py not importable in %s (make venv; python/requirements-stats.txt)", python)
	}
	type powerCase struct {
		Rho  float64 `json:"rho"`
		N0   float64 `json:"n0"`
		NMax int     `json:"n_max"`
	}
	var in []powerCase
	var plans []PPILabelPlan
	for _, c := range planCases {
		if c.episodes == 0 {
			continue
		}
		p, err := PPILabelsForHalfWidth(c.a, c.w, c.alpha, c.episodes)
		if err != nil {
			t.Fatal(err)
		}
		z := zTwoSided(c.alpha)
		in = append(in, powerCase{Rho: p.Rho, N0: c.a.P * (1 - c.a.P) * z * z / (c.w * c.w), NMax: c.episodes})
		plans = append(plans, p)
	}
	b, _ := json.Marshal(in)
	cmd := exec.Command(python, filepath.Join(testenv.RepoRoot(t), "python", "ppi_reference.py"))
	cmd.Stdin = bytes.NewReader(b)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ppi_reference.py: %v\n%s", err, stderr.String())
	}
	var want []struct {
		N          int `json:"n"`
		Unlabelled int `json:"N"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for i, p := range plans {
		if math.Abs(float64(p.Tuned-want[i].N)) > 1 {
			t.Errorf("case %+v: tuned labels %d, ppi_power %d", in[i], p.Tuned, want[i].N)
		}
	}
}
