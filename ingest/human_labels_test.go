package ingest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// emptyLake returns a fresh lake.
func emptyLake(t *testing.T) *lake.Lake {
	t.Helper()
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHumanLabels(t *testing.T) {
	l := emptyLake(t)
	f := writeFile(t, "h.csv", "\ufeffepisode_id,pass,annotator,note\n"+
		"ep1,Successful,A,looks right\n"+
		"ep1,fail,B,\n"+
		"ep2,FALSE, C ,\n"+
		"ep2,Unsure,A,\n")
	st, err := HumanLabels(t.Context(), l, []string{f}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Tables[lake.GroundTruth].Added; got != 3 {
		t.Errorf("added %d ground-truth rows, want 3", got)
	}
	wantWarn := []string{
		"1 unsure judgment(s) skipped: not ground truth",
		"ground_truth: 3 row(s) name 2 episode(s) absent from the lake (e.g. ep1, ep2)",
	}
	if diff := cmp.Diff(wantWarn, st.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if st.MissingEpisodes[lake.GroundTruth] != 3 {
		t.Errorf("missing episodes %v", st.MissingEpisodes)
	}
	rows := tableRows[schema.GroundTruth](t, l, lake.GroundTruth)
	type gt struct {
		ep, ann string
		pass    bool
		diag    string
	}
	var got []gt
	for _, r := range rows {
		if r.Source != schema.GTHuman || r.VerifierSHA256 != "" {
			t.Errorf("row %+v: want source human and no verifier hash", r)
		}
		got = append(got, gt{r.EpisodeID, *r.Annotator, r.Pass, r.Diagnostics})
	}
	want := []gt{{"ep1", "A", true, `{"note":"looks right"}`}, {"ep1", "B", false, "null"}, {"ep2", "C", false, "null"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(gt{})); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// Re-ingesting is a no-op; the JSON summary always has "warnings".
	st, err = HumanLabels(t.Context(), l, []string{f}, Options{})
	if err != nil || st.Tables[lake.GroundTruth].Unchanged != 3 {
		t.Fatalf("re-ingest: %+v, %v", st.Tables, err)
	}
	b, _ := json.Marshal(Stats{})
	if !strings.Contains(string(b), `"warnings":`) {
		t.Errorf("Stats JSON %s lacks the warnings key", b)
	}
}

// TestHumanLabelsBad: every error of a line is reported, nothing committed.
func TestHumanLabelsBad(t *testing.T) {
	l := emptyLake(t)
	f := writeFile(t, "h.csv", "episode_id,pass,annotator\n"+
		",maybe,\n"+
		"ep1,pass,A\n"+
		"ep1,fail,A\n")
	_, err := HumanLabels(t.Context(), l, []string{f}, Options{})
	var rej *Rejected
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want Rejected", err)
	}
	var msgs []string
	for _, e := range rej.Errors {
		msgs = append(msgs, strings.TrimPrefix(e.Error(), filepath.Dir(f)+"/"))
	}
	want := []string{
		`h.csv:2: pass: invalid value: "maybe" is not pass or fail (or true/false, 1/0, yes/no, success/failure, successful/unsuccessful; unsure is skipped)`,
		"h.csv:2: episode_id: missing",
		"h.csv:2: annotator: missing: human ground truth names its annotator",
		"h.csv:4: episode_id,verifier_sha256,annotator: duplicate key: ",
	}
	if len(msgs) != len(want) {
		t.Fatalf("messages:\n%s", strings.Join(msgs, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(msgs[i], want[i]) {
			t.Errorf("message %d = %q, want prefix %q", i, msgs[i], want[i])
		}
	}
	if rows := tableRows[schema.GroundTruth](t, l, lake.GroundTruth); len(rows) != 0 {
		t.Errorf("%d rows committed from a rejected batch", len(rows))
	}
	bad := writeFile(t, "h2.csv", "episode_id,category,annotator\n")
	_, err = HumanLabels(t.Context(), l, []string{bad}, Options{})
	if err == nil || !strings.Contains(err.(*Rejected).Errors[0].Error(), "header: invalid value: want episode_id,pass,annotator[,note], got episode_id,category,annotator") {
		t.Errorf("bad header: %v", err)
	}
	// A header cell holding a comma is not two columns (it once passed the
	// check joined with commas, then failed on the first row).
	comma := writeFile(t, "h3.csv", "\"episode_id,pass\",annotator\nep1,A\n")
	_, err = HumanLabels(t.Context(), l, []string{comma}, Options{})
	if err == nil || !strings.Contains(err.(*Rejected).Errors[0].Error(), "h3.csv:1: header: invalid value: want episode_id,pass,annotator[,note]") {
		t.Errorf("header with a comma in a cell: %v", err)
	}
}

// TestWarningsAbsentEpisodes: verdicts, labels and results naming episodes
// absent from the lake are counted; a result's episode may be a
// trajectory (actions) alone.
func TestWarningsAbsentEpisodes(t *testing.T) {
	l := emptyLake(t)
	v := writeFile(t, "v.jsonl", `{"episode_id":"e1","judge":"j","condition":"E1-final","run":1,"verdict":"success"}`+"\n"+
		`{"episode_id":"e1","judge":"j","condition":"E1-final","run":2,"verdict":"success"}`+"\n")
	st, err := Verdicts(t.Context(), l, []string{v}, Options{})
	if err != nil || st.MissingEpisodes[lake.Verdicts] != 2 || len(st.Warnings) != 1 {
		t.Fatalf("verdicts: %+v %v", st, err)
	}
	lab := writeFile(t, "l.csv", "episode_id,category\ne1,F-ABORT\n")
	st, err = Labels(t.Context(), l, []string{lab}, Options{})
	if err != nil || st.MissingEpisodes[lake.Labels] != 1 {
		t.Fatalf("labels: %+v %v", st, err)
	}
	r := writeFile(t, "r.jsonl", `{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":1,"episode_id":"gone"}`+"\n"+
		`{"benchmark":"b","task_id":"t","agent":"a","trial":1,"score":1}`+"\n")
	st, err = Results(t.Context(), l, []string{r}, Options{})
	if err != nil || st.MissingEpisodes[lake.Results] != 1 || !strings.Contains(st.Warnings[0], "results: 1 row(s) name 1 episode(s) absent from the lake (e.g. gone)") {
		t.Fatalf("results: %+v %v", st, err)
	}
	// τ-bench results point at their trajectory: no warning.
	tau := writeTau(t, t.TempDir(), "tau.json", tauRec(0, 0, "1.0", "cancel", goodTraj))
	st, err = TauBench(t.Context(), l, []string{tau}, TauBenchOptions{}, Options{})
	if err != nil || len(st.Warnings) != 0 {
		t.Fatalf("tau-bench: warnings %q, %v", st.Warnings, err)
	}
}

func TestResultsEmptyInfraError(t *testing.T) {
	l := emptyLake(t)
	r := writeFile(t, "r.jsonl", `{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":1,"infra_error":"  "}`+"\n")
	_, err := Results(t.Context(), l, []string{r}, Options{})
	if err == nil || !strings.HasSuffix(err.(*Rejected).Errors[0].Error(), "r.jsonl:1: infra_error: invalid value: empty: give the failure's reason, or leave the key out (or null) for a valid run") {
		t.Errorf("err = %v", err)
	}
}

// TestCSVCaps: every CSV input (labels and human labels) stops at a record
// longer than MaxLineBytes and refuses a note over maxNoteBytes; a 100 MB
// human-labels CSV used to be read whole and stored.
func TestCSVCaps(t *testing.T) {
	huge := strings.Repeat("x", 2<<20)
	long := strings.Repeat("y", maxNoteBytes+1)
	opts := Options{MaxLineBytes: 1 << 20} // a small cap keeps the test quick
	for _, tc := range []struct {
		name, header, row string
		fn                func(*lake.Lake, []string) error
		want              string
	}{
		{"human record", "episode_id,pass,annotator,note", "ep1,pass,A,\"" + huge + "\"", func(l *lake.Lake, f []string) error {
			_, err := HumanLabels(t.Context(), l, f, opts)
			return err
		}, "c.csv:2: csv: line too long: a record longer than 1048576 bytes; the rest of the file is not read"},
		{"labels record", "episode_id,category,annotator,note", "ep1,F-ABORT,A,\"" + huge + "\"", func(l *lake.Lake, f []string) error {
			_, err := Labels(t.Context(), l, f, opts)
			return err
		}, "c.csv:2: csv: line too long: a record longer than 1048576 bytes; the rest of the file is not read"},
		{"human note", "episode_id,pass,annotator,note", "ep1,pass,A," + long, func(l *lake.Lake, f []string) error {
			_, err := HumanLabels(t.Context(), l, f, opts)
			return err
		}, "c.csv:2: note: invalid value: 65537 bytes of text; a note may hold at most 65536 (64 KiB)"},
		{"labels note", "episode_id,category,annotator,note", "ep1,F-ABORT,A," + long, func(l *lake.Lake, f []string) error {
			_, err := Labels(t.Context(), l, f, opts)
			return err
		}, "c.csv:2: note: invalid value: 65537 bytes of text; a note may hold at most 65536 (64 KiB)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := emptyLake(t)
			f := writeFile(t, "c.csv", tc.header+"\n"+tc.row+"\nep2,pass,B,\n")
			t.Chdir(filepath.Dir(f))
			err := tc.fn(l, []string{"c.csv"})
			var rej *Rejected
			if !errors.As(err, &rej) {
				t.Fatalf("err = %v, want *Rejected", err)
			}
			if got := rej.Errors[0].Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if m, _ := l.Manifest(); len(m.Files) != 0 {
				t.Errorf("%d files committed, want none", len(m.Files))
			}
		})
	}
}
