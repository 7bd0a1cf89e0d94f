package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/report"
)

// goldenDemo is the demo's report.json with the fields that change from
// run to run (time, version, lake path and manifest, file counts that
// depend on commit batching) blanked.
const goldenDemo = "testdata/report/demo.golden.json"

// normalizeReport blanks the run-dependent fields of a report.json.
func normalizeReport(t *testing.T, b []byte) []byte {
	t.Helper()
	var d report.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	d.Provenance.GeneratedAt = time.Time{}
	d.Provenance.Version, d.Provenance.Lake, d.Provenance.ManifestSHA256 = "", "", ""
	d.Provenance.ManifestVersion, d.Health.Lake.Files = 0, 0
	if _, ok := d.Health.Lake.Rows[lake.RunCounts]; ok {
		d.Health.Lake.Rows[lake.RunCounts] = 0 // one row per episode and counted file: files depend on commit batching
	}
	out, err := json.MarshalIndent(&d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestDemoReport runs `make demo`'s script (examples/demo/run.sh) end to
// end with this test binary as trustlake, the sandbox fixed to the
// in-process checks (every demo task is declarative, so the ground truth
// is the same in Docker and bubblewrap), and compares its report.json with
// the golden file (go test -run TestDemoReport -update rewrites it); the
// HTML must stay under 1 MiB.
func TestDemoReport(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo pipeline takes about a minute")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	judgeBin := filepath.Join(bin, "trustlake-simjudge")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", judgeBin, "../../examples/demo/simjudge")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the simulated judge: %v\n%s", err, out)
	}
	demo := filepath.Join(t.TempDir(), "demo")
	cmd := exec.CommandContext(t.Context(), "bash", "../../examples/demo/run.sh")
	cmd.Env = append(os.Environ(), "TRUSTLAKE="+self, "TRUSTLAKE_AS_MAIN=1", "SIMJUDGE="+judgeBin, "DEMO_DIR="+demo,
		"DEMO_SANDBOX=none", "TRUSTLAKE_JUDGE_BACKEND=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run.sh: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"sandbox: none", "SIMULATED", "Open " + demo + "/report/report.html", "report exit code"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	b, err := os.ReadFile(filepath.Join(demo, "report", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := normalizeReport(t, b)
	if *update {
		if err := os.WriteFile(goldenDemo, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenDemo)
	if err != nil {
		t.Fatalf("%v (go test -run TestDemoReport -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("report.json differs from %s at line %d:\n got: %s\nwant: %s\n(go test -run TestDemoReport -update rewrites it)", goldenDemo, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("report.json differs from %s in length: %d vs %d lines", goldenDemo, len(gl), len(wl))
	}
	var d report.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Judges) == 0 || len(d.ClaimSway) == 0 || len(d.RewardModels) == 0 || d.Trust == nil || d.Health.Verifiers.SelfTests == 0 {
		t.Errorf("the demo report lacks a section: judges %d, sway %d, reward models %d, trust %v, self-tests %d",
			len(d.Judges), len(d.ClaimSway), len(d.RewardModels), d.Trust != nil, d.Health.Verifiers.SelfTests)
	}
	st, err := os.Stat(filepath.Join(demo, "report", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() >= 1<<20 {
		t.Errorf("report.html is %d bytes, over the 1 MiB budget", st.Size())
	}
	t.Logf("demo report.html: %d bytes", st.Size())
}
