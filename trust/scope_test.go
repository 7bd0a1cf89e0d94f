package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// run is one recorded trial for the scope tests: no grader and no
// trajectory, as a public benchmark's per-run results.
type run struct {
	task  string
	score float64
	final string
	infra string
}

func publicResults(runs ...run) Input {
	var in Input
	trials := map[string]int64{}
	for _, r := range runs {
		trial := trials[r.task]
		trials[r.task]++
		res := schema.Result{ResultID: fmt.Sprintf("pub/m/%s/%d", r.task, trial), Benchmark: "pub", Agent: "m", TaskID: r.task,
			Trial: trial, RecordedScore: r.score, RecordedPass: r.score >= 1, Grader: "{}", Extra: "{}"}
		if r.final != "" {
			res.FinalMessage = ptr(r.final)
		}
		if r.infra != "" {
			res.Infra = ptr(r.infra)
		}
		in.Records = append(in.Records, Record{Result: res})
	}
	return in
}

// scopeRuns: D1 and D2 cannot check anything (no grader, no trajectory).
// Recorded passes: t0 ×2 (stable), t1 ×1 (varied), t2 ×2 (one without a
// final message), t4 ×1 (single trial) = 6; auditable on D3∧D4: t0 ×2,
// t1, t2 trial 1 = 4; trusted: t0 ×2 and t2 trial 1 = 3.
func scopeRuns() Input {
	return publicResults(
		run{"t0", 1, "Done.", ""}, run{"t0", 1, "Done.", ""},
		run{"t1", 1, "Done.", ""}, run{"t1", 0, "I could not finish.", ""},
		run{"t2", 1, "", ""}, run{"t2", 1, "All set.", ""},
		run{"t3", 0, "Sorry.", ""}, run{"t3", 0, "Sorry.", ""},
		run{"t4", 1, "Done.", ""},
	)
}

