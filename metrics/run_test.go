package metrics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// findRow returns the row of judge j, condition c and stratum dim=value
// ("" for overall).
func findRow(t *testing.T, rep Report, judge, cond, dim, value string) Row {
	t.Helper()
	for _, r := range rep.Rows {
		d, v := r.StratumKey()
		if r.Judge == judge && r.Condition == cond && d == dim && v == value {
			return r
		}
	}
	t.Fatalf("no row %s@%s %s=%s", judge, cond, dim, value)
	return Row{}
}

type counts struct{ NEpisodes, NPos, NNeg, TP, FP, TN, FN, NUncertain, NRuns, NParseError, NTasks int }

func countsOf(r Row) counts {
	return counts{r.NEpisodes, r.NPos, r.NNeg, r.TP, r.FP, r.TN, r.FN, r.NUncertain, r.NRuns, r.NParseError, r.NTasks}
}

func TestRunHandLake(t *testing.T) {
	s := testLake(t, handLake())
	rep, err := Run(t.Context(), s, Options{Judges: []string{"j"}, By: []string{ByCategory, ByHardness, BySource, ByTask}})
	if err != nil {
		t.Fatal(err)
	}
	overall := findRow(t, rep, "j", "E2-lastk", "", "")
	if got, want := countsOf(overall), (counts{7, 3, 4, 2, 2, 2, 1, 2, 21, 3, 3}); got != want {
		t.Errorf("overall counts = %+v, want %+v", got, want)
	}
	// Values by hand; Wilson bounds from statsmodels proportion_confint(method="wilson").
	type want struct {
		name           string
		m              Metric
		value, lo, hi  float64
		wilsonExpected bool
	}
	nan := math.NaN()
	for _, w := range []want{
		{"fpr", overall.FPR, 2.0 / 4, 0.15003898915214947, 0.8499610108478506, true},
		{"fdr", overall.FDR, 2.0 / 4, 0.15003898915214947, 0.8499610108478506, true},
		{"tpr", overall.TPR, 2.0 / 3, 0.2076596008020477, 0.9385080552796037, true},
		{"judge_success_rate", overall.JudgeSuccessRate, 4.0 / 7, 0.2504583645276572, 0.8417801447485302, true},
		{"gt_success_rate", overall.GTSuccessRate, 3.0 / 7, 0.15821985525146964, 0.7495416354723428, true},
		{"inflation", overall.Inflation, 1.0 / 7, nan, nan, false},
		{"kappa", overall.Kappa, 0.16, nan, nan, false},                             // statsmodels cohens_kappa
		{"fleiss_kappa", overall.FleissKappa, 0.23138297872340421, nan, nan, false}, // P̄ = 1/2, Pe = 101/289
		{"self_consistency", overall.SelfConsistency, 2.0 / 6, 0.09677141110578041, 0.700006684861608, true},
		{"uncertain_rate", overall.UncertainRate, 2.0 / 7, 0.08221892400405661, 0.6410655481673807, true},
		{"parse_error_rate", overall.ParseErrorRate, 3.0 / 21, 0.04981012499725268, 0.34636060280620945, true},
		{"accuracy", overall.Accuracy, 4.0 / 7, 0.2504583645276572, 0.8417801447485302, true}, // (TP+TN)/n = (2+2)/7
	} {
		if !near(w.m.Value, w.value) || math.Abs(w.m.Value-w.value) > 1e-12 {
			t.Errorf("%s = %v, want %v", w.name, w.m.Value, w.value)
		}
		if w.m.HasWilson != w.wilsonExpected {
			t.Errorf("%s: HasWilson = %v", w.name, w.m.HasWilson)
		}
		if w.wilsonExpected && (math.Abs(w.m.Wilson[0]-w.lo) > 1e-9 || math.Abs(w.m.Wilson[1]-w.hi) > 1e-9) {
			t.Errorf("%s wilson = %v, want [%v, %v]", w.name, w.m.Wilson, w.lo, w.hi)
		}
		if math.IsNaN(w.m.Boot[0]) || w.m.Boot[0] > w.m.Boot[1] {
			t.Errorf("%s boot = %v, want an interval", w.name, w.m.Boot)
		}
	}
	strata := []struct {
		dim, value string
		want       counts
	}{
		{ByCategory, StratumPass, counts{3, 3, 0, 2, 0, 0, 1, 1, 9, 1, 3}},
		{ByCategory, "F-ABORT", counts{1, 0, 1, 0, 0, 1, 0, 0, 3, 0, 1}},
		{ByCategory, "F-UNCOMMITTED", counts{2, 0, 2, 0, 2, 0, 0, 0, 6, 2, 2}},
		{ByCategory, "F-WRONGTARGET", counts{1, 0, 1, 0, 0, 1, 0, 1, 3, 0, 1}},
		{ByHardness, "hard", counts{3, 0, 3, 0, 2, 1, 0, 1, 9, 2, 2}},
		{ByHardness, "obvious", counts{1, 0, 1, 0, 0, 1, 0, 0, 3, 0, 1}},
		{BySource, "natural", counts{7, 3, 4, 2, 2, 2, 1, 2, 21, 3, 3}},
		{BySource, "perturbed", counts{1, 0, 1, 0, 1, 0, 0, 0, 3, 0, 1}},
		{ByTask, "t1", counts{2, 1, 1, 1, 1, 0, 0, 0, 6, 0, 1}},
		{ByTask, "t3", counts{3, 1, 2, 1, 1, 1, 0, 1, 9, 2, 1}},
	}
	for _, st := range strata {
		r := findRow(t, rep, "j", "E2-lastk", st.dim, st.value)
		if got := countsOf(r); got != st.want {
			t.Errorf("%s=%s counts = %+v, want %+v", st.dim, st.value, got, st.want)
		}
	}
	if r := findRow(t, rep, "j", "E2-lastk", ByTask, "t1"); !math.IsNaN(r.FPR.Boot[0]) {
		t.Errorf("one-task stratum has a bootstrap interval %v, want null", r.FPR.Boot)
	}
	if r := findRow(t, rep, "j", "E2-lastk", ByCategory, "F-UNCOMMITTED"); r.FPR.Value != 1 || !math.IsNaN(r.TPR.Value) {
		t.Errorf("F-UNCOMMITTED fpr = %v tpr = %v, want 1 and undefined", r.FPR.Value, r.TPR.Value)
	}
	// The excluded episode without ground truth is counted in a warning.
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "without ground truth: j@E2-lastk: 1") {
		t.Errorf("warnings %q do not report e8", rep.Warnings)
	}
	// Row order: overall, then strata in the order of By.
	var order []string
	for _, r := range rep.Rows {
		d, v := r.StratumKey()
		order = append(order, d+"="+v)
	}
	wantOrder := []string{"=", "category=(pass)", "category=F-ABORT", "category=F-UNCOMMITTED", "category=F-WRONGTARGET",
		"hardness=(pass)", "hardness=hard", "hardness=obvious", "source=natural", "source=perturbed", "task=t1", "task=t2", "task=t3"}
	if diff := cmp.Diff(wantOrder, order); diff != "" {
		t.Errorf("row order (-want +got):\n%s", diff)
	}
}

