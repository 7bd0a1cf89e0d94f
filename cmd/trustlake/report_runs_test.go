package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// The report computes the judge × conditions, metrics cells, claim-sway
// pairs, needs-review counts and reward-model scores (averaged in run
// order) in Go from the run counts and runs read once (queries.ReportRuns,
// ReportScores): every threshold, reference, key choice and source must
// give exactly what the session's statements give, the same bits of every
// mean, on lakes whose run counts hold one row per
// episode or not, with verdicts of episodes the lake does not know, human
// judgments (a tie, an episode known only to them), category labels (one
// that needs review), episodes with two verifiers' ground truth and
// score-only runs; and with run counts written before their scores had
// run numbers.
func TestReportRunsAsSession(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprint("split=", split), func(t *testing.T) {
			lakeDir := genLake(t, split)
			l, err := lake.OpenExisting(lakeDir, lake.Options{})
			if err != nil {
				t.Fatal(err)
			}
			eps := naturalEpisodes(t, l, 3)
			dir := t.TempDir()
			var lines []byte
			add := func(ep, judge, cond string, run int, verdict, score string) {
				lines = fmt.Appendf(lines, `{"episode_id":%q,"judge":%q,"condition":%q,"run":%d,"verdict":%s,"score":%s}`+"\n",
					ep, judge, cond, run, verdict, score)
			}
			for _, cond := range []string{"E2+claim", "E2-lastk"} {
				add("ghost-1", "odd:x", cond, 1, `"success"`, "null")
				add("ghost-1", "odd:x", cond, 2, `"failure"`, "null")
				add("human-only", "odd:x", cond, 1, `"failure"`, "null")
				add(eps[0], "odd:x", cond, 1, `"success"`, "null")
				add(eps[0], "odd:x", cond, 2, `"success"`, "null")
				add(eps[1], "odd:x", cond, 1, "null", "0.5")
				add(eps[1], "odd:x", cond, 2, `"parse_error"`, "null")
				add(eps[2], "odd:x", cond, 1, `"uncertain"`, "null")
				add(eps[2], "odd:x", cond, 2, "null", "0.2")
				add(eps[2], "odd:x", cond, 3, "null", "0.9")
			}
			// rm:odd: runs met backwards, a parse error between scores, an
			// episode with more score-only runs than a run-count row holds,
			// one whose only run is a parse error; vlm:scored: verdicts that
			// carry a score.
			add(eps[0], "rm:odd", "E1-final", 3, "null", "0.3")
			add(eps[0], "rm:odd", "E1-final", 2, `"parse_error"`, "null")
			add(eps[0], "rm:odd", "E1-final", 1, "null", "0.1")
			for _, run := range []int{2, 1, 5, 4, 3} {
				add(eps[1], "rm:odd", "E1-final", run, "null", fmt.Sprint(float64(run)/7))
			}
			add(eps[2], "rm:odd", "E1-final", 1, `"parse_error"`, "null")
			add(eps[0], "vlm:scored", "E1-final", 1, `"success"`, "0.9")
			add(eps[0], "vlm:scored", "E1-final", 2, `"failure"`, "null")
			p := filepath.Join(dir, "odd.jsonl")
			labels := filepath.Join(dir, "human.csv")
			csv := fmt.Sprintf("episode_id,pass,annotator\n%s,true,ann-a\n%s,false,ann-b\n%s,true,ann-a\n%s,true,ann-b\n%s,false,ann-a\nhuman-only,true,ann-a\nhuman-gt,true,ann-a\n",
				eps[0], eps[0], eps[1], eps[1], eps[2])
			if err := os.WriteFile(p, lines, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(labels, []byte(csv), 0o644); err != nil {
				t.Fatal(err)
			}
			// Category labels: one known code, one that needs review.
			cats := filepath.Join(dir, "labels.csv")
			if err := os.WriteFile(cats, []byte(fmt.Sprintf("episode_id,category,annotator,note\n%s,F-UNCOMMITTED,ann,\nhuman-only,looked odd,ann,\nlabel-only,looked odd,ann,\n", eps[0])), 0o644); err != nil {
				t.Fatal(err)
			}
			// A second verifier's ground truth: one that sorts first (it
			// wins: the pass flips), one that sorts last, and an episode
			// known only to two verifiers.
			hex := func(c string) string { return strings.Repeat(c, 64) }
			// One of them once nondeterministic (the health's count).
			gts := fmt.Sprintf("SELECT * FROM (VALUES ('%s', '%s', false, 'F-PARTIAL', true), ('%s', '%s', true, NULL, true), "+
				"('gt-only', '%s', false, NULL, false), ('gt-only', '%s', true, NULL, NULL)) AS t(episode_id, verifier_sha256, pass, category, deterministic)",
				eps[0], hex("0"), eps[1], hex("f"), hex("b"), hex("a"))
			for _, args := range [][]string{{"ingest", "verdicts", p}, {"ingest", "human-labels", labels}, {"ingest", "labels", cats},
				{"ingest", "sql", "ground_truth", gts},
				// Episodes without ground truth: one with none, one with a
				// human judgment only.
				{"ingest", "sql", "episodes", "SELECT * FROM (VALUES ('no-gt', 't-x', 'natural', 'a', 'eps/no-gt'), ('human-gt', 't-x', 'natural', 'a', 'eps/human-gt')) " +
					"AS t(episode_id, task_id, source, agent, dir)"}} {
				if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir}, args...)...); code != 0 {
					t.Fatalf("%v: exit %d\n%s", args, code, stderr)
				}
			}
			// The lake as written, and with its run_counts files as
			// written before their scores had run numbers (the scores are
			// then read from the verdicts).
			for _, old := range []bool{false, true} {
				if old {
					if l, err = lake.OpenExisting(lakecopy.WithRunCountsBeforeRunNumbers(t, lakeDir), lake.Options{}); err != nil {
						t.Fatal(err)
					}
				}
				compareReportRuns(t, l, old, queries.Options{})
			}
		})
	}
}

