package ingest_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
)

// smallDisk mounts a tmpfs of size on a new folder, or skips: mounting
// needs root.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a %s tmpfs (mount needs root): %v %s", size, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// verdictsFile writes n verdict lines of judge j whose ids (all new: they
// name the file) and confidences do not compress much.
func verdictsFile(t *testing.T, n int, j string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), j+".jsonl")
	tag := filepath.Base(filepath.Dir(p))
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	x := uint64(88172645463325252)
	for i := range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		fmt.Fprintf(w, `{"episode_id":"ep_%s_%016x_%d","judge":"%s","condition":"E1-final","run":1,"verdict":"success","confidence":0.%d}`+"\n", tag, x, i, j, x%1000000007)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// checkIntact wants the lake at dir, opened afresh, at manifest version
// and with rows verdicts, and no problem in lake check.
func checkIntact(t *testing.T, dir string, version, rows int64) {
	t.Helper()
	l, err := lake.Open(dir, runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := l.Check(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || rep.Version != version || rep.Rows[lake.Verdicts] != rows {
		t.Errorf("lake check: version %d (want %d), %d verdicts (want %d), problems %+v", rep.Version, version, rep.Rows[lake.Verdicts], rows, rep.Problems)
	}
}

// fill writes a file on dir's file system until it is full.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return p
		}
	}
}

// TestFullDisk: when the lake's disk fills up during ingest or compact,
// the command fails with the system's reason and the lake keeps its
// previous state (lake check clean, same manifest version and rows).
func TestFullDisk(t *testing.T) {
	dir := filepath.Join(smallDisk(t, "2m"), "lake")
	l, err := lake.Open(dir, runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // three files in one partition, for compact
		if _, err := ingest.Verdicts(t.Context(), l, []string{verdictsFile(t, 10+i, "j")}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	m, _ := l.Manifest()
	version, rows := m.Version, int64(33)

	_, err = ingest.Verdicts(t.Context(), l, []string{verdictsFile(t, 200_000, "big")}, ingest.Options{})
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("ingest on a full disk: %v, want no space left on device", err)
	}
	t.Logf("ingest: %v", err)
	checkIntact(t, dir, version, rows)

	filler := fill(t, filepath.Dir(dir))
	_, err = lake.Compact(t.Context(), l, lake.Verdicts)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("compact on a full disk: %v, want no space left on device", err)
	}
	t.Logf("compact: %v", err)
	checkIntact(t, dir, version, rows)
	os.Remove(filler)
	if _, err := lake.Compact(t.Context(), l, lake.Verdicts); err != nil {
		t.Fatalf("compact once there is room: %v", err)
	}
	checkIntact(t, dir, version+1, rows)
}

// TestWritersAtOnce: ingest and compact on one lake from two handles. Run
// together, each waits for the other's lock and both succeed; while one
// holds the lock past the other's --lock-timeout, the other fails with
// ErrLocked and changes nothing.
func TestWritersAtOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lake")
	a, _ := lake.Open(dir, runcounts.With(lake.Options{}))
	b, _ := lake.Open(dir, runcounts.With(lake.Options{LockTimeout: 30 * time.Second}))
	for i := range 3 {
		if _, err := ingest.Verdicts(t.Context(), a, []string{verdictsFile(t, 1000+i, fmt.Sprint("j", i%2))}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	big := verdictsFile(t, 50_000, "k")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { _, errs[0] = ingest.Verdicts(t.Context(), a, []string{big}, ingest.Options{}) })
	wg.Go(func() { _, errs[1] = lake.Compact(t.Context(), b, lake.Verdicts) })
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("ingest: %v; compact: %v", errs[0], errs[1])
	}
	m, _ := a.Manifest()
	checkIntact(t, dir, m.Version, 3003+50_000)

	tx, err := a.Begin(t.Context()) // a writer that holds the lock
	if err != nil {
		t.Fatal(err)
	}
	short, _ := lake.Open(dir, runcounts.With(lake.Options{LockTimeout: 200 * time.Millisecond}))
	start := time.Now()
	_, err = ingest.Verdicts(t.Context(), short, []string{verdictsFile(t, 10, "late")}, ingest.Options{})
	if !errors.Is(err, lake.ErrLocked) || !strings.Contains(err.Error(), "lake is locked by another writer") {
		t.Errorf("ingest while locked: %v, want ErrLocked", err)
	}
	if _, err := lake.Compact(t.Context(), short, lake.Verdicts); !errors.Is(err, lake.ErrLocked) {
		t.Errorf("compact while locked: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("gave up after %s, want about the 200ms lock timeout", d)
	}
	tx.Rollback()
	checkIntact(t, dir, m.Version, 3003+50_000)
}
