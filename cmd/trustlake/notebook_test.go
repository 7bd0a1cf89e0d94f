package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/lake"
)

// notebookPython returns the venv's Python with the notebook packages
// (python/requirements-notebook.txt), or ends the test naming what is missing.
func notebookPython(t *testing.T, modules ...string) string {
	t.Helper()
	python := testenv.VenvPython(t)
	imports := "import " + strings.Join(modules, ", ")
	if out, err := exec.Command(python, "-c", imports).CombinedOutput(); err != nil {
		testenv.Missing(t, testenv.Python, "%s: %q failed (run make venv): %v\n%s", python, imports, err, out)
	}
	return python
}

// buildNotebookLake fills every lake table with rows that exercise what
// notebook readers get wrong: timestamps given with an offset (stored UTC)
// and with microseconds, NULLs in string, number and timestamp columns, an
// empty string (not NULL),
// JSON text columns, quotes, commas and non-ASCII text, and partition values
// that hive-encoding percent-escapes (":", "/", " ", "%", "+").
func buildNotebookLake(t *testing.T, dir string) string {
	t.Helper()
	lakeDir := filepath.Join(dir, "lake")
	lib, err := filepath.Abs(filepath.Join("..", "..", "tasks", "library"))
	if err != nil {
		t.Fatal(err)
	}
	eps := filepath.Join(dir, "eps")
	tl := func(args ...string) string { return trustlakeRun(t, append([]string{"--lake", lakeDir}, args...)...) }
	tl("tasks", "episodes", "--tasks", lib, "--out", eps, "sheet_set_cell_d14")
	tl("verify", "--tasks", lib, "--sandbox", "none", eps)                                      // episodes, ground_truth
	tl("tasks", "check", "--tasks", lib, "--sandbox", "none", "--record", "sheet_set_cell_d14") // selftests
	tl("evidence", "--tasks", lib)                                                              // evidence

	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok, bad := "sheet_set_cell_d14__pass-done__1", "sheet_set_cell_d14__fail-not_saved__1"
	tl("ingest", "verdicts", write("v.jsonl", ""+
		`{"episode_id": "`+ok+`", "judge": "vlm:model/x y%z", "condition": "E2+claim", "run": 1, "verdict": "success", "confidence": 0.9, "model": "m-1", "called_at": "2026-10-10T10:02:11.123456+02:00", "latency_ms": 1200}`+"\n"+
		`{"episode_id": "`+ok+`", "judge": "rm:score", "condition": "E1-final", "run": 1, "verdict": null, "score": 0.25, "called_at": "2026-10-10T10:02:11Z"}`+"\n"+
		`{"episode_id": "`+bad+`", "judge": "vlm:model/x y%z", "condition": "E2+claim", "run": 2, "verdict": "failure", "model": "", "reason": "il a dit \"fini\", mais…"}`+"\n"))
	tl("ingest", "labels", write("l.csv", "episode_id,category,annotator,note\n"+
		bad+`,F-UNCOMMITTED,ann,"a note, with ""quotes"" and ünïcode"`+"\n"+
		ok+",F-CLAIM,,\n"))
	// reviews: two actions through `trustlake view --review` (the only writer).
	v := startView(t, lakeDir, "--review", "--reviewer", "rév")
	tok := v.csrf(t)
	for _, body := range []string{`{"episode_id": "` + bad + `", "category": "F-CLAIM", "pass": false, "note": "revu, \"fini\" ? non…"}`,
		`{"episode_id": "` + bad + `", "pass": true}`} {
		if code, msg := v.post(t, body, map[string]string{"X-CSRF-Token": tok}); code != 201 {
			t.Fatalf("review %s: %d %s", body, code, msg)
		}
	}
	v.stop(t)

	// τ-bench results and chat actions (JSON arguments), then the audit.
	ar, err := txtar.ParseFile(filepath.Join("testdata", "script", "trust_tau_bench.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "m-airline.json" {
			tl("ingest", "tau-bench", write(f.Name, string(f.Data)))
		}
	}
	tl("trust")
	return lakeDir
}

// readerJob is one file or folder for testdata/notebook/read.py.
type readerJob struct {
	ID         string            `json:"id"`
	Format     string            `json:"format"`
	Path       string            `json:"path"`
	Schema     map[string]string `json:"schema,omitempty"`
	Partitions []string          `json:"partitions,omitempty"`
}

// readerResult is what one reader got from one job.
type readerResult struct {
	Types map[string]string `json:"types"`
	Rows  []map[string]any  `json:"rows"`
	Error string            `json:"error"`
}

// readerTypes maps trustlake's column types (DuckDB's names) to the type
// names read.py gives for what pyarrow and polars read.
var readerTypes = map[string]string{
	"VARCHAR":                  "string",
	"BIGINT":                   "int64",
	"DOUBLE":                   "float64",
	"BOOLEAN":                  "bool",
	"TIMESTAMP WITH TIME ZONE": "timestamp[UTC]",
}

// sqlTable is a table as `trustlake sql` gives it: column types and rows.
type sqlTable struct {
	types map[string]string // column -> reader type name
	rows  []string          // canonical JSON of each row, sorted
}

