package ingest

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// rewriteEval copies the entries of an .eval fixture into a new .eval
// (deflate), passing each through edit: it returns the new content, or
// keep=false to drop the entry.
func rewriteEval(t *testing.T, src, dst string, edit func(name string, data []byte) (out []byte, keep bool)) {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	eachEvalEntry(t, src, func(name string, data []byte) {
		out, keep := edit(name, data)
		if !keep {
			return
		}
		ew, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		ew.Write(out)
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var zstdFixture = filepath.Join("testdata", "inspect", "arith-zstd.eval")

func newLake(t *testing.T) *lake.Lake {
	t.Helper()
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestInspectUnfinishedThenFinished reads a run from its journal while it
// is unfinished (header.json and later samples absent), then the finished
// log: the rest is added, the samples already read are unchanged.
func TestInspectUnfinishedThenFinished(t *testing.T) {
	dir := t.TempDir()
	partial := filepath.Join(dir, "partial.eval")
	kept := 0
	rewriteEval(t, zstdFixture, partial, func(name string, data []byte) ([]byte, bool) {
		if name == "header.json" || name == "summaries.json" || name == "reductions.json" {
			return nil, false
		}
		if strings.HasPrefix(name, "samples/") {
			if kept == 5 {
				return nil, false
			}
			kept++
		}
		return data, true
	})
	l := newLake(t)
	st, err := Inspect(t.Context(), l, []string{partial}, InspectOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Tables[lake.Episodes].Added; got != 5 {
		t.Errorf("unfinished: %d episodes, want 5", got)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "unfinished log") {
		t.Errorf("warnings = %q, want the unfinished-log warning", st.Warnings)
	}
	st, err = Inspect(t.Context(), l, []string{zstdFixture}, InspectOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string][2]int64{lake.Episodes: {13, 5}, lake.Results: {39, 15}} {
		if got := st.Tables[table]; got.Added != want[0] || got.Unchanged != want[1] {
			t.Errorf("finished %s: %d new, %d unchanged; want %d, %d", table, got.Added, got.Unchanged, want[0], want[1])
		}
	}
}

// TestInspectBad checks that bad logs are rejected with file:entry:
// field: reason and that nothing is committed.
func TestInspectBad(t *testing.T) {
	sample := "samples/q2_epoch_1.json"
	replace := func(old, new string) func(string, []byte) ([]byte, bool) {
		return func(name string, data []byte) ([]byte, bool) {
			if name == sample {
				data = bytes.Replace(data, []byte(old), []byte(new), 1)
			}
			return data, true
		}
	}
	cases := []struct {
		name string
		edit func(string, []byte) ([]byte, bool)
		opts InspectOptions
		want string
	}{
		{"messages not a list", replace(`"messages":[`, `"messages":"x","was":[`), InspectOptions{},
			"bad.eval:samples/q2_epoch_1.json: messages: wrong type: got JSON string, want array"},
		{"epoch zero", replace(`"epoch":1`, `"epoch":0`), InspectOptions{},
			"bad.eval:samples/q2_epoch_1.json: epoch: invalid value: 0 is not an epoch (1, 2, ...)"},
		{"dangling attachment", replace(`"content":"What is 10 + 7?"`, `"content":"attachment://deadbeef"`), InspectOptions{},
			"bad.eval:samples/q2_epoch_1.json: messages[0].content: missing: attachment://deadbeef is not in the sample's attachments"},
		{"truncated sample", func(name string, data []byte) ([]byte, bool) {
			if name == sample {
				data = data[:len(data)/2]
			}
			return data, true
		}, InspectOptions{}, "bad.eval:samples/q2_epoch_1.json: malformed: unexpected end of JSON input"},
		{"no header", func(name string, data []byte) ([]byte, bool) {
			return data, !strings.HasPrefix(name, "_journal/") && name != "header.json"
		}, InspectOptions{}, "bad.eval: header.json: missing: neither header.json nor _journal/start.json: not an Inspect AI log"},
		{"no model", func(name string, data []byte) ([]byte, bool) {
			if name == "header.json" || name == "_journal/start.json" {
				data = bytes.Replace(data, []byte(`"model":"mockllm/model"`), []byte(`"model":""`), 1)
			}
			return data, true
		}, InspectOptions{}, "bad.eval:samples/q1_epoch_1.json: agent.name: missing"},
		{"score banana", replace(`"includes":{"value":"C"`, `"includes":{"value":"banana"`), InspectOptions{},
			`bad.eval:samples/q2_epoch_1.json: scores.includes.value: invalid value: "banana" is not a score (want C, P, I, N, yes, no, true, false or a finite number)`},
		{"score NaN string", replace(`"includes":{"value":"C"`, `"includes":{"value":"NaN"`), InspectOptions{},
			`bad.eval:samples/q2_epoch_1.json: scores.includes.value: invalid value: "NaN" is not a score (want C, P, I, N, yes, no, true, false or a finite number)`},
		{"score empty string", replace(`"includes":{"value":"C"`, `"includes":{"value":""`), InspectOptions{},
			`bad.eval:samples/q2_epoch_1.json: scores.includes.value: invalid value: "" is not a score (want C, P, I, N, yes, no, true, false or a finite number)`},
		{"duplicate sample", func(name string, data []byte) ([]byte, bool) {
			if name == "samples/q3_epoch_1.json" {
				data = bytes.Replace(data, []byte(`"id":"q3"`), []byte(`"id":"q2"`), 1)
			}
			return data, true
		}, InspectOptions{}, "bad.eval:samples/q3_epoch_1.json: episode_id: duplicate key: same natural key as bad.eval:samples/q2_epoch_1.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			bad := filepath.Join(dir, "bad.eval")
			rewriteEval(t, zstdFixture, bad, c.edit)
			l := newLake(t)
			t.Chdir(dir)
			_, err := Inspect(t.Context(), l, []string{"bad.eval"}, c.opts, Options{})
			var rej *Rejected
			if !errors.As(err, &rej) {
				t.Fatalf("err = %v, want *Rejected", err)
			}
			if got := rej.Errors[0].Error(); got != c.want {
				t.Errorf("first error:\n got %s\nwant %s", got, c.want)
			}
			if m, _ := l.Manifest(); len(m.Files) != 0 {
				t.Errorf("%d files committed, want none", len(m.Files))
			}
		})
	}
}

// TestInspectJSONTruncated: a .json log cut in the middle of a sample is
// rejected at the line where the sample breaks off.
func TestInspectJSONTruncated(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "inspect", "arith-json.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "cut.json")
	os.WriteFile(p, data[:len(data)/2], 0o644)
	_, err = Inspect(t.Context(), newLake(t), []string{p}, InspectOptions{}, Options{})
	var rej *Rejected
	if !errors.As(err, &rej) || !strings.Contains(rej.Errors[0].Error(), "cut.json:") || !strings.Contains(rej.Errors[0].Error(), "truncated file?") {
		t.Fatalf("err = %v, want a truncated-file rejection", err)
	}
}

// TestInspectScorerOptions: --ground-truth and --judge-scorer change which
// scorer is ground truth and which are judges.
func TestInspectScorerOptions(t *testing.T) {
	cases := []struct {
		name                   string
		opts                   InspectOptions
		verdicts, truths, warn int
		judges                 string
	}{
		{"default: includes is ground truth", InspectOptions{}, 34, 17, 0, "model_graded_fact,model_graded_qa"},
		{"no ground truth", InspectOptions{GroundTruth: "none"}, 34, 0, 0, "model_graded_fact,model_graded_qa"},
		{"a judge as ground truth", InspectOptions{GroundTruth: "model_graded_fact"}, 17, 17, 0, "model_graded_qa"},
		{"includes as a judge", InspectOptions{Judges: []string{"includes"}}, 51, 0, 1, "includes,model_graded_fact,model_graded_qa"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newLake(t)
			st, err := Inspect(t.Context(), l, []string{zstdFixture}, c.opts, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Tables[lake.Verdicts].Added; got != int64(c.verdicts) {
				t.Errorf("verdicts = %d, want %d", got, c.verdicts)
			}
			if got := st.Tables[lake.GroundTruth].Added; got != int64(c.truths) {
				t.Errorf("ground truth = %d, want %d", got, c.truths)
			}
			if len(st.Warnings) != c.warn {
				t.Errorf("warnings = %q, want %d", st.Warnings, c.warn)
			}
			judges := map[string]bool{}
			for _, v := range tableRows[schema.Verdict](t, l, lake.Verdicts) {
				scorer, _, _ := strings.Cut(v.Judge, ":")
				judges[scorer] = true
			}
			var names []string
			for j := range judges {
				names = append(names, j)
			}
			slices.Sort(names)
			if got := strings.Join(names, ","); got != c.judges {
				t.Errorf("judges = %s, want %s", got, c.judges)
			}
		})
	}
}

// TestInspectJudgeScoreUnreadable: a judge's score that is not a score
// ("banana") is that judge's parse_error verdict, and its results row is
// skipped with a warning, never a silent 0.
func TestInspectJudgeScoreUnreadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "judge.eval")
	rewriteEval(t, zstdFixture, p, func(name string, data []byte) ([]byte, bool) {
		if name == "samples/q2_epoch_1.json" {
			data = bytes.Replace(data, []byte(`"model_graded_qa":{"value":"C"`), []byte(`"model_graded_qa":{"value":"banana"`), 1)
		}
		return data, true
	})
	l := newLake(t)
	st, err := Inspect(t.Context(), l, []string{p}, InspectOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	parseErrors := 0
	for _, v := range tableRows[schema.Verdict](t, l, lake.Verdicts) {
		if strings.HasPrefix(v.Judge, "model_graded_qa:") && strings.HasSuffix(v.EpisodeID, "/q2/1") {
			if v.Verdict == nil || *v.Verdict != schema.VerdictParseError || v.Score != nil {
				t.Errorf("verdict %v score %v, want parse_error and no score", v.Verdict, v.Score)
			}
			parseErrors++
		}
	}
	if parseErrors != 1 {
		t.Errorf("%d model_graded_qa verdicts for q2, want 1", parseErrors)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "scorer model_graded_qa: 1 score(s) not recorded as results") {
		t.Errorf("warnings %q, want model_graded_qa's score not recorded", st.Warnings)
	}
}
