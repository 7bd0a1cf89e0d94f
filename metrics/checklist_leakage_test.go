package metrics

import (
	"strings"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// TestChecklistLeakageByContent: evidence_leakage looks for the agent's
// final message in the text of each non-claim pack behind the verdicts, not
// in the evidence table's list of pack fields (issue 24 item 3). ep1's pack
// was built from a trajectory still holding the final message (as before
// the fix, with the table saying no final_message); ep2's is clean.
func TestChecklistLeakageByContent(t *testing.T) {
	ctx := t.Context()
	dst, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	finals := map[string]string{"ep1": "Your reservation ABC123 is cancelled and refunded.", "ep2": "I changed the flight to May 12 as asked."}
	var eps, gts []rec
	var srcs []*judge.Source
	for _, id := range []string{"ep1", "ep2"} {
		eps = append(eps, rec{"episode_id": id, "task_id": "t-" + id, "source": "natural", "agent": "a", "final_message": finals[id]})
		gts = append(gts, rec{"episode_id": id, "pass": false, "verifier_sha256": strings.Repeat("ab", 32), "deterministic": true})
		role := func(r string) *string { return &r }
		said := finals[id]
		if id == "ep1" {
			said = "Done: " + said // the builder does not see it as the final message: it stays in the trajectory
		}
		src := &judge.Source{EpisodeID: id, TaskID: "t-" + id, TaskText: "Handle the customer's request.", FinalMessage: &said,
			Secrets: judge.Secrets{Source: schema.SourceNatural}}
		texts := []struct{ role, text string }{{"user", "hello"}, {"assistant", finals[id]}, {"assistant", said}, {"user", "###STOP###"}}
		if id == "ep2" {
			texts[1].text = "Looking it up."
		}
		for i, m := range texts {
			src.Actions = append(src.Actions, schema.Action{EpisodeID: id, Agent: "a", Step: int64(i), Role: role(m.role), Text: &m.text, Extra: "{}"})
		}
		srcs = append(srcs, src)
	}
	for table, recs := range map[string][]rec{lake.Episodes: eps, lake.GroundTruth: gts} {
		i := 0
		next := func() (map[string]any, bool, error) {
			if i == len(recs) {
				return nil, false, nil
			}
			i++
			return recs[i-1], true, nil
		}
		if _, err := ingest.Records(ctx, dst, table, "test-"+table, next, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := judge.WriteEvidence(ctx, dst, srcs, judge.EvidenceOptions{Conditions: []string{judge.E2LastK}}); err != nil {
		t.Fatal(err)
	}
	var rows []schema.Evidence
	if err := lake.ReadTable[schema.Evidence](dst, lake.Evidence, func(r []schema.Evidence) error { rows = append(rows, r...); return nil }); err != nil {
		t.Fatal(err)
	}
	tx, err := dst.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rows {
		if strings.Contains(e.Inputs, "final_message") {
			t.Fatalf("%s: the table lists final_message: %s", e.EpisodeID, e.Inputs)
		}
		for run := int64(1); run <= 3; run++ {
			v := schema.Verdict{EpisodeID: e.EpisodeID, Judge: "j", Condition: judge.E2LastK, Run: run, Verdict: ptrTo("success"),
				PackSHA256: ptrTo(e.PackSHA256), Extra: "{}"}
			if _, err := w.Add(&v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s := openSession(t, ctx, dst)
	opts := ChecklistOptions{Judge: queries.JudgeCondition{Judge: "j", Condition: judge.E2LastK}, Resamples: 50}
	item := func(packs PackReader) Item {
		opts.Packs = packs
		r, err := Checklist(ctx, s, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r.Items[len(r.Items)-1]
	}
	it := item(judge.NewStore(dst))
	if it.ID != "evidence_leakage" || it.Status != StatusFail || !strings.Contains(it.Figure, "1 of 2 non-claim packs showing the final message") {
		t.Errorf("leaking pack: %s %s: %s (%s)", it.ID, it.Status, it.Figure, it.Reason)
	}
	if it := item(nil); it.Status != StatusNotChecked {
		t.Errorf("without the pack store: %s, want not checked", it.Status)
	}
}

func ptrTo[T any](v T) *T { return &v }