// compareReportRuns compares every result of ReportRuns and ReportScores
// on l with the statements of a session opened with opts. The scores of rm:odd come from the
// run counts unless old (their run counts written before run numbers);
// those of vlm:scored (a verdict with a score) never do.
func compareReportRuns(t *testing.T, l *lake.Lake, old bool, opts queries.Options) {
	t.Helper()
	s, err := queries.Open(t.Context(), l, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.ReadReportRuns(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.HasScoreRuns(queries.JudgeCondition{Judge: "rm:odd", Condition: "E1-final"}); got == old {
		t.Errorf("old run counts %v: rm:odd has its scores' run numbers: %v", old, got)
	}
	if r.HasScoreRuns(queries.JudgeCondition{Judge: "vlm:scored", Condition: "E1-final"}) {
		t.Error("vlm:scored (a verdict with a score): scores from the run counts")
	}
	same := func(what string, got any, want any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
			t.Errorf("%s: from the runs (go) and the session (sql) differ:\n%s", what, firstDiff(got, want))
		}
	}
	if human, _, err := s.HumanAgreement(t.Context()); err != nil || r.HasHumanReference() != (len(human) > 0) {
		t.Errorf("HasHumanReference %v, human agreement rows %d (%v)", r.HasHumanReference(), len(human), err)
	}
	review, err := s.ReportNeedsReview(t.Context())
	same("needs review", r.NeedsReview(), review, err)
	health, err := s.ReportHealth(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ReportHealthOf(t.Context(), r)
	same("health", got, health, err)
	if health.Nondeterministic == 0 || health.Verifiers < 3 {
		t.Errorf("health %+v: the test compares no nondeterministic verifier, or fewer than three", health)
	}
	if health.WithoutGT == 0 || health.WithoutGT == health.Episodes {
		t.Errorf("health %+v: the test compares no episode without ground truth, or only such", health)
	}
	if len(review) == 0 {
		t.Error("no category needs review: the test compares nothing")
	}
	var judges []string
	pairs := 0
	for _, thr := range []*float64{nil, ptr(0), ptr(0.5), ptr(1)} {
		want, err := s.MetricsJudgeConditions(t.Context(), thr)
		same("judge conditions "+fmtThreshold(thr), r.JudgeConditions(thr), want, err)
		if thr == nil {
			for _, jc := range want {
				if jc.Condition == "E2+claim" {
					judges = append(judges, jc.Judge)
				}
			}
		}
		for _, gt := range []string{queries.GTVerifier, queries.GTHuman, queries.GTAny} {
			for _, by := range [][2]bool{{false, false}, {false, true}, {true, true}} {
				o := queries.MetricCellOptions{ByAgent: by[0], ByCategory: by[1], Threshold: thr, GT: gt}
				want, err := s.MetricsCells(t.Context(), o)
				got := r.Cells(o)
				// The same cells in the same order of their keys; cells
				// whose keys print alike (an unknown episode's and one
				// known only to a label) are in no set order.
				same(fmt.Sprintf("cell keys %+v", o), cellKeys(got), cellKeys(want), err)
				same(fmt.Sprintf("cells %+v", o), sortedRows(got), sortedRows(want), nil)
			}
			for _, judge := range judges {
				a := queries.JudgeCondition{Judge: judge, Condition: "E2+claim"}
				b := queries.JudgeCondition{Judge: judge, Condition: "E2-lastk"}
				for _, source := range []string{"natural", "perturbed"} {
					want, err := s.MetricsPairs(t.Context(), a, b, source, thr, gt)
					pairs += len(want)
					same(fmt.Sprintf("pairs %s %s %s %s", judge, source, fmtThreshold(thr), gt), r.Pairs(a, b, source, thr, gt), want, err)
				}
			}
		}
	}
	// The reward models' scores (every judge × condition, so that
	// those without score-only runs are compared too).
	var all []queries.JudgeCondition
	for _, jc := range r.JudgeConditions(nil) {
		all = append(all, jc.JudgeCondition)
	}
	scored := 0
	for _, source := range []string{"natural", "perturbed", "none"} {
		got, err := s.ReportScores(t.Context(), r, all, source)
		if err != nil {
			t.Fatal(err)
		}
		for i, jc := range all {
			want, err := s.MetricsScores(t.Context(), jc, source)
			scored += len(want)
			same(fmt.Sprintf("scores %s %s", jc, source), got[i], want, err)
		}
	}
	if len(judges) < 2 || pairs == 0 || scored == 0 {
		t.Fatalf("judges with claim sway %v, %d pair rows, %d scores: the test compares too little", judges, pairs, scored)
	}
}

// firstDiff shows the first differing element of two slices (or the two
// values when they are not slices of the same length).
func firstDiff(got, want any) string {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	if g.Kind() == reflect.Slice && w.Kind() == reflect.Slice {
		for i := range min(g.Len(), w.Len()) {
			if a, b := fmt.Sprintf("%+v", g.Index(i)), fmt.Sprintf("%+v", w.Index(i)); a != b {
				return fmt.Sprintf("row %d of %d/%d:\n go  %s\nsql  %s", i, g.Len(), w.Len(), a, b)
			}
		}
		return fmt.Sprintf("%d rows (go), %d (sql)", g.Len(), w.Len())
	}
	return fmt.Sprintf(" go  %+v\nsql  %+v", got, want)
}

func cellKeys(cells []queries.MetricCell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = fmt.Sprintf("%s|%s|%v %s|%s|%v %v|%s|%s", c.Judge, c.Condition, c.HasTask, c.TaskID, c.Source, c.HasGT, c.GTPass, c.Agent, c.Category)
	}
	return out
}

func sortedRows[T any](rows []T) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%+v", r)
	}
	slices.Sort(out)
	return out
}

// naturalEpisodes returns n natural episodes with ground truth.
func naturalEpisodes(t *testing.T, l *lake.Lake, n int) []string {
	t.Helper()
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Query(t.Context(), "SELECT c.episode_id FROM categories c JOIN episodes e USING (episode_id) "+
		"WHERE c.gt_pass IS NOT NULL AND e.source = 'natural' ORDER BY 1 LIMIT ?", n)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	if len(out) < n {
		t.Fatalf("%d natural episodes with ground truth, want %d", len(out), n)
	}
	return out
}
