package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalStopsLongCommands: metrics ignored SIGINT during the bootstrap
// (a run with many resamples finished with exit 0 after two SIGINTs), and
// ingest of a FIFO hung holding the lock. SIGINT and SIGTERM now stop them
// with exit 130. The bootstrap asked for here (10^6 resamples for each
// stratum row) runs for about 2 s on an idle 2-core machine (7 s before the
// packed bootstrap), the lake's reads about 0.2 s, so the signal lands in
// the resampling or in the percentiles after it; both must stop (a signal
// in the percentiles once went unnoticed: exit 0 and the whole output).
// The 60 s guard only catches a command that ignores the signal.
func TestSignalStopsLongCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a lake and runs metrics")
	}
	dir := t.TempDir()
	lakeDir := filepath.Join(dir, "lake")
	data := filepath.Join(dir, "data")
	for _, args := range [][]string{
		{"gen", "--out", data, "--tasks", "150", "--episodes-per-task", "3", "--no-episodes", "--single-verdicts-file"},
		{"ingest", "verdicts", filepath.Join(data, "verdicts", "verdicts.jsonl")},
		{"ingest", "episodes", filepath.Join(data, "episodes")},
	} {
		if out, err := trustlakeCmd(lakeDir, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		sig  syscall.Signal
	}{
		{"metrics SIGINT", []string{"metrics", "--json", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--bootstrap", "1000000", "--by", "category", "--by", "source"}, syscall.SIGINT},
		{"metrics SIGTERM", []string{"metrics", "--json", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--bootstrap", "1000000", "--by", "category", "--by", "source"}, syscall.SIGTERM},
		{"plan --power SIGINT", []string{"plan", "--power", "--fpr-a", "0.3", "--fpr-b", "0.29", "--n", "1000000"}, syscall.SIGINT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := trustlakeCmd(lakeDir, c.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second) // into the bootstrap
			cmd.Process.Signal(c.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
					t.Fatalf("exit %v, want %d\n%s", err, exitInterrupted, stderr.String())
				}
				if !strings.Contains(stderr.String(), "interrupted") {
					t.Errorf("stderr %q", stderr.String())
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("%v ignored %v", c.args, c.sig)
			}
		})
	}
	// The FIFO is refused at once and the lock is free.
	out, err := trustlakeCmd(lakeDir, "ingest", "verdicts", fifo).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitRejected || !bytes.Contains(out, []byte("not a regular file")) {
		t.Fatalf("ingest of a FIFO: %v\n%s", err, out)
	}
	_ = os.Remove(fifo)
}
