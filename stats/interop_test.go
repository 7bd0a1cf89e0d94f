package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// interopCases are the inputs python/stats_reference.py computes reference
// numbers for; per-observation data with a cluster (task) per observation.
type interopCases struct {
	Adjust      [][]float64       `json:"adjust"`
	MeanCR1     []meanCase        `json:"mean_cr1"`
	DiffCR1     []diffCase        `json:"diff_cr1"`
	TwoProp     []twoPropCase     `json:"clustered_two_prop"`
	Kripp       []krippCase       `json:"krippendorff"`
	Calibration []calibrationCase `json:"calibration"`
}

type meanCase struct {
	Y      []float64 `json:"y"`
	Groups []int     `json:"groups"`
}

type diffCase struct {
	Y      []float64 `json:"y"`
	S      []float64 `json:"s"`
	Groups []int     `json:"groups"`
}

type twoPropCase struct {
	KA    int      `json:"ka"`
	NA    int      `json:"na"`
	DeffA *float64 `json:"deff_a"`
	KB    int      `json:"kb"`
	NB    int      `json:"nb"`
	DeffB *float64 `json:"deff_b"`
}

type krippCase struct {
	Data [][]*float64 `json:"data"` // coders × units, nil for missing
}

type calibrationCase struct {
	Prob []float64 `json:"prob"`
	Y    []float64 `json:"y"`
	Bins int       `json:"bins"`
}

type interopRef struct {
	Versions map[string]string `json:"versions"`
	Adjust   []struct{ BH, Holm []float64 }
	MeanCR1  []struct{ Mean, SE float64 }    `json:"mean_cr1"`
	DiffCR1  []struct{ Diff, SE, P float64 } `json:"diff_cr1"`
	TwoProp  []struct{ Diff, P float64 }     `json:"clustered_two_prop"`
	Kripp    []struct {
		Alpha *float64 `json:"alpha"`
	} `json:"krippendorff"`
	Calibration []struct {
		Brier    float64 `json:"brier"`
		ECEWidth float64 `json:"ece_width"`
		ECEMass  float64 `json:"ece_mass"`
	} `json:"calibration"`
}