func sqlReference(t *testing.T, lakeDir, table string) sqlTable {
	t.Helper()
	ref := sqlTable{types: map[string]string{}}
	desc := trustlakeRun(t, "--lake", lakeDir, "sql", "-f", "jsonl", "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+table+")")
	for _, line := range strings.Split(strings.TrimSpace(desc), "\n") {
		var c struct{ Column_name, Column_type string }
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		typ, ok := readerTypes[c.Column_type]
		if !ok {
			t.Fatalf("%s.%s: type %s has no reader mapping (add it to readerTypes and read.py)", table, c.Column_name, c.Column_type)
		}
		ref.types[c.Column_name] = typ
	}
	out := trustlakeRun(t, "--lake", lakeDir, "sql", "-f", "jsonl", "SELECT * FROM "+table)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		ref.rows = append(ref.rows, canonicalRow(t, row))
	}
	slices.Sort(ref.rows)
	return ref
}

// canonicalRow is a row as JSON with sorted keys and every number a float64,
// so that 1 and 1.0 compare equal (types are compared separately).
func canonicalRow(t *testing.T, row map[string]any) string {
	b, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(back)
	return string(b)
}

// TestNotebookReaders exports every lake table in every export format (and
// `sql --format json`), reads each file and each table's hive-partitioned
// folder with pyarrow and with polars (pinned in the venv), and compares
// column types and every value with what `trustlake sql` gives.
func TestNotebookReaders(t *testing.T) {
	python := notebookPython(t, "pyarrow", "polars")
	dir := t.TempDir()
	lakeDir := buildNotebookLake(t, dir)
	refs := map[string]sqlTable{}
	var jobs []readerJob
	for _, tbl := range lake.Tables() {
		ref := sqlReference(t, lakeDir, tbl.Name)
		if len(ref.rows) == 0 {
			t.Errorf("%s: no rows; buildNotebookLake must fill every table", tbl.Name)
			continue
		}
		var tableJobs []readerJob
		for _, format := range []string{"parquet", "arrow", "csv", "jsonl"} {
			out := filepath.Join(dir, tbl.Name+"."+format)
			trustlakeRun(t, "--lake", lakeDir, "export", "--table", tbl.Name, "--format", format, "--out", out)
			job := readerJob{ID: tbl.Name + "." + format, Format: format, Path: out}
			if format == "csv" || format == "jsonl" {
				job.Schema = ref.types // text formats carry no types
			}
			tableJobs = append(tableJobs, job)
		}
		jsonOut := filepath.Join(dir, tbl.Name+".json")
		if err := os.WriteFile(jsonOut, []byte(trustlakeRun(t, "--lake", lakeDir, "sql", "-f", "json", "SELECT * FROM "+tbl.Name)), 0o644); err != nil {
			t.Fatal(err)
		}
		tableJobs = append(tableJobs,
			readerJob{ID: tbl.Name + ".json", Format: "json", Path: jsonOut, Schema: ref.types},
			readerJob{ID: tbl.Name + " lake", Format: "lake", Path: filepath.Join(lakeDir, tbl.Name), Partitions: tbl.Partitions})
		for _, j := range tableJobs {
			refs[j.ID] = ref
		}
		jobs = append(jobs, tableJobs...)
	}
	jobFile := filepath.Join(dir, "jobs.json")
	b, _ := json.Marshal(jobs)
	if err := os.WriteFile(jobFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(t.Context(), python, filepath.Join("testdata", "notebook", "read.py"), jobFile)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("read.py: %v\n%s", err, stderr.String())
	}
	var got map[string]map[string]readerResult
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("read.py output: %v", err)
	}
	for _, j := range jobs {
		ref := refs[j.ID]
		for _, reader := range []string{"pyarrow", "polars"} {
			res, ok := got[j.ID][reader]
			if !ok {
				t.Errorf("%s: no result from %s", j.ID, reader)
				continue
			}
			if res.Error != "" {
				t.Errorf("%s with %s: %s", j.ID, reader, res.Error)
				continue
			}
			compareRead(t, j.ID+" with "+reader, ref, res)
		}
	}
	// The partition values came back decoded, not percent-encoded.
	for _, reader := range []string{"pyarrow", "polars"} {
		var judges []string
		for _, r := range got["verdicts lake"][reader].Rows {
			judges = append(judges, fmt.Sprint(r["judge"]))
		}
		if !slices.Contains(judges, "vlm:model/x y%z") {
			t.Errorf("verdicts lake with %s: judges %v, want the decoded partition value %q", reader, judges, "vlm:model/x y%z")
		}
	}
}

func compareRead(t *testing.T, what string, ref sqlTable, res readerResult) {
	t.Helper()
	for col, want := range ref.types {
		if got := res.Types[col]; got != want {
			t.Errorf("%s: column %s: type %q, want %q", what, col, got, want)
		}
	}
	for col := range res.Types {
		if _, ok := ref.types[col]; !ok {
			t.Errorf("%s: extra column %s", what, col)
		}
	}
	rows := make([]string, len(res.Rows))
	for i, r := range res.Rows {
		rows[i] = canonicalRow(t, r)
	}
	slices.Sort(rows)
	if len(rows) != len(ref.rows) {
		t.Errorf("%s: %d rows, want %d", what, len(rows), len(ref.rows))
		return
	}
	for i := range rows {
		if rows[i] != ref.rows[i] {
			t.Errorf("%s: row differs from trustlake sql:\n got  %s\n want %s", what, rows[i], ref.rows[i])
			return
		}
	}
}