func TestRunUncertainPolicies(t *testing.T) {
	s := testLake(t, handLake())
	cases := []struct {
		policy string
		want   counts
		fpr    float64
	}{
		{UncertainFailure, counts{7, 3, 4, 2, 2, 2, 1, 2, 21, 3, 3}, 2.0 / 4},
		{UncertainSuccess, counts{7, 3, 4, 3, 3, 1, 0, 2, 21, 3, 3}, 3.0 / 4},
		{UncertainExclude, counts{7, 2, 3, 2, 2, 1, 0, 2, 21, 3, 3}, 2.0 / 3},
	}
	for _, c := range cases {
		t.Run(c.policy, func(t *testing.T) {
			rep, err := Run(t.Context(), s, Options{Judges: []string{"j"}, UncertainPolicy: c.policy, Resamples: 200})
			if err != nil {
				t.Fatal(err)
			}
			r := findRow(t, rep, "j", "E2-lastk", "", "")
			if got := countsOf(r); got != c.want {
				t.Errorf("counts = %+v, want %+v", got, c.want)
			}
			if got := r.FPR.Value; math.Abs(got-c.fpr) > 1e-12 {
				t.Errorf("fpr = %v, want %v", got, c.fpr)
			}
		})
	}
}

func TestRunScoreOnlyJudge(t *testing.T) {
	s := testLake(t, handLake())
	// Without a threshold the reward model is skipped with a warning, or
	// refused when it is all that was asked for.
	rep, err := Run(t.Context(), s, Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Params.Judges; len(got) != 1 || got[0] != "j" {
		t.Errorf("judges = %v, want [j]", got)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "rm@E1-final") {
		t.Errorf("warnings %q do not name the skipped reward model", rep.Warnings)
	}
	if _, err := Run(t.Context(), s, Options{Judges: []string{"rm"}}); !errors.Is(err, ErrScoreOnly) {
		t.Errorf("rm without threshold: err = %v, want ErrScoreOnly", err)
	}
	// score >= 0.5 is success: e1 S S S (TP), e2 S F F (TN), e3 F - F (TN).
	thr := 0.5
	rep, err = Run(t.Context(), s, Options{Judges: []string{"rm"}, Threshold: &thr, Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := findRow(t, rep, "rm", "E1-final", "", "")
	if got, want := countsOf(r), (counts{3, 1, 2, 1, 0, 2, 0, 0, 9, 1, 2}); got != want {
		t.Errorf("rm counts = %+v, want %+v", got, want)
	}
}

func TestRunBadInput(t *testing.T) {
	s := testLake(t, handLake())
	cases := []struct {
		name string
		opts Options
		err  error
		msg  string
	}{
		{"unknown judge", Options{Judges: []string{"nope"}}, ErrUnknown, "judges: j, rm"},
		{"unknown condition", Options{Conditions: []string{"E9"}}, ErrUnknown, "conditions: E1-final, E2-lastk"},
		{"bad policy", Options{UncertainPolicy: "maybe"}, ErrBadOption, "failure, success or exclude"},
		{"bad by", Options{By: []string{"colour"}}, ErrBadOption, "--by \"colour\""},
		{"bad source", Options{Source: "made-up"}, ErrBadOption, "natural, weakened, perturbed"},
		{"empty source", Options{Judges: []string{"j"}, Source: "weakened"}, ErrNoGroundTruth, "natural (7 judged episodes), perturbed (1 judged episodes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(t.Context(), s, c.opts)
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %v mentioning %q", err, c.err, c.msg)
			}
		})
	}
}

func TestRunNoGroundTruth(t *testing.T) {
	tables := handLake()
	delete(tables, "ground_truth")
	s := testLake(t, tables)
	_, err := Run(t.Context(), s, Options{Judges: []string{"j"}})
	if !errors.Is(err, ErrNoGroundTruth) || !strings.Contains(err.Error(), "no ground truth") {
		t.Errorf("err = %v, want ErrNoGroundTruth with a message", err)
	}
}

func TestRunSingleTask(t *testing.T) {
	tables := handLake()
	for _, e := range tables["episodes"] {
		e["task_id"] = "only"
	}
	s := testLake(t, tables)
	rep, err := Run(t.Context(), s, Options{Judges: []string{"j"}})
	if err != nil {
		t.Fatal(err)
	}
	r := findRow(t, rep, "j", "E2-lastk", "", "")
	for name, m := range map[string]Metric{"fpr": r.FPR, "kappa": r.Kappa, "inflation": r.Inflation} {
		if !math.IsNaN(m.Boot[0]) || !math.IsNaN(m.Boot[1]) {
			t.Errorf("%s boot = %v with one task, want null", name, m.Boot)
		}
	}
	if r.FPR.Value != 0.5 {
		t.Errorf("fpr = %v, want 0.5", r.FPR.Value)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "only 1 task") {
		t.Errorf("warnings %q do not explain the null intervals", rep.Warnings)
	}
}

// StrataFPROnly leaves the overall rows as a full run computes them and
// gives every stratum row the same FPR (value, Wilson and bootstrap
// interval: same draws, same counts), bootstrapping nothing else there.
func TestRunStrataFPROnly(t *testing.T) {
	s := testLake(t, handLake())
	opts := Options{Judges: []string{"j"}, By: []string{ByCategory, ByHardness, BySource, ByTask}, Resamples: 500}
	full, err := Run(t.Context(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.StrataFPROnly = true
	lean, err := Run(t.Context(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Rows) != len(lean.Rows) {
		t.Fatalf("%d rows, want %d", len(lean.Rows), len(full.Rows))
	}
	withBoot := 0
	for i, f := range full.Rows {
		l := lean.Rows[i]
		if dim, _ := f.StratumKey(); dim == "" {
			if d := cmp.Diff(f, l, cmpopts.EquateNaNs()); d != "" {
				t.Errorf("overall row %s@%s differs (-full +lean):\n%s", f.Judge, f.Condition, d)
			}
			continue
		}
		if d := cmp.Diff(f.FPR, l.FPR, cmpopts.EquateNaNs()); d != "" {
			t.Errorf("stratum %v FPR differs (-full +lean):\n%s", f.Stratum, d)
		}
		if !math.IsNaN(l.FPR.Boot[0]) {
			withBoot++
		}
		if !math.IsNaN(l.TPR.Boot[0]) || !math.IsNaN(l.Kappa.Boot[0]) {
			t.Errorf("stratum %v: TPR or κ bootstrapped: %v %v", f.Stratum, l.TPR.Boot, l.Kappa.Boot)
		}
		if countsOf(f) != countsOf(l) || f.TPR.Value != l.TPR.Value && !math.IsNaN(f.TPR.Value) {
			t.Errorf("stratum %v: counts or point estimates differ", f.Stratum)
		}
	}
	if withBoot == 0 {
		t.Error("no stratum row has an FPR bootstrap interval: the comparison proves nothing")
	}
}
