package metrics

import (
	"context"
	"math"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
)

// rec is one input record of a test lake.
type rec = map[string]any

// testLake writes the given records into a new lake, one ingest batch per
// non-empty table, and opens a session over it.
func testLake(t *testing.T, tables map[string][]rec) *queries.Session {
	t.Helper()
	ctx := t.Context()
	dst, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{lake.Episodes, lake.GroundTruth, lake.Labels, lake.Verdicts} {
		recs := tables[table]
		if len(recs) == 0 {
			continue
		}
		i := 0
		next := func() (map[string]any, bool, error) {
			if i == len(recs) {
				return nil, false, nil
			}
			i++
			return recs[i-1], true, nil
		}
		if _, err := ingest.Records(ctx, dst, table, "test-"+table, next, ingest.Options{}); err != nil {
			t.Fatalf("ingest %s: %v", table, err)
		}
	}
	return openSession(t, ctx, dst)
}

func openSession(t *testing.T, ctx context.Context, src *lake.Lake) *queries.Session {
	t.Helper()
	s, err := queries.Open(ctx, src, queries.Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// handLake is the small lake whose metrics are worked out by hand in
// run_test.go. Judge j, condition E2-lastk, three runs; S = success,
// F = failure, U = uncertain, P = parse_error.
//
//	ep  task  source     GT    category       runs   majority
//	e1  t1    natural    pass  -              S S S  success
//	e2  t1    natural    fail  F-UNCOMMITTED  S S F  success
//	e3  t2    natural    fail  F-ABORT        F F F  failure
//	e4  t2    natural    pass  -              F U P  uncertain (tie)
//	e5  t3    natural    fail  F-UNCOMMITTED  S P P  success
//	e6  t3    natural    pass  -              S S U  success
//	e7  t3    natural    fail  F-WRONGTARGET  U U F  uncertain
//	e8  t1    natural    none  -              S S S  (no ground truth)
//	e9  t2    perturbed  fail  F-UNCOMMITTED  S S S  success
//
// Judge rm (score-only) under E1-final scores e1..e3 (runs 1-3):
// e1 .9 .8 .7, e2 .6 .4 .3, e3 .2 parse_error .1.
func handLake() map[string][]rec {
	type ep struct {
		id, task, source string
		gt               *bool
		cat              string
		runs             string
	}
	yes, no := true, false
	eps := []ep{
		{"e1", "t1", "natural", &yes, "", "SSS"},
		{"e2", "t1", "natural", &no, "F-UNCOMMITTED", "SSF"},
		{"e3", "t2", "natural", &no, "F-ABORT", "FFF"},
		{"e4", "t2", "natural", &yes, "", "FUP"},
		{"e5", "t3", "natural", &no, "F-UNCOMMITTED", "SPP"},
		{"e6", "t3", "natural", &yes, "", "SSU"},
		{"e7", "t3", "natural", &no, "F-WRONGTARGET", "UUF"},
		{"e8", "t1", "natural", nil, "", "SSS"},
		{"e9", "t2", "perturbed", &no, "F-UNCOMMITTED", "SSS"},
	}
	words := map[byte]string{'S': "success", 'F': "failure", 'U': "uncertain", 'P': "parse_error"}
	out := map[string][]rec{}
	for _, e := range eps {
		out[lake.Episodes] = append(out[lake.Episodes], rec{"episode_id": e.id, "task_id": e.task, "source": e.source, "agent": "a1"})
		if e.gt != nil {
			g := rec{"episode_id": e.id, "pass": *e.gt, "verifier_sha256": "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1", "deterministic": true}
			if e.cat != "" {
				g["category"] = e.cat
			}
			out[lake.GroundTruth] = append(out[lake.GroundTruth], g)
		}
		for i := range 3 {
			out[lake.Verdicts] = append(out[lake.Verdicts], rec{"episode_id": e.id, "judge": "j", "condition": "E2-lastk",
				"run": i + 1, "verdict": words[e.runs[i]]})
		}
	}
	scores := map[string][]any{"e1": {.9, .8, .7}, "e2": {.6, .4, .3}, "e3": {.2, nil, .1}}
	for _, id := range []string{"e1", "e2", "e3"} {
		for i, sc := range scores[id] {
			v := rec{"episode_id": id, "judge": "rm", "condition": "E1-final", "run": i + 1, "score": sc}
			if sc == nil {
				v["verdict"] = "parse_error"
			}
			out[lake.Verdicts] = append(out[lake.Verdicts], v)
		}
	}
	return out
}

// near reports whether a and b agree to 1e-12 (or are both NaN).
func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12
}
