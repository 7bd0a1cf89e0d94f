package metrics

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/stats"
)

var verdictIndex = map[string]int{"success": 0, "failure": 1, "uncertain": 2}

// Krippendorff's α from the SQL coincidences equals α computed from the
// generated files' run verdicts (between runs) and majorities (between the
// verdict judges), episode by episode, without trustlake's SQL.
func TestAgreementMatchesFiles(t *testing.T) {
	d := simLake(t)
	eps, lines := readSimFiles(t, d.dir)
	got, err := Agreements(t.Context(), d.s, ExtraOptions{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	runs := map[[2]string]map[string][]int{} // judge × condition → episode → counts
	for _, l := range lines {
		e, ok := eps[l["episode_id"].(string)]
		v, isVerdict := l["verdict"].(string)
		if !ok || e.source != "natural" || !isVerdict || strings.HasPrefix(l["judge"].(string), "sim:rm") {
			continue // reward models count only with a threshold
		}
		k := [2]string{l["judge"].(string), l["condition"].(string)}
		if runs[k] == nil {
			runs[k] = map[string][]int{}
		}
		ep := l["episode_id"].(string)
		if runs[k][ep] == nil {
			runs[k][ep] = make([]int, 3)
		}
		if i, ok := verdictIndex[v]; ok {
			runs[k][ep][i]++
		}
	}
	if len(got.Runs) != len(runs) || len(runs) == 0 {
		t.Fatalf("%d run rows, want %d", len(got.Runs), len(runs))
	}
	for _, r := range got.Runs {
		c := stats.NewCoincidences(3)
		for _, counts := range runs[[2]string{r.Judge, r.Condition}] {
			c.AddUnit(counts)
		}
		if want := c.Alpha(); math.Abs(r.Alpha.Value-want) > 1e-9 || r.Units != c.Units || !(r.Alpha.Boot[0] <= r.Alpha.Boot[1]) {
			t.Errorf("runs of %s@%s: α %v over %d units, want %v over %d", r.Judge, r.Condition, r.Alpha.Value, r.Units, want, c.Units)
		}
	}
	maj := refMajority(lines, math.Inf(1))
	judges := map[string]map[string][]int{} // condition → episode → counts
	for k, m := range maj {
		if strings.HasPrefix(k[0], "sim:rm") || eps[k[2]].source != "natural" {
			continue
		}
		if judges[k[1]] == nil {
			judges[k[1]] = map[string][]int{}
		}
		if judges[k[1]][k[2]] == nil {
			judges[k[1]][k[2]] = make([]int, 3)
		}
		judges[k[1]][k[2]][verdictIndex[m]]++
	}
	var conds []string
	for c := range judges {
		conds = append(conds, c)
	}
	sort.Strings(conds)
	if len(got.Judges) != len(conds) {
		t.Fatalf("%d judge rows, want %d", len(got.Judges), len(conds))
	}
	for i, r := range got.Judges {
		c := stats.NewCoincidences(3)
		for _, counts := range judges[conds[i]] {
			c.AddUnit(counts)
		}
		if want := c.Alpha(); r.Condition != conds[i] || math.Abs(r.Alpha.Value-want) > 1e-9 || r.Coders != 2 {
			t.Errorf("judges under %s: α %v (%d coders), want %s α %v", r.Condition, r.Alpha.Value, r.Coders, conds[i], want)
		}
	}
	if got.Human != nil {
		t.Errorf("no human judgments, but α %+v", got.Human)
	}
}

// The calibration of each judge × condition equals stats.Calibrate of the
// forecasts read from the generated files: the mean over runs of the score
// (reward models) or the confidence of success.
func TestCalibrationMatchesFiles(t *testing.T) {
	d := simLake(t)
	eps, lines := readSimFiles(t, d.dir)
	rows, warnings, err := Calibrations(t.Context(), d.s, ExtraOptions{Resamples: 50, Bins: 8})
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	type acc struct{ sum, n float64 }
	fc := map[[2]string]map[string]*acc{}
	for _, l := range lines {
		e, ok := eps[l["episode_id"].(string)]
		if !ok || e.source != "natural" {
			continue
		}
		var p float64
		conf, hasConf := l["confidence"].(float64)
		switch v, _ := l["verdict"].(string); {
		case l["verdict"] == nil:
			p = l["score"].(float64)
		case v == "success" && hasConf:
			p = conf
		case v == "failure" && hasConf:
			p = 1 - conf
		default:
			continue
		}
		k := [2]string{l["judge"].(string), l["condition"].(string)}
		if fc[k] == nil {
			fc[k] = map[string]*acc{}
		}
		ep := l["episode_id"].(string)
		if fc[k][ep] == nil {
			fc[k][ep] = &acc{}
		}
		fc[k][ep].sum += p
		fc[k][ep].n++
	}
	if len(rows) != len(fc) || len(rows) == 0 {
		t.Fatalf("%d calibration rows, want %d", len(rows), len(fc))
	}
	for _, r := range rows {
		var f []stats.Forecast
		var ids []string
		for ep, a := range fc[[2]string{r.Judge, r.Condition}] {
			ids = append(ids, ep)
			_ = a
		}
		sort.Strings(ids) // the statement's order: by episode
		for _, ep := range ids {
			a := fc[[2]string{r.Judge, r.Condition}][ep]
			y := 0.0
			if eps[ep].pass {
				y = 1
			}
			f = append(f, stats.Forecast{P: a.sum / a.n, Y: y})
		}
		want := stats.Calibrate(f, 8)
		if r.N != len(f) || math.Abs(r.Brier.Value-want.Brier) > 1e-9 || math.Abs(r.ECEWidth.Value-want.ECEWidth) > 1e-9 ||
			math.Abs(r.ECEMass.Value-want.ECEMass) > 1e-9 || len(r.Reliability) != 8 {
			t.Errorf("%s@%s: n %d Brier %v ECE %v/%v, want n %d %+v", r.Judge, r.Condition, r.N, r.Brier.Value, r.ECEWidth.Value, r.ECEMass.Value, len(f), want)
		}
		if wantKind := map[bool]string{true: ForecastScore, false: ForecastConfidence}[strings.HasPrefix(r.Judge, "sim:rm")]; r.Forecast != wantKind {
			t.Errorf("%s@%s: forecast %s, want %s", r.Judge, r.Condition, r.Forecast, wantKind)
		}
	}
}

// With --adjust every stratum with GT failures is tested against the rest
// of its judge × condition: the rest's FPR is the overall row's minus the
// stratum's, and the adjusted p never falls below the raw one.
func TestStrataAgainstRest(t *testing.T) {
	d := simLake(t)
	rep, err := Run(t.Context(), d.s, Options{By: []string{ByCategory}, Adjust: stats.AdjustHolm, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	overall := map[[2]string]Row{}
	for _, r := range rep.Rows {
		if dim, _ := r.StratumKey(); dim == "" {
			overall[[2]string{r.Judge, r.Condition}] = r
		}
	}
	tested := 0
	for _, r := range rep.Rows {
		dim, v := r.StratumKey()
		if dim == "" || v == StratumPass {
			if r.VsRest != nil {
				t.Errorf("%s@%s %s=%s: tested, but it has no GT failures to compare", r.Judge, r.Condition, dim, v)
			}
			continue
		}
		o := overall[[2]string{r.Judge, r.Condition}]
		if r.VsRest == nil {
			if r.NNeg > 0 && o.NNeg > r.NNeg {
				t.Errorf("%s@%s %s=%s: no test", r.Judge, r.Condition, dim, v)
			}
			continue
		}
		tested++
		vr := r.VsRest
		wantRest := float64(o.FP-r.FP) / float64(o.NNeg-r.NNeg)
		if math.Abs(vr.FPRRest-wantRest) > 1e-12 || vr.NNegRest != o.NNeg-r.NNeg || math.Abs(vr.Diff-(r.FPR.Value-wantRest)) > 1e-12 ||
			vr.PAdjusted < vr.P || vr.Significant != (vr.PAdjusted <= 0.05) {
			t.Errorf("%s@%s %s=%s: %+v, want rest FPR %v", r.Judge, r.Condition, dim, v, vr, wantRest)
		}
	}
	if tested == 0 || rep.Params.Adjust != stats.AdjustHolm {
		t.Fatalf("%d strata tested (params %+v)", tested, rep.Params)
	}
}

// α between human annotators of humanLake: units e1 (fail, fail), e3
// (pass, pass, fail), e4 (pass, fail); the coincidences o_pp 1, o_ff 2,
// o_pf = o_fp 2 give α = 1 − 6·4/(2·3·4) = 0 (krippendorff.alpha of the
// same data: 0.0).
func TestAgreementHuman(t *testing.T) {
	s := testLake(t, humanLake())
	got, err := Agreements(t.Context(), s, ExtraOptions{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	if h := got.Human; h == nil || math.Abs(h.Alpha.Value) > 1e-12 || h.Units != 3 || h.Tasks != 3 {
		t.Errorf("human α %+v, want 0 over 3 episodes of 3 tasks", h)
	}
}
