package queries

import (
	"strings"
	"testing"
)

// TestPerEpisodeRows: the per_episode parts that sum verdict_runs lose
// their sums and GROUP BY (each sum is over one row when the run counts
// hold one row per episode); other statements are left alone.
func TestPerEpisodeRows(t *testing.T) {
	for _, name := range []string{"metrics_cells", "metrics_episodes", "metrics_judge_conditions"} {
		q := sqlFile(name)
		got := perEpisodeRows(q)
		if got == q {
			t.Errorf("%s: not rewritten", name)
			continue
		}
		i, j := strings.Index(got, perEpisodeBegin), strings.Index(got, perEpisodeEnd)
		part := got[i:j]
		if strings.Contains(part, "sum(") || strings.Contains(part, "GROUP BY") || !strings.Contains(part, "FROM verdict_runs") {
			t.Errorf("%s: per_episode part still sums or groups:\n%s", name, part)
		}
		if got[:i] != q[:i] || got[j:] != q[strings.Index(q, perEpisodeEnd):] {
			t.Errorf("%s: rewritten outside its per_episode part", name)
		}
	}
	for _, name := range []string{"metrics_scores"} {
		if q := sqlFile(name); perEpisodeRows(q) != q {
			t.Errorf("%s: rewritten", name)
		}
	}
}
