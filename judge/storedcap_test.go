package judge

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A reply's 30 MB evidence text (and a 1 MB model id) is stored capped at
// maxRaw with a truncation note: the verdicts files stay small.
func TestStoredReplyTextIsCapped(t *testing.T) {
	api := newFakeAPI(t, "anthropic")
	huge := strings.Repeat("é", 15<<20) // 30 MB, two bytes a rune: the cut must keep UTF-8 whole
	api.reply = func(map[string]any) string {
		b, _ := json.Marshal(map[string]any{"verdict": "failure", "confidence": 0.5, "evidence": huge})
		return string(b)
	}
	l := testLake(t, []*Source{oneEpisodeLake(t)}, []string{E1Final})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "c", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
		Backend: &Anthropic{HTTPOptions{BaseURL: api.srv.URL}}, Timeout: 60e9})
	if err != nil || sum.Verdicts != 1 {
		t.Fatalf("%v %+v", err, sum)
	}
	v := verdictRows(t, l)[0]
	var extra struct{ Evidence string }
	if err := json.Unmarshal([]byte(v.Extra), &extra); err != nil {
		t.Fatal(err)
	}
	if len(extra.Evidence) > maxRaw+len(truncatedNote) || !strings.HasSuffix(extra.Evidence, truncatedNote) || !strings.HasPrefix(extra.Evidence, "éé") || strings.ContainsRune(extra.Evidence, '\uFFFD') {
		t.Errorf("stored evidence of %d bytes: %.40q…", len(extra.Evidence), extra.Evidence)
	}
	var size int64
	filepath.WalkDir(filepath.Join(l.Root(), "verdicts"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, _ := d.Info()
			size += info.Size()
		}
		return nil
	})
	if size > 64<<10 {
		t.Errorf("verdicts files hold %d bytes for one verdict", size)
	}
}
