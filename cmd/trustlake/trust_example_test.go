package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trustlakeRun runs the CLI in-process and fails the test on a non-zero
// exit; it returns stdout.
func trustlakeRun(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), append([]string{"trustlake"}, args...), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("trustlake %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// TestTauBenchExample runs examples/tau-bench/run.sh's two commands
// in-process on the real τ-bench file and checks that the example's
// README.md holds exactly the tables the CLI prints today, and the figures
// its text quotes. It skips when the shared data is absent.
func TestTauBenchExample(t *testing.T) {
	file := sharedData(t, "tau-bench/gpt-4o-airline.json")
	lakeDir := filepath.Join(t.TempDir(), "lake")
	out := trustlakeRun(t, "--lake", lakeDir, "ingest", "tau-bench", file)
	if want := "results: 200 new, 0 unchanged\n"; !strings.Contains(out, want) {
		t.Errorf("ingest printed %q, want it to contain %q", out, want)
	}
	out = trustlakeRun(t, "--lake", lakeDir, "trust")
	tables, stored, ok := strings.Cut(out, "\ntrust: ")
	if !ok || stored != "200 new, 0 unchanged, 0 replaced\n" {
		t.Fatalf("trust output does not end with the stored summary:\n%s", out)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "examples", "tau-bench", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte(tables)) {
		t.Errorf("examples/tau-bench/README.md does not hold the current tables; regenerate with examples/tau-bench/run.sh:\n%s", tables)
	}
	// The README says: under strict D2 the only change is −D2 = 1, and
	// trusted stays 40; every audit row is replaced because it records the
	// policy it was judged under.
	out = trustlakeRun(t, "--lake", lakeDir, "trust", "--d2-unconfirmed", "strict")
	if want := "| tau-bench-airline | gpt-4o | 200 | 84 | 0 | 1 | 0 | 44 | 40 | 47.6% [37.3, 58.2] |"; !strings.Contains(out, want) {
		t.Errorf("strict D2: no row %q in\n%s", want, out)
	}
	if want := "trust: 0 new, 0 unchanged, 200 replaced\n"; !strings.HasSuffix(out, want) {
		t.Errorf("strict D2 re-run: want %q at the end of\n%s", want, out)
	}
}
