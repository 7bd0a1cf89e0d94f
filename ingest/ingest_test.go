package ingest_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

var update = flag.Bool("update", false, "update golden .stderr files")

// seedLake returns a lake holding one verdict row, to check that a
// rejected batch loses nothing.
func seedLake(t *testing.T) *lake.Lake {
	t.Helper()
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "seed.jsonl")
	os.WriteFile(f, []byte(`{"episode_id":"seed","judge":"j","condition":"E1-final","run":1,"verdict":"success"}`+"\n"), 0o644)
	if _, err := ingest.Verdicts(t.Context(), l, []string{f}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return l
}

func run(t *testing.T, l *lake.Lake, kind string, args []string) (ingest.Stats, error) {
	t.Helper()
	switch kind {
	case "verdicts":
		return ingest.Verdicts(t.Context(), l, args, ingest.Options{})
	case "episodes":
		return ingest.Episodes(t.Context(), l, args, ingest.Options{})
	case "labels":
		return ingest.Labels(t.Context(), l, args, ingest.Options{})
	case "results":
		return ingest.Results(t.Context(), l, args, ingest.Options{})
	case "tau-bench":
		return ingest.TauBench(t.Context(), l, args, ingest.TauBenchOptions{}, ingest.Options{})
	}
	t.Fatalf("unknown kind %q", kind)
	return ingest.Stats{}, nil
}

// TestBadInputGolden runs each testdata/bad/*.txtar case: the first line
// of its comment is "KIND ARG...", the files are the inputs, and
// testdata/bad/NAME.stderr holds the expected messages.
func TestBadInputGolden(t *testing.T) {
	cases, _ := filepath.Glob("testdata/bad/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(c)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, f := range ar.Files {
				p := filepath.Join(dir, f.Name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			words := strings.Fields(strings.SplitN(string(ar.Comment), "\n", 2)[0])
			var args []string
			for _, a := range words[1:] {
				args = append(args, filepath.Join(dir, a))
			}
			l := seedLake(t)
			before, _ := l.Manifest()
			_, err = run(t, l, words[0], args)
			var rej *ingest.Rejected
			if !errors.As(err, &rej) {
				t.Fatalf("want *ingest.Rejected, got %v", err)
			}
			got := strings.ReplaceAll(rej.Errors.Error(), dir+string(filepath.Separator), "") + "\n"
			golden := filepath.Join("testdata", "bad", name+".stderr")
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("messages differ\n--- got\n%s--- want\n%s", got, want)
			}
			after, _ := l.Manifest()
			if after.Version != before.Version || len(after.Files) != len(before.Files) {
				t.Errorf("rejected batch changed the lake: version %d → %d", before.Version, after.Version)
			}
			rep, _ := l.Check(t.Context())
			if len(rep.Problems) != 0 {
				t.Errorf("rejected batch left files: %+v", rep.Problems)
			}
		})
	}
}

func TestNonUTF8(t *testing.T) {
	f := filepath.Join(t.TempDir(), "v.jsonl")
	os.WriteFile(f, []byte("{\"episode_id\": \"ep\xff1\", \"judge\": \"j\", \"condition\": \"c\", \"run\": 1, \"verdict\": \"success\"}\n"), 0o644)
	_, err := ingest.Verdicts(t.Context(), seedLake(t), []string{f}, ingest.Options{})
	var rej *ingest.Rejected
	if !errors.As(err, &rej) || len(rej.Errors) != 1 || !errors.Is(rej.Errors[0], schema.ErrEncoding) || rej.Errors[0].Line != 1 {
		t.Fatalf("got %v", err)
	}
}

// TestHugeLine feeds a 100 MB single line between two good lines: the line
// is refused by number without being held, the rest is still checked.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	f := filepath.Join(t.TempDir(), "v.jsonl")
	var b bytes.Buffer
	b.WriteString(`{"episode_id":"a","judge":"j","condition":"c","run":1,"verdict":"success"}` + "\n")
	b.WriteString(`{"episode_id":"`)
	b.Write(bytes.Repeat([]byte("x"), 100<<20))
	b.WriteString("\"}\n")
	b.WriteString(`{"episode_id":"b","judge":"j","condition":"c","run":1,"verdict":"maybe"}` + "\n")
	os.WriteFile(f, b.Bytes(), 0o644)
	_, err := ingest.Verdicts(t.Context(), seedLake(t), []string{f}, ingest.Options{})
	var rej *ingest.Rejected
	if !errors.As(err, &rej) || len(rej.Errors) != 2 {
		t.Fatalf("got %v", err)
	}
	if e := rej.Errors[0]; e.Line != 2 || !errors.Is(e, schema.ErrTooLong) {
		t.Errorf("first error %v, want line 2 too long", e)
	}
	if e := rej.Errors[1]; e.Line != 3 || e.Field != "verdict" {
		t.Errorf("second error %v, want line 3 verdict", e)
	}
}

