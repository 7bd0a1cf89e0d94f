package ingest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// venvPython returns the repository's .venv python with inspect-ai
// importable, or ends the test as missing a part.
func venvPython(t *testing.T) (py, root string) {
	t.Helper()
	root = testenv.RepoRoot(t)
	py = filepath.Join(root, ".venv", "bin", "python")
	if _, err := os.Stat(py); err != nil {
		testenv.Missing(t, testenv.Python, "%s not found (run make venv)", py)
	}
	if out, err := exec.Command(py, "-c", "import inspect_ai").CombinedOutput(); err != nil {
		testenv.Missing(t, testenv.Python, "inspect-ai not importable in .venv (run make venv): %s", strings.TrimSpace(string(out)))
	}
	return py, root
}

// TestInspectRegenerated writes a fresh log with the pinned inspect-ai
// (python/inspect_logs.py, zstd variant), reads it with inspect-ai's own
// reader (python/inspect_reference.py) and checks that the adapter ingests
// exactly what inspect-ai reads.
func TestInspectRegenerated(t *testing.T) {
	py, root := venvPython(t)
	dir := t.TempDir()
	gen := exec.Command(py, filepath.Join(root, "python", "inspect_logs.py"), dir, "zstd")
	gen.Dir = dir // inspect-ai records the task file relative to here; keep the repository clean
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("inspect_logs.py: %v\n%s", err, out)
	}
	ref := exec.Command(py, filepath.Join(root, "python", "inspect_reference.py"), "arith-zstd.eval")
	ref.Dir = dir
	out, err := ref.Output()
	if err != nil {
		t.Fatalf("inspect_reference.py: %v", err)
	}
	refPath := filepath.Join(dir, "reference.json")
	if err := os.WriteFile(refPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
	r := readInspectRef(t, refPath)
	pin, err := os.ReadFile(filepath.Join(root, "python", "requirements-inspect.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pin), "inspect-ai=="+r.InspectAI+"\n") {
		t.Errorf("the venv has inspect-ai %s, not the pinned version", r.InspectAI)
	}
	if len(r.Logs) != 1 || r.Logs[0].NSamples != 18 {
		t.Fatalf("regenerated log: %+v, want one log of 18 samples", r.Logs)
	}
	checkAgainstRef(t, dir, r)
}