func TestScopeD3D4WhenD1D2NotCheckable(t *testing.T) {
	rep, rows := Audit(scopeRuns(), Options{})
	if diff := cmp.Diff([]string{"D3", "D4"}, rep.Dimensions); diff != "" {
		t.Fatalf("default dimensions (-want +got):\n%s", diff)
	}
	wantNotices := []string{
		"D1: nothing checkable: none of the 6 recorded passes can be checked (no re-gradable output: 6); left out of the conjunction",
		"D2: nothing checkable: none of the 6 recorded passes can be checked (no trajectory: 6); left out of the conjunction",
	}
	if diff := cmp.Diff(wantNotices, rep.Notices); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
	tot := rep.Total
	if tot.RecordedPasses != 6 || tot.Scope.Auditable != 4 || tot.Trusted != 3 {
		t.Fatalf("passes %d auditable %d trusted %d, want 6 4 3", tot.RecordedPasses, tot.Scope.Auditable, tot.Trusted)
	}
	lo, hi := stats.Wilson(3, 4, 0.05)
	if got := tot.TrustedRate; float64(got.Value) != 0.75 || float64(got.Wilson[0]) != lo || float64(got.Wilson[1]) != hi {
		t.Errorf("trusted rate %+v, want 0.75 [%v, %v]", got, lo, hi)
	}
	if want := "auditable on D3,D4: 4 of 6 recorded passes; not checkable: D3 no final message (1), D4 too few repeats (1)"; tot.Scope.Line != want {
		t.Errorf("scope line\n got %q\nwant %q", tot.Scope.Line, want)
	}
	if diff := cmp.Diff(Dims{D4: 1}, tot.Removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if want := (CheckCounts{NotCheckable: 6}); tot.Checks.D1 != want {
		t.Errorf("D1 checks %+v, want %+v", tot.Checks.D1, want)
	}
	if want := (CheckCounts{Passed: 4, Failed: 1, NotCheckable: 1}); tot.Checks.D4 != want {
		t.Errorf("D4 checks %+v, want %+v", tot.Checks.D4, want)
	}
	byID := map[string]schema.Trust{}
	for _, r := range rows {
		byID[r.ResultID] = r
	}
	r := byID["pub/m/t2/0"]
	if r.D3Check != schema.CheckNotCheckable || r.D3CheckReason == nil || *r.D3CheckReason != ReasonNoMessage || r.Auditable || r.Trusted {
		t.Errorf("t2/0: D3 %s %v auditable %v trusted %v", r.D3Check, r.D3CheckReason, r.Auditable, r.Trusted)
	}
	r = byID["pub/m/t0/1"]
	if r.D1Check != schema.CheckNotCheckable || *r.D1CheckReason != ReasonNoRegrade || r.D2Check != schema.CheckNotCheckable ||
		r.D3Check != schema.CheckPassed || r.D4Check != schema.CheckPassed || !r.Auditable || !r.Trusted || r.Dimensions != "D3,D4" {
		t.Errorf("t0/1: %+v", r)
	}
	if r := byID["pub/m/t1/0"]; r.D4Check != schema.CheckFailed || !r.Auditable || r.Trusted {
		t.Errorf("t1/0: D4 %s auditable %v trusted %v", r.D4Check, r.Auditable, r.Trusted)
	}

	var md bytes.Buffer
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range append(wantNotices, "dimensions D3,D4 (default: all that apply)", "infra policy exclude",
		"Scope: auditable on D3,D4: 4 of 6 recorded passes", "| pub | m | 9 | 6 | 4 | – | – | 0 | 1 | 3 | 75.0% [") {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if n := strings.Count(md.String(), "Scope: "); n < 4 {
		t.Errorf("markdown states the scope %d times, want one per trusted-pass table (4)", n)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"dimensions":["D3","D4"]`, `"dimensions_default":true`, `"infra_policy":"exclude"`,
		`"line":"auditable on D3,D4: 4 of 6 recorded passes`, `"not_checkable":[{"dimension":"D3","reason":"no final message","n":1}`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}

func TestScopeChosenDimensions(t *testing.T) {
	rep, rows := Audit(scopeRuns(), Options{Dimensions: []string{"D1", "D2", "D3", "D4"}})
	if rep.DimensionsDefault || rep.Total.Scope.Auditable != 0 || rep.Total.Trusted != 0 || !math.IsNaN(float64(rep.Total.TrustedRate.Value)) {
		t.Errorf("all four chosen: default %v auditable %d trusted %d rate %v", rep.DimensionsDefault, rep.Total.Scope.Auditable, rep.Total.Trusted, rep.Total.TrustedRate.Value)
	}
	if len(rep.Notices) != 2 || !strings.HasSuffix(rep.Notices[0], "chosen with --dimensions, so no recorded pass is auditable") {
		t.Errorf("notices %q", rep.Notices)
	}
	for _, r := range rows {
		if r.Trusted || r.Auditable || r.Dimensions != "D1,D2,D3,D4" {
			t.Errorf("%s: trusted %v auditable %v dimensions %s", r.ResultID, r.Trusted, r.Auditable, r.Dimensions)
		}
	}
	rep, _ = Audit(scopeRuns(), Options{Dimensions: []string{"D4"}})
	if tot := rep.Total; tot.Scope.Auditable != 5 || tot.Trusted != 4 || tot.Scope.Line != "auditable on D4: 5 of 6 recorded passes; not checkable: D4 too few repeats (1)" {
		t.Errorf("D4 alone: auditable %d trusted %d %q", tot.Scope.Auditable, tot.Trusted, tot.Scope.Line)
	}
}

func TestParseDimensions(t *testing.T) {
	got, err := ParseDimensions("d4, D3,D4")
	if err != nil || !cmp.Equal(got, []string{"D3", "D4"}) {
		t.Errorf("ParseDimensions = %v, %v", got, err)
	}
	if got, err := ParseDimensions(""); got != nil || err != nil {
		t.Errorf("empty = %v, %v; want nil (all that apply)", got, err)
	}
	if _, err := ParseDimensions("D3,D5"); err == nil || !strings.Contains(err.Error(), `"D5"`) {
		t.Errorf("D5: %v", err)
	}
}

// TestInfraPolicy: u0 has a pass marked infra_error and two passes; u1 a
// fail, an infrastructure failure and a pass.
func TestInfraPolicy(t *testing.T) {
	in := func() Input {
		return publicResults(
			run{"u0", 1, "Done.", "sandbox died"}, run{"u0", 1, "Done.", ""}, run{"u0", 1, "Done.", ""},
			run{"u1", 0, "No.", ""}, run{"u1", 0, "", "rate limited"}, run{"u1", 1, "Done.", ""},
		)
	}
	near := func(got []Num, want ...float64) bool {
		if len(got) != len(want) {
			return false
		}
		for i := range want {
			if math.Abs(float64(got[i])-want[i]) > 1e-12 {
				return false
			}
		}
		return true
	}
	rep, rows := Audit(in(), Options{})
	tot := rep.Total
	if rep.InfraPolicy != InfraExclude || tot.RecordedPasses != 3 || tot.InfraMarkedPasses != 1 || tot.D4.InfraExcluded != 2 {
		t.Errorf("exclude: policy %s passes %d marked %d infra %d", rep.InfraPolicy, tot.RecordedPasses, tot.InfraMarkedPasses, tot.D4.InfraExcluded)
	}
	if want := "1 recorded passes are marked infra_error: not counted as passes; left out of every count (--infra-policy exclude)"; !cmp.Equal(rep.Warnings, []string{want}) {
		t.Errorf("warnings %q", rep.Warnings)
	}
	// Valid runs: u0 2 of 2 passes, u1 1 of 2: K = 2 on both tasks.
	if d := tot.D4; d.PassK != 2 || d.PassKTasks != 2 || d.PassKLeftOut != 0 || !near(d.PassHatK, 0.75, 0.5) {
		t.Errorf("exclude pass^k: K %d tasks %d left out %d %v", d.PassK, d.PassKTasks, d.PassKLeftOut, d.PassHatK)
	}
	if r := rows[0]; r.Trusted || r.Auditable || r.D1Check != schema.CheckNotCheckable || *r.D4CheckReason != ReasonInfra || r.InfraPolicy != InfraExclude {
		t.Errorf("marked pass row: %+v", r)
	}
	if r := rows[1]; r.D4Status != schema.D4Stable || r.D4InfraExcluded != 1 || r.D4Repeats != 1 {
		t.Errorf("u0/1 under exclude: %s repeats %d infra %d", r.D4Status, r.D4Repeats, r.D4InfraExcluded)
	}

	rep, rows = Audit(in(), Options{InfraPolicy: InfraFailure})
	tot = rep.Total
	if tot.RecordedPasses != 3 || !strings.Contains(rep.Warnings[0], "counted as failed runs (score 0) (--infra-policy failure)") {
		t.Errorf("failure: passes %d warnings %q", tot.RecordedPasses, rep.Warnings)
	}
	// Every run counts, infrastructure failures as fails: u0 2 of 3, u1 1 of 3.
	if d := tot.D4; d.PassK != 3 || d.PassKTasks != 2 || !near(d.PassHatK, 0.5, 1.0/6, 0) {
		t.Errorf("failure pass^k: K %d tasks %d %v", d.PassK, d.PassKTasks, d.PassHatK)
	}
	if r := rows[1]; r.D4Status != schema.D4Varied || r.D4Repeats != 2 {
		t.Errorf("u0/1 under failure: %s repeats %d (the infrastructure failure is a fail-tier repeat)", r.D4Status, r.D4Repeats)
	}
}

// TestPassKFixedTaskSet: every k is computed on the same tasks.
func TestPassKFixedTaskSet(t *testing.T) {
	var runs []run
	for task, scores := range [][]float64{{1, 1, 1, 1}, {1, 0, 1, 0}, {0, 0, 0, 0}, {1, 1}} {
		for _, s := range scores {
			runs = append(runs, run{fmt.Sprint("k", task), s, "ok", ""})
		}
	}
	rep, _ := Audit(publicResults(runs...), Options{})
	d := rep.Total.D4
	if d.PassK != 4 || d.PassKTasks != 3 || d.PassKLeftOut != 1 {
		t.Fatalf("K %d tasks %d left out %d, want 4 3 1", d.PassK, d.PassKTasks, d.PassKLeftOut)
	}
	// pass^1 over the three 4-run tasks: (1 + 0.5 + 0)/3, not including the 2-run task.
	if got := float64(d.PassHatK[0]); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("pass^1 = %v, want 0.5 on the fixed set", got)
	}
	rep, _ = Audit(publicResults(runs...), Options{PassK: 2})
	if d := rep.Total.D4; d.PassK != 2 || d.PassKTasks != 4 || math.Abs(float64(d.PassHatK[1])-(1+1.0/6+0+1)/4) > 1e-12 {
		t.Errorf("PassK 2: K %d tasks %d %v", d.PassK, d.PassKTasks, d.PassHatK)
	}
}