func TestSymlinkedEpisodeFolder(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "meta.json"), []byte(`{"episode_id":"x","task_id":"t","agent":"a"}`), 0o644)
	root := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "ep_link"))
	for _, arg := range []string{root, filepath.Join(root, "ep_link")} {
		_, err := ingest.Episodes(t.Context(), seedLake(t), []string{arg}, ingest.Options{})
		var rej *ingest.Rejected
		if !errors.As(err, &rej) || len(rej.Errors) != 1 || !errors.Is(rej.Errors[0], schema.ErrPath) ||
			!strings.Contains(rej.Errors[0].Error(), "symlinked episode folder") {
			t.Fatalf("%s: got %v", arg, err)
		}
	}
}

func TestReingestIsNoop(t *testing.T) {
	dir := t.TempDir()
	ep := filepath.Join(dir, "ep1")
	os.MkdirAll(filepath.Join(ep, "screens"), 0o755)
	os.WriteFile(filepath.Join(ep, "meta.json"), []byte(`{"episode_id":"ep1","task_id":"t","source":"natural","agent":{"name":"a","version":"1","seed":3,"temperature":0.2},"note":"kept"}`), 0o644)
	os.WriteFile(filepath.Join(ep, "actions.jsonl"), []byte(`{"step":1,"action":"type","text":"4500","screen":"screens/001.png","observation":"ok"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(ep, "screens", "001.png"), []byte("png"), 0o644)
	os.WriteFile(filepath.Join(ep, "final_state.tar.zst"), []byte("zst"), 0o644)
	os.WriteFile(filepath.Join(ep, "gt.json"), []byte(`{"episode_id":"ep1","pass":false,"category":"F-UNCOMMITTED_OR_WRONGTARGET","diagnostics":{"D14":null},"verifier_sha256":"abababababababababababababababababababababababababababababababab"}`), 0o644)
	l := seedLake(t)
	st, err := ingest.Episodes(t.Context(), l, []string{dir}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Tables[lake.Episodes].Added != 1 || st.Tables[lake.Actions].Added != 1 || st.Tables[lake.GroundTruth].Added != 1 || st.NeedsReview != 1 {
		t.Fatalf("first ingest: %+v", st)
	}
	st, err = ingest.Episodes(t.Context(), l, []string{ep}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Tables[lake.Episodes].Unchanged != 1 || st.Tables[lake.Episodes].Added != 0 || st.Tables[lake.Actions].Unchanged != 1 {
		t.Fatalf("re-ingest: %+v", st)
	}
	var got []schema.Episode
	lake.ReadTable[schema.Episode](l, lake.Episodes, func(rows []schema.Episode) error { got = append(got, rows...); return nil })
	if len(got) != 1 {
		t.Fatalf("episodes = %d", len(got))
	}
	e := got[0]
	if e.Extra != `{"agent.temperature":0.2,"note":"kept"}` || *e.AgentSeed != 3 || e.NScreens != 1 || e.FinalStateSHA256 == nil {
		t.Errorf("episode row = %+v (extra %s)", e, e.Extra)
	}
	// Changing gt.json is a conflict naming the earlier source.
	os.WriteFile(filepath.Join(ep, "gt.json"), []byte(`{"episode_id":"ep1","pass":true,"verifier_sha256":"abababababababababababababababababababababababababababababababab"}`), 0o644)
	_, err = ingest.Episodes(t.Context(), l, []string{ep}, ingest.Options{})
	var rej *ingest.Rejected
	if !errors.As(err, &rej) || len(rej.Errors) != 1 || !strings.Contains(rej.Errors[0].Error(), "gt.json") || !errors.Is(rej.Errors[0], schema.ErrConflict) {
		t.Fatalf("conflict: %v", err)
	}
	if _, err := ingest.Episodes(t.Context(), l, []string{ep}, ingest.Options{Replace: true}); err != nil {
		t.Fatalf("replace: %v", err)
	}
}

func FuzzDecodeVerdictLine(f *testing.F) {
	for _, c := range []string{
		`{"episode_id": "ep_0001", "judge": "vlm:model-x", "condition": "E2-lastk", "run": 1, "verdict": "success", "score": null, "confidence": 0.9, "called_at": "2026-10-10T10:02:11Z"}`,
		`{"episode_id":"e","judge":"rm","condition":"E1-final","run":2,"verdict":null,"score":NaN}`,
		`{"a":[1,{"b":"\u00e9\ud83d\ude00"}],"episode_id":"x"}`,
		`{"episode_id": "ep2", "judge": "j", "condition": "E1-final", "run": 1, "verdict": "succ`,
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "v.jsonl")
		os.WriteFile(p, append(bytes.ReplaceAll(line, []byte("\n"), nil), '\n'), 0o644)
		l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = ingest.Verdicts(t.Context(), l, []string{p}, ingest.Options{})
		var rej *ingest.Rejected
		if err != nil && !errors.As(err, &rej) {
			t.Fatalf("decoder failed with a non-record error: %v", err)
		}
		if rej != nil {
			for _, e := range rej.Errors {
				blank := e.Line == 0 && errors.Is(e, schema.ErrMissing) // a blank line: no records
				if (e.Line != 1 && !blank) || e.Error() == "" {
					t.Fatalf("bad record error %#v", e)
				}
			}
		}
	})
}

