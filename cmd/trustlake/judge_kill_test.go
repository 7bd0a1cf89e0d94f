package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestJudgeKilledAndResumed kills `trustlake judge` with SIGKILL mid-run,
// several times, then resumes: the lake is never damaged, and the resumed
// run ends with exactly one verdict per (episode, judge, condition, run).
func TestJudgeKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a judge run")
	}
	dir := t.TempDir()
	lakeDir := filepath.Join(dir, "lake")
	steps := [][]string{
		{"gen", "--out", filepath.Join(dir, "g"), "--tasks", "5", "--episodes-per-task", "2", "--screens"},
		{"ingest", "episodes", filepath.Join(dir, "g", "episodes")},
		{"evidence", "--conditions", "E1-final,E2-lastk", "--max-image-side", "64"},
	}
	for _, s := range steps {
		if out, err := trustlakeCmd(lakeDir, s...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", s, err, out)
		}
	}
	const want = 20 * 2 * 3 // episodes × conditions × runs
	judge := []string{"judge", "--backend", "exec", "--exec", `cat >/dev/null; sleep 0.05; echo '{"verdict": "failure"}'`,
		"--judge", "sim:slow", "--runs", "3", "--conditions", "E1-final,E2-lastk", "--concurrency", "4", "--batch-rows", "3", "--batch-interval", "50ms"}
	last := int64(-1)
	for _, delay := range []time.Duration{150 * time.Millisecond, 300 * time.Millisecond, 450 * time.Millisecond} {
		cmd := trustlakeCmd(lakeDir, judge...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		werr := cmd.Wait()
		l, err := lake.Open(lakeDir, runcounts.With(lake.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := l.Check(t.Context())
		if err != nil || rep.Damaged() {
			t.Fatalf("after kill at %s: %v %+v", delay, err, rep.Problems)
		}
		n := rep.Rows[lake.Verdicts]
		if n < last || n > want {
			t.Fatalf("after kill at %s: %d verdicts (had %d)", delay, n, last)
		}
		t.Logf("kill at %s (%v): %d of %d verdicts committed", delay, werr, n, want)
		last = n
	}
	out, err := trustlakeCmd(lakeDir, judge...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "already in the lake") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	l, _ := lake.Open(lakeDir, runcounts.With(lake.Options{}))
	seen := map[string]int{}
	if err := lake.ReadTable[schema.Verdict](l, lake.Verdicts, func(rows []schema.Verdict) error {
		for _, v := range rows {
			seen[v.EpisodeID+"/"+v.Judge+"/"+v.Condition+"/"+string(rune('0'+v.Run))]++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != want {
		t.Errorf("%d distinct keys, want %d", len(seen), want)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s: %d verdicts", k, n)
		}
	}
	rep, _ := l.Check(t.Context())
	if rep.Rows[lake.Verdicts] != want {
		t.Errorf("%d verdict rows, want %d", rep.Rows[lake.Verdicts], want)
	}
}
