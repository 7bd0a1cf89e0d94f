package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReportSessionPathSameFigures: the report takes the session's
// statements (metric_runs) where ReportRuns does not cover the lake (an
// episode id on two rows, two ids with one hash; neither can be built
// through ingest). Asked for by TRUSTLAKE_REPORT_RUNS=session, that path
// must give report.json the same figures as the Go path, every section
// but provenance (its time and parameters).
func TestReportSessionPathSameFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a lake and builds two reports")
	}
	r := buildReportLake(t)
	if r.code != 0 && r.code != exitCheckFailed {
		t.Fatalf("report: exit %d\n%s", r.code, r.stderr)
	}
	t.Setenv(reportRunsEnv, "session")
	out := filepath.Join(t.TempDir(), "report")
	code, _, stderr := trustlakeExit(t, "--lake", r.lake, "report", "--out", out, "--threshold", "0.5",
		"--checklist", "sim:vlm-a@E3-full", "--fpr-target", "0.2", "--fail-on", `fpr{judge="sim:vlm-a"}.wilson_hi > 0.99`)
	if code != r.code {
		t.Fatalf("session path: exit %d, Go path %d\n%s", code, r.code, stderr)
	}
	read := func(dir string) map[string]any {
		b, err := os.ReadFile(filepath.Join(dir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		delete(doc, "provenance")
		return doc
	}
	goPath, session := read(r.out), read(out)
	if len(goPath["judges"].([]any)) == 0 || len(goPath["strata"].([]any)) == 0 {
		t.Fatalf("report without judges or strata: %v", goPath)
	}
	for k := range goPath {
		if !reflect.DeepEqual(goPath[k], session[k]) {
			a, _ := json.Marshal(goPath[k])
			b, _ := json.Marshal(session[k])
			t.Errorf("%s differs:\n Go path %s\n session %s", k, a, b)
		}
	}
	if len(session) != len(goPath) {
		t.Errorf("sections: Go path %d, session %d", len(goPath), len(session))
	}
}