func TestParseTimeFastPathAgrees(t *testing.T) {
	for _, s := range []string{"2026-10-10T10:02:11Z", "2024-02-29T23:59:59Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-10-10T10:02:11+02:00"} {
		got, gerr := ingest.ParseTimeForTest(s)
		want, werr := time.Parse(time.RFC3339Nano, s)
		if (gerr != nil) != (werr != nil) || (gerr == nil && !got.Equal(want)) {
			t.Errorf("%s: got %v %v, want %v %v", s, got, gerr, want, werr)
		}
	}
}

func FuzzDecodeMeta(f *testing.F) {
	for _, c := range []string{
		`{"episode_id": "ep_0001", "task_id": "t", "source": "natural", "agent": {"name": "a", "version": "1", "seed": 17}, "n_steps": 23, "created_at": "2026-10-10T09:14:00Z"}`,
		`{"episode_id": "e", "task_id": "t", "agent": "a", "x": [1, {"y": null}]}`,
		`{"episode_id": "e", "task_id": "t", "agent": {"name": 1}}`,
		`{"episode_id": "e"`,
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, meta []byte) {
		dir := t.TempDir()
		ep := filepath.Join(dir, "eps", "ep")
		os.MkdirAll(ep, 0o755)
		os.WriteFile(filepath.Join(ep, "meta.json"), meta, 0o644)
		l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = ingest.Episodes(t.Context(), l, []string{filepath.Join(dir, "eps")}, ingest.Options{})
		var rej *ingest.Rejected
		if err != nil && !errors.As(err, &rej) {
			t.Fatalf("decoder failed with a non-record error: %v", err)
		}
		if rej != nil && len(rej.Errors) == 0 {
			t.Fatal("rejected without errors")
		}
	})
}

// TestFolderArgument: a folder of JSONL files is read file by file, and a
// folder without any is refused (it once looped forever on EISDIR).
func TestFolderArgument(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(`{"episode_id":"a","judge":"j","condition":"c","run":1,"verdict":"success"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte(`{"episode_id":"b","judge":"j","condition":"c","run":1,"verdict":"success"}`+"\n"), 0o644)
	l := seedLake(t)
	st, err := ingest.Verdicts(t.Context(), l, []string{dir}, ingest.Options{})
	if err != nil || st.Tables[lake.Verdicts].Added != 2 || st.Inputs != 2 {
		t.Fatalf("folder: %+v %v", st, err)
	}
	_, err = ingest.Verdicts(t.Context(), l, []string{t.TempDir()}, ingest.Options{})
	var rej *ingest.Rejected
	if !errors.As(err, &rej) || !strings.Contains(rej.Error(), "1 input record") || !strings.Contains(rej.Errors[0].Error(), "no *.jsonl files") {
		t.Fatalf("empty folder: %v", err)
	}
}

// actions.jsonl: a line over MaxLineBytes between two bad lines is refused at
// its own line, every error in line order with its file, and the good line
// of the same file is not counted as added (the batch rolls back).
func TestActionsBadLinesInOrder(t *testing.T) {
	dir := t.TempDir()
	ep := filepath.Join(dir, "ep1")
	os.MkdirAll(ep, 0o755)
	os.WriteFile(filepath.Join(ep, "meta.json"), []byte(`{"episode_id":"ep1","task_id":"t","source":"natural","agent":{"name":"a","version":"1"}}`), 0o644)
	lines := []string{
		`{"step":"one","action":"click"}`,
		`{"step":2,"action":"type","text":"` + strings.Repeat("x", 400) + `"}`,
		``,
		`{"step":4,"action":"click"}`,
		`{"step":5,`,
	}
	actions := filepath.Join(ep, "actions.jsonl")
	os.WriteFile(actions, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	_, err := ingest.Episodes(t.Context(), seedLake(t), []string{dir}, ingest.Options{MaxLineBytes: 256})
	var rej *ingest.Rejected
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want Rejected", err)
	}
	var got []string
	for _, e := range rej.Errors {
		got = append(got, fmt.Sprintf("%s:%d", filepath.Base(e.File), e.Line))
	}
	if fmt.Sprint(got) != "[actions.jsonl:1 actions.jsonl:2 actions.jsonl:5]" {
		t.Fatalf("errors at %v, want lines 1, 2, 5 of actions.jsonl:\n%v", got, err)
	}
	if !errors.Is(rej.Errors[1], schema.ErrTooLong) {
		t.Errorf("line 2: %v, want ErrTooLong", rej.Errors[1])
	}
}
