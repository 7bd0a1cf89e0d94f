package judge

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

func writeRows[T any](t *testing.T, l *lake.Lake, table string, rows []T) {
	t.Helper()
	tx, err := l.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[T](tx, table, lake.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if _, err := w.Add(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// LoadSources joins the lake's tables into sources: task text from the
// library, meta.json or the result; secrets from ground truth, labels and
// the episode; results without a trajectory are left out.
func TestLoadSources(t *testing.T) {
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	parent, recipe, cat := "ep-parent", "skip_save", schema.CatUncommitted
	writeRows(t, l, lake.Episodes, []schema.Episode{
		{EpisodeID: "ep-meta", TaskID: "t1", Source: "natural", Agent: "a", Dir: "/x", Extra: `{"instruction":"from meta"}`},
		{EpisodeID: "ep-lib", TaskID: "t2", Source: "perturbed", Agent: "a", Dir: "/y", Extra: `{}`, ParentEpisodeID: &parent, Perturbation: &recipe},
	})
	writeRows(t, l, lake.Results, []schema.Result{
		{ResultID: "r1", Benchmark: "b", TaskID: "t3", Agent: "a", EpisodeID: sp("chat-1"), Instruction: sp("from result"), Grader: "{}", Extra: "{}"},
		{ResultID: "r2", Benchmark: "b", TaskID: "t3", Agent: "a", Trial: 1, EpisodeID: sp("no-trajectory"), Instruction: sp("x"), Grader: "{}", Extra: "{}"},
	})
	writeRows(t, l, lake.Actions, []schema.Action{
		{EpisodeID: "chat-1", Agent: "a", Step: 1, Role: sp("user"), Text: sp("hi"), Extra: "{}"},
		{EpisodeID: "chat-1", Agent: "a", Step: 0, Role: sp("system"), Text: sp("policy"), Extra: "{}"},
	})
	writeRows(t, l, lake.GroundTruth, []schema.GroundTruth{
		{EpisodeID: "ep-lib", VerifierSHA256: strings.Repeat("c", 64), Category: &cat, Diagnostics: `{"error":"target file missing"}`, Gates: "[]"},
	})
	writeRows(t, l, lake.Labels, []schema.Label{{EpisodeID: "ep-meta", CategoryRaw: "looks-unsaved"}})

	srcs, err := LoadSources(l, LoadOptions{TaskTexts: map[string]string{"t2": "from library"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Source{}
	for _, s := range srcs {
		got[s.EpisodeID] = s
	}
	if len(srcs) != 3 || got["no-trajectory"] != nil {
		t.Fatalf("sources %v", got)
	}
	if got["ep-meta"].TaskText != "from meta" || got["ep-lib"].TaskText != "from library" || got["chat-1"].TaskText != "from result" {
		t.Errorf("task texts %q %q %q", got["ep-meta"].TaskText, got["ep-lib"].TaskText, got["chat-1"].TaskText)
	}
	if a := got["chat-1"].Actions; len(a) != 2 || a[0].Step != 0 {
		t.Errorf("chat actions not sorted by step: %+v", a)
	}
	sec := got["ep-lib"].Secrets
	if sec.Source != "perturbed" || sec.ParentEpisodeID != parent || sec.Perturbation != recipe || !contains(sec.Categories, cat) ||
		!contains(sec.VerifierOutput, "target file missing") || !contains(sec.VerifierOutput, strings.Repeat("c", 64)) {
		t.Errorf("secrets %+v", sec)
	}
	if !contains(got["ep-meta"].Secrets.Categories, "looks-unsaved") {
		t.Errorf("label category not a secret: %+v", got["ep-meta"].Secrets)
	}
	if _, err := LoadSources(l, LoadOptions{Episodes: map[string]bool{"nope": true}}); err == nil || !strings.Contains(err.Error(), "episode nope: episode_id: not in the lake") {
		t.Errorf("unknown episode: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
