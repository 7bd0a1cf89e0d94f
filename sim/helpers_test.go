package sim

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// verdictLine is one parsed verdict row; pointers tell null from absent.
type verdictLine struct {
	EpisodeID  string   `json:"episode_id"`
	Judge      string   `json:"judge"`
	Condition  string   `json:"condition"`
	Run        int      `json:"run"`
	Verdict    *string  `json:"verdict"`
	Score      *float64 `json:"score"`
	Confidence *float64 `json:"confidence"`
	Model      string   `json:"model"`
	CalledAt   string   `json:"called_at"`
}

type metaFile struct {
	EpisodeID   string `json:"episode_id"`
	TaskID      string `json:"task_id"`
	Instruction string `json:"instruction"`
	Source      string `json:"source"`
	Agent       struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		Seed    *int   `json:"seed"`
	} `json:"agent"`
	NSteps          int     `json:"n_steps"`
	FinalMessage    string  `json:"final_message"`
	SandboxImage    string  `json:"sandbox_image"`
	CreatedAt       string  `json:"created_at"`
	ParentEpisodeID *string `json:"parent_episode_id"`
	Perturbation    *string `json:"perturbation"`
}

type gtFile struct {
	EpisodeID      string          `json:"episode_id"`
	Pass           *bool           `json:"pass"`
	Score          *float64        `json:"score"`
	Category       *string         `json:"category"`
	Diagnostics    json.RawMessage `json:"diagnostics"`
	VerifierSHA256 string          `json:"verifier_sha256"`
	Gates          []struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Passed *bool  `json:"passed"`
	} `json:"gates"`
	Deterministic *bool `json:"deterministic"`
}

type actionLine struct {
	Step   int     `json:"step"`
	Action string  `json:"action"`
	Text   *string `json:"text"`
	Keys   *string `json:"keys"`
	Screen *string `json:"screen"`
}

// readJSON decodes one JSON file strictly (unknown fields are errors).
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := strictUnmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func strictUnmarshal(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// readLines calls fn with each line of a JSONL file (1-based line numbers).
func readLines(t *testing.T, path string, fn func(line int, b []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		fn(n, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// readVerdicts parses every verdict file of a generated folder.
func readVerdicts(t *testing.T, dir string, st Stats) []verdictLine {
	t.Helper()
	var out []verdictLine
	for _, f := range st.VerdictFiles {
		path := filepath.Join(dir, filepath.FromSlash(f))
		readLines(t, path, func(line int, b []byte) {
			var v verdictLine
			if err := strictUnmarshal(b, &v); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			out = append(out, v)
		})
	}
	return out
}

// treeHashes maps every file under dir (slash path) to its sha256.
func treeHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		s := sha256.Sum256(b)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(s[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
