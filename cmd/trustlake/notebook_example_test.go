package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleNotebook runs examples/notebook as its README says: a simulated
// lake, the FPR table exported to Parquet with fpr.sql, and fpr.ipynb
// executed headless with nbconvert (pinned in the venv). It checks that the
// notebook printed one line per judge × condition with the same FPR, Wilson
// interval and counts as `trustlake metrics --json` (computed in Go, not with
// fpr.sql), and that it drew the plot (an image/png output and the PNG file).
func TestExampleNotebook(t *testing.T) {
	python := notebookPython(t, "polars", "matplotlib", "nbconvert", "ipykernel")
	jupyter := filepath.Join(filepath.Dir(python), "jupyter")
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	tl := func(args ...string) string { return trustlakeRun(t, append([]string{"--lake", lakeDir}, args...)...) }
	tl("gen", "--out", data, "--tasks", "30", "--episodes-per-task", "2")
	tl("ingest", "episodes", filepath.Join(data, "episodes"))
	verdicts, _ := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
	tl(append([]string{"ingest", "verdicts"}, verdicts...)...)
	query, err := os.ReadFile(filepath.Join("..", "..", "examples", "notebook", "fpr.sql"))
	if err != nil {
		t.Fatal(err)
	}
	export, plot := filepath.Join(dir, "fpr.parquet"), filepath.Join(dir, "fpr.png")
	tl("export", "--query", string(query), "--format", "parquet", "--out", export)

	nb, err := filepath.Abs(filepath.Join("..", "..", "examples", "notebook", "fpr.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), jupyter, "nbconvert", "--execute", "--to", "notebook",
		"--output-dir", dir, "--output", "executed.ipynb", nb)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FPR_EXPORT="+export, "FPR_PLOT="+plot,
		"PATH="+filepath.Dir(python)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"MPLCONFIGDIR="+filepath.Join(dir, "mpl"), "IPYTHONDIR="+filepath.Join(dir, "ipython"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "jupyter-runtime"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert --execute: %v\n%s", err, out)
	}

	text, pngs := notebookOutputs(t, filepath.Join(dir, "executed.ipynb"))
	var rep struct {
		Rows []struct {
			Judge, Condition string
			Stratum          map[string]string
			NNeg             int `json:"n_neg"`
			FP               int `json:"fp"`
			FPR              struct {
				Value  float64
				Wilson [2]float64
			}
		}
	}
	if err := json.Unmarshal([]byte(tl("metrics", "--json", "--bootstrap", "100")), &rep); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rep.Rows {
		if len(r.Stratum) > 0 {
			continue
		}
		n++
		want := fmt.Sprintf("%s@%s: FPR %.3f [%.3f, %.3f] (%d/%d)\n", r.Judge, r.Condition, r.FPR.Value, r.FPR.Wilson[0], r.FPR.Wilson[1], r.FP, r.NNeg)
		if !strings.Contains(text, want) {
			t.Errorf("the notebook did not print %q (trustlake metrics); it printed:\n%s", want, text)
		}
	}
	if n == 0 {
		t.Fatal("trustlake metrics gave no row")
	}
	if want := fmt.Sprintf(": %d judge x condition cells;", n); !strings.Contains(text, want) {
		t.Errorf("the notebook did not read %d cells (%q) from the export:\n%s", n, want, text)
	}
	if want := fmt.Sprintf("plotted %d cells with their intervals to %s", n, plot); !strings.Contains(text, want) {
		t.Errorf("no %q in the notebook's output:\n%s", want, text)
	}
	if len(pngs) != 1 || !bytes.HasPrefix(pngs[0], []byte("\x89PNG")) {
		t.Errorf("the notebook displayed %d PNG figures, want 1", len(pngs))
	}
	if b, err := os.ReadFile(plot); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 5000 {
		t.Errorf("%s: not a PNG plot (%d bytes, %v)", plot, len(b), err)
	}
}

// notebookOutputs returns the text an executed notebook printed (stream
// outputs, in order) and the PNG images it displayed.
func notebookOutputs(t *testing.T, path string) (string, [][]byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []struct {
				OutputType string          `json:"output_type"`
				Text       json.RawMessage `json:"text"`
				Data       map[string]json.RawMessage
				Ename      string
			}
		}
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var text strings.Builder
	var pngs [][]byte
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "stream":
				text.WriteString(multiline(t, o.Text))
			case "error":
				t.Errorf("the notebook raised %s", o.Ename)
			case "display_data", "execute_result":
				if raw, ok := o.Data["image/png"]; ok {
					png, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(multiline(t, raw), "\n", ""))
					if err != nil {
						t.Errorf("image/png output: %v", err)
					}
					pngs = append(pngs, png)
				}
			}
		}
	}
	return text.String(), pngs
}

// multiline reads a notebook string field: a string or a list of lines.
func multiline(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		t.Fatalf("notebook text %s: %v", raw, err)
	}
	return strings.Join(lines, "")
}
