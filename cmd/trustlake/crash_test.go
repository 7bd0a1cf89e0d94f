package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
)

// TestCrashDuringIngest kills `trustlake ingest verdicts` with SIGKILL at
// several moments of a large write, then checks that the lake is readable
// and holds either the old or the new content, never a mix, and that the
// next ingest completes.
func TestCrashDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and kills a large ingest")
	}
	dir := t.TempDir()
	lakeDir := filepath.Join(dir, "lake")
	// A first batch that commits, then a large second batch to interrupt.
	small := writeVerdicts(t, filepath.Join(dir, "small.jsonl"), "small", 1000)
	big := writeVerdicts(t, filepath.Join(dir, "big.jsonl"), "big", 400000)
	if out, err := trustlakeCmd(lakeDir, "ingest", "verdicts", small).CombinedOutput(); err != nil {
		t.Fatalf("first ingest: %v\n%s", err, out)
	}
	for _, delay := range []time.Duration{20 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, 1500 * time.Millisecond} {
		cmd := trustlakeCmd(lakeDir, "ingest", "verdicts", big)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		l, oerr := lake.Open(lakeDir, runcounts.With(lake.Options{}))
		if oerr != nil {
			t.Fatal(oerr)
		}
		rep, cerr := l.Check(t.Context())
		if cerr != nil {
			t.Fatal(cerr)
		}
		if rep.Damaged() {
			t.Fatalf("after kill at %s: damaged: %+v", delay, rep.Problems)
		}
		n := rep.Rows[lake.Verdicts]
		if n != 1000 && n != 401000 {
			t.Fatalf("after kill at %s: %d verdict rows, want 1000 (old) or 401000 (new)", delay, n)
		}
		t.Logf("kill at %s (exit %v): %d rows, %d leftover files", delay, err, n, len(rep.Problems))
		if n == 401000 {
			break // the ingest finished before the kill
		}
	}
	out, err := trustlakeCmd(lakeDir, "ingest", "verdicts", big).CombinedOutput()
	if err != nil {
		t.Fatalf("ingest after crashes: %v\n%s", err, out)
	}
	l, _ := lake.Open(lakeDir, runcounts.With(lake.Options{}))
	rep, _ := l.Check(t.Context())
	if rep.Damaged() || rep.Rows[lake.Verdicts] != 401000 || len(rep.Problems) != 0 {
		t.Fatalf("final state: %+v", rep)
	}
}

func trustlakeCmd(lakeDir string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"--lake", lakeDir}, args...)...)
	cmd.Env = append(os.Environ(), "TRUSTLAKE_AS_MAIN=1")
	return cmd
}

func writeVerdicts(t *testing.T, name, prefix string, n int) string {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	conds := []string{"E1-final", "E2-lastk", "E3-full", "E2+claim"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"episode_id":"%s-%d","judge":"sim:j%d","condition":"%s","run":1,"verdict":"success","confidence":0.5}`+"\n",
			prefix, i, i%3, conds[i%4])
	}
	w.Flush()
	f.Close()
	return name
}
