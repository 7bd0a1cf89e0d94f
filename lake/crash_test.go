package lake_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// commitSteps are the steps of a commit at which the crash test kills the
// writer (see Tx.Commit and writeManifest).
var commitSteps = []string{
	"files written", "first file renamed", "files renamed", "folders synced",
	"manifest written", "manifest renamed", "manifest synced", "first superseded index removed",
}

// crashBatch is the write the crash test interrupts, on a copy of
// testdata/oldlake: it replaces stored rows (old files rewritten, their
// index dropped), adds rows to stored and new partitions, and gives the
// old files of the touched partitions their first key index.
func crashBatch() []schema.Verdict {
	first, _ := oldLayoutVerdicts()
	var rows []schema.Verdict
	for i := 0; i < 3; i++ {
		v := first[i]
		s := "parse_error"
		v.Verdict, v.Score, v.SrcFile, v.SrcLine = &s, nil, "crash.jsonl", int64(i+1)
		rows = append(rows, v)
	}
	for i := 0; i < 50; i++ {
		rows = append(rows, verdict(fmt.Sprintf("new_%02d", i), []string{"sim:vlm-a", "new judge"}[i%2], "E1-final", 1, "failure", int64(10+i)))
	}
	return rows
}

func writeCrashBatch(t *testing.T, l *lake.Lake) {
	st, errs := write(t, l, lake.WriterOptions{Replace: true}, crashBatch()...)
	if len(errs) > 0 || st.Replaced != 3 || st.Added != 50 {
		t.Fatalf("crash batch: %+v %v", st, errs)
	}
}

// TestCrashChild is the writer the crash test kills; it runs only as a
// child of TestKillAtEveryCommitStep.
func TestCrashChild(t *testing.T) {
	dir, step := os.Getenv("LAKE_CRASH_DIR"), os.Getenv("LAKE_CRASH_STEP")
	if dir == "" {
		t.Skip("runs as a child of TestKillAtEveryCommitStep")
	}
	l, err := lake.Open(dir, lake.WithStepHook(runcounts.With(lake.Options{}), func(s string) {
		if s == step {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	writeCrashBatch(t, l)
}

func verdictState(t *testing.T, l *lake.Lake) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, v := range rowsOf[schema.Verdict](t, l, lake.Verdicts) {
		s := "null"
		if v.Verdict != nil {
			s = *v.Verdict
		}
		out[vkey(v)] = fmt.Sprintf("%s %v %s:%d", s, v.Score != nil, v.SrcFile, v.SrcLine)
	}
	return out
}

// countsAgree checks that in every partition with run counts (those the
// crash batch touched, once committed) they count the runs of its
// verdicts, and that the batch's new partition has them (lake check
// compares each run_counts file with its verdicts file row by row).
func countsAgree(t *testing.T, l *lake.Lake, when string) {
	t.Helper()
	runs, counted := map[string]int64{}, map[string]int64{}
	for _, v := range rowsOf[schema.Verdict](t, l, lake.Verdicts) {
		runs[v.Judge+"|"+v.Condition]++
	}
	for _, c := range rowsOf[schema.RunCount](t, l, lake.RunCounts) {
		counted[c.Judge+"|"+c.Condition] += c.Runs
	}
	for k, n := range counted {
		if runs[k] != n {
			t.Errorf("%s: %s: run counts count %d runs, the verdicts are %d", when, k, n, runs[k])
		}
	}
	if runs["new judge|E1-final"] > 0 && counted["new judge|E1-final"] == 0 {
		t.Errorf("%s: the new partition has no run counts", when)
	}
}

func sameState(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestKillAtEveryCommitStep kills a writer with SIGKILL at every step of a
// commit (data and key files written, renamed, folders synced, manifest
// written, renamed, synced, superseded indexes removed). Each time the lake
// must hold exactly the old or the new rows, lake check must find no damage
// in data, index or run counts (the batch's run_counts files and those of
// the old files it upgrades are part of the same commit), the run counts
// must sum to the verdicts, and the next write must succeed and leave no
// orphan.
func TestKillAtEveryCommitStep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per commit step")
	}
	ref, _ := lake.Open(lakecopy.Copy(t, "testdata/oldlake"), runcounts.With(lake.Options{}))
	before := verdictState(t, ref)
	writeCrashBatch(t, ref)
	after := verdictState(t, ref)
	for _, step := range commitSteps {
		t.Run(step, func(t *testing.T) {
			dir := lakecopy.Copy(t, "testdata/oldlake")
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "LAKE_CRASH_DIR="+dir, "LAKE_CRASH_STEP="+step)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("writer not killed at %q: %v\n%s", step, err, out)
			}
			l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
			rep, err := l.Check(t.Context())
			if err != nil || rep.Damaged() {
				t.Fatalf("after kill: damaged: %+v %v", rep.Problems, err)
			}
			countsAgree(t, l, "after kill")
			got := verdictState(t, l)
			switch {
			case sameState(got, before):
				t.Logf("old state, %d leftovers", len(rep.Problems))
			case sameState(got, after):
				t.Logf("new state, %d leftovers", len(rep.Problems))
			default:
				t.Fatalf("after kill: %d rows, neither the old (%d) nor the new (%d) state", len(got), len(before), len(after))
			}
			// The next writer completes and cleans up.
			_, errs := write(t, l, lake.WriterOptions{Replace: true}, crashBatch()...)
			if len(errs) > 0 {
				t.Fatalf("next write: %v", errs)
			}
			if got := verdictState(t, l); !sameState(got, after) {
				t.Fatalf("after the next write: not the new state")
			}
			countsAgree(t, l, "after the next write")
			rep, _ = l.Check(t.Context())
			for _, p := range rep.Problems {
				if p.Damage || p.Kind == "orphan" {
					t.Errorf("after the next write: %+v", p)
				}
			}
		})
	}
}
