package lake

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// writeLock is an exclusive flock on _manifest/lock. The kernel drops it
// when the process dies, so a killed writer never leaves the lake locked.
type writeLock struct{ f *os.File }

func (l *Lake) lock(ctx context.Context) (*writeLock, error) {
	name := filepath.Join(l.root, manifestDir, "lock")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	deadline := time.Now().Add(l.opts.LockTimeout)
	delay := 10 * time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &writeLock{f: f}, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w: waited %s for %s", ErrLocked, l.opts.LockTimeout, name)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		if delay < 200*time.Millisecond {
			delay *= 2
		}
	}
}

func (w *writeLock) release() {
	syscall.Flock(int(w.f.Fd()), syscall.LOCK_UN)
	w.f.Close()
}