// makeInteropCases draws the cases: clustered 0/1 outcomes with a task
// effect, p-value families with ties, design effects with gaps,
// reliability data with missing values, probabilities with ties.
func makeInteropCases() interopCases {
	rng := rand.New(rand.NewPCG(26, 1))
	var c interopCases
	for k := range 12 {
		m := 1 + rng.IntN(40)
		p := make([]float64, m)
		for i := range p {
			p[i] = math.Pow(rng.Float64(), 1+float64(k%4))
			if i > 0 && rng.IntN(5) == 0 {
				p[i] = p[i-1] // ties
			}
		}
		c.Adjust = append(c.Adjust, p)
	}
	for k := range 10 {
		tasks := 2 + rng.IntN(30)
		var y, s []float64
		var g []int
		for task := range tasks {
			base := rng.Float64()
			for range 1 + rng.IntN(6) {
				y = append(y, float64(b2i(rng.Float64() < base)))
				s = append(s, float64(b2i(rng.Float64() < 0.4)))
				g = append(g, task)
			}
		}
		if k%3 == 0 { // a non-binary outcome (inflation: −1, 0, 1)
			for i := range y {
				y[i] -= float64(b2i(rng.Float64() < 0.2))
			}
		}
		c.MeanCR1 = append(c.MeanCR1, meanCase{y, g})
		s[0], s[1] = 1, 0 // both groups present
		c.DiffCR1 = append(c.DiffCR1, diffCase{y, s, g})
	}
	for k := range 12 {
		na, nb := 5+rng.IntN(200), 5+rng.IntN(200)
		ka, kb := rng.IntN(na+1), rng.IntN(nb+1)
		var da, db *float64
		if k%3 != 0 {
			x := 0.5 + 3*rng.Float64()
			da = &x
		}
		if k%4 != 0 {
			x := 0.5 + 3*rng.Float64()
			db = &x
		}
		c.TwoProp = append(c.TwoProp, twoPropCase{ka, na, da, kb, nb, db})
	}
	for k := range 10 {
		coders, units := 2+rng.IntN(4), 3+rng.IntN(60)
		data := make([][]*float64, coders)
		for i := range data {
			data[i] = make([]*float64, units)
		}
		for u := range units {
			modal := float64(rng.IntN(3))
			for i := range coders {
				if rng.IntN(6) == 0 && k > 0 {
					continue // missing
				}
				v := modal
				if rng.IntN(4) == 0 {
					v = float64(rng.IntN(3))
				}
				data[i][u] = &v
			}
		}
		c.Kripp = append(c.Kripp, krippCase{data})
	}
	for k := range 10 {
		n := 5 + rng.IntN(300)
		prob, y := make([]float64, n), make([]float64, n)
		for i := range n {
			prob[i] = rng.Float64()
			if k%2 == 0 {
				prob[i] = math.Round(prob[i]*10) / 10 // ties and bin edges
			}
			y[i] = float64(b2i(rng.Float64() < prob[i]*0.8+0.1))
		}
		c.Calibration = append(c.Calibration, calibrationCase{prob, y, 1 + rng.IntN(15)})
	}
	return c
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// runInteropReference runs python/stats_reference.py on the cases.
func runInteropReference(t *testing.T, c interopCases) interopRef {
	t.Helper()
	py := testenv.VenvPython(t)
	root := testenv.RepoRoot(t)
	if out, err := exec.Command(py, "-c", "import statsmodels, scipy, krippendorff").CombinedOutput(); err != nil {
		testenv.Missing(t, testenv.Python, "statsmodels, scipy or krippendorff not importable in .venv (pip install -r python/requirements-stats.txt): %s",
			strings.TrimSpace(string(out)))
	}
	in := filepath.Join(t.TempDir(), "cases.json")
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join(root, "python", "stats_reference.py"), in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("stats_reference.py: %v\n%s", err, stderr.String())
	}
	var ref interopRef
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	pins, err := os.ReadFile(filepath.Join(root, "python", "requirements-stats.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if v := ref.Versions["statsmodels"]; !strings.Contains(string(pins), "statsmodels=="+v+"\n") {
		t.Errorf("the venv has statsmodels %s, not the pinned version", v)
	}
	return ref
}

func nearRef(got, want float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// clusterSums turns per-observation outcomes into per-cluster sums and
// counts (clusters 0..max).
func clusterSums(y []float64, groups []int, keep func(i int) bool) (sum, n []float64) {
	k := 0
	for _, g := range groups {
		k = max(k, g+1)
	}
	sum, n = make([]float64, k), make([]float64, k)
	for i, g := range groups {
		if keep(i) {
			sum[g] += y[i]
			n[g]++
		}
	}
	return sum, n
}

// TestStatsMatchReferences checks the new statistics of issue 26 against
// statsmodels, krippendorff and the numpy formulas of
// python/stats_reference.py, to 1e-9.
func TestStatsMatchReferences(t *testing.T) {
	c := makeInteropCases()
	ref := runInteropReference(t, c)
	for i, p := range c.Adjust {
		for _, m := range []struct {
			method string
			want   []float64
		}{{AdjustBH, ref.Adjust[i].BH}, {AdjustHolm, ref.Adjust[i].Holm}} {
			got, err := AdjustP(m.method, p)
			if err != nil {
				t.Fatal(err)
			}
			for j := range got {
				if !nearRef(got[j], m.want[j]) {
					t.Errorf("adjust %s case %d [%d]: %v, statsmodels %v", m.method, i, j, got[j], m.want[j])
				}
			}
		}
	}
	for i, cs := range c.MeanCR1 {
		sum, n := clusterSums(cs.Y, cs.Groups, func(int) bool { return true })
		got := MeanCR1(sum, n)
		if w := ref.MeanCR1[i]; !nearRef(got.Mean, w.Mean) || !nearRef(got.SE, w.SE) {
			t.Errorf("mean CR1 case %d: %v ± %v, statsmodels %v ± %v", i, got.Mean, got.SE, w.Mean, w.SE)
		}
	}
	for i, cs := range c.DiffCR1 {
		sa, na := clusterSums(cs.Y, cs.Groups, func(j int) bool { return cs.S[j] == 1 })
		sb, nb := clusterSums(cs.Y, cs.Groups, func(j int) bool { return cs.S[j] == 0 })
		got := DiffMeansCR1(sa, na, sb, nb)
		if w := ref.DiffCR1[i]; !nearRef(got.Diff, w.Diff) || !nearRef(got.SE, w.SE) || !nearRef(got.P, w.P) {
			t.Errorf("diff CR1 case %d: %v ± %v p %v, statsmodels %v ± %v p %v", i, got.Diff, got.SE, got.P, w.Diff, w.SE, w.P)
		}
	}
	for i, cs := range c.TwoProp {
		deff := func(d *float64) float64 {
			if d == nil {
				return math.NaN()
			}
			return *d
		}
		got := ClusteredTwoProportionZ(cs.KA, cs.NA, deff(cs.DeffA), cs.KB, cs.NB, deff(cs.DeffB))
		if w := ref.TwoProp[i]; !nearRef(got.Diff, w.Diff) || !nearRef(got.P, w.P) {
			t.Errorf("clustered two-proportion case %d (%+v): diff %v p %v, reference %v %v", i, cs, got.Diff, got.P, w.Diff, w.P)
		}
	}
	checkKrippendorff(t, c, ref)
	checkCalibration(t, c, ref)
}

var _ = fmt.Sprint
