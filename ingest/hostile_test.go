package ingest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/schema"
)

// rejectedWith runs fn and wants it rejected with one record error that
// contains want; it also fails when fn does not return within 10 s.
func rejectedWith(t *testing.T, want string, fn func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	err := fn(ctx)
	if ctx.Err() != nil {
		t.Fatalf("did not return before the deadline: %v", err)
	}
	var rej *ingest.Rejected
	if !errors.As(err, &rej) {
		t.Fatalf("want *ingest.Rejected, got %v", err)
	}
	if !strings.Contains(rej.Errors.Error(), want) {
		t.Fatalf("got %q, want it to mention %q", rej.Errors.Error(), want)
	}
}

// TestNonRegularInputsRefused: /dev/zero, a FIFO without a writer and a
// symlink to /dev/zero inside an episode used to hang ingest (holding the
// writer lock) and ignore signals.
func TestNonRegularInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "v.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	l := seedLake(t)
	for _, name := range []string{"/dev/zero", fifo} {
		rejectedWith(t, "not a regular file", func(ctx context.Context) error {
			_, err := ingest.Verdicts(ctx, l, []string{name}, ingest.Options{})
			return err
		})
		rejectedWith(t, "not a regular file", func(ctx context.Context) error {
			_, err := ingest.Labels(ctx, l, []string{name}, ingest.Options{})
			return err
		})
		rejectedWith(t, "not a regular file", func(ctx context.Context) error {
			_, err := ingest.Results(ctx, l, []string{name}, ingest.Options{})
			return err
		})
		rejectedWith(t, "not a regular file", func(ctx context.Context) error {
			_, err := ingest.TauBench(ctx, l, []string{name}, ingest.TauBenchOptions{}, ingest.Options{})
			return err
		})
	}
	for _, file := range []string{"actions.jsonl", "gt.json"} {
		ep := filepath.Join(t.TempDir(), "ep1")
		os.MkdirAll(ep, 0o755)
		os.WriteFile(filepath.Join(ep, "meta.json"), []byte(`{"episode_id":"ep1","task_id":"t","agent":"a"}`), 0o644)
		os.Symlink("/dev/zero", filepath.Join(ep, file))
		rejectedWith(t, "symlinks are not followed", func(ctx context.Context) error {
			_, err := ingest.Episodes(ctx, l, []string{ep}, ingest.Options{})
			return err
		})
	}
	ep := filepath.Join(t.TempDir(), "ep1")
	os.MkdirAll(ep, 0o755)
	os.WriteFile(filepath.Join(ep, "meta.json"), []byte(`{"episode_id":"ep1","task_id":"t","agent":"a"}`), 0o644)
	syscall.Mkfifo(filepath.Join(ep, "actions.jsonl"), 0o644)
	rejectedWith(t, "not a regular file (a FIFO)", func(ctx context.Context) error {
		_, err := ingest.Episodes(ctx, l, []string{ep}, ingest.Options{})
		return err
	})
	// The lock was released: the next ingest goes through.
	f := filepath.Join(t.TempDir(), "ok.jsonl")
	os.WriteFile(f, []byte(`{"episode_id":"e2","judge":"j","condition":"E1-final","run":1,"verdict":"success"}`+"\n"), 0o644)
	if _, err := ingest.Verdicts(t.Context(), l, []string{f}, ingest.Options{}); err != nil {
		t.Fatalf("ingest after the refusals: %v", err)
	}
}

// TestSymlinkedScreensFolder: a screens/ folder symlinked to /etc made
// ingest hash /etc/passwd into the actions table.
func TestSymlinkedScreensFolder(t *testing.T) {
	ep := filepath.Join(t.TempDir(), "ep1")
	os.MkdirAll(ep, 0o755)
	os.WriteFile(filepath.Join(ep, "meta.json"), []byte(`{"episode_id":"ep1","task_id":"t","agent":"a"}`), 0o644)
	os.WriteFile(filepath.Join(ep, "actions.jsonl"), []byte(`{"step":1,"action":"click","screen":"screens/passwd"}`+"\n"), 0o644)
	if err := os.Symlink("/etc", filepath.Join(ep, "screens")); err != nil {
		t.Fatal(err)
	}
	rejectedWith(t, `screen: unsafe path: "screens" is a symlink`, func(ctx context.Context) error {
		_, err := ingest.Episodes(ctx, seedLake(t), []string{ep}, ingest.Options{})
		return err
	})
}

// TestCSVRecordCapped: a 100 MB CSV field peaked at 1.9 GB; a record longer
// than MaxLineBytes is now refused after reading about that much.
func TestCSVRecordCapped(t *testing.T) {
	f := filepath.Join(t.TempDir(), "l.csv")
	big := strings.Repeat("x", 8<<20)
	os.WriteFile(f, []byte("episode_id,category\nep1,F-ABORT\nep2,\""+big+"\"\nep3,F-ABORT\n"), 0o644)
	_, err := ingest.Labels(t.Context(), seedLake(t), []string{f}, ingest.Options{MaxLineBytes: 1 << 20})
	var rej *ingest.Rejected
	if !errors.As(err, &rej) || len(rej.Errors) != 1 || !errors.Is(rej.Errors[0], schema.ErrTooLong) || rej.Errors[0].Line != 3 {
		t.Fatalf("got %v", err)
	}
}

// TestCancelledReadStops: a read loop stops once the context is done.
func TestCancelledReadStops(t *testing.T) {
	f := filepath.Join(t.TempDir(), "v.jsonl")
	line := `{"episode_id":"e","judge":"j","condition":"E1-final","run":1,"verdict":"success"}` + "\n"
	os.WriteFile(f, []byte(strings.Repeat(line, 1000)), 0o644)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ingest.Verdicts(ctx, seedLake(t), []string{f}, ingest.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
