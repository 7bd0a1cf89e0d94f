package lake

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// Tx is one write transaction: it holds the lake's lock from Begin until
// Commit or Rollback. Nothing it writes is visible before Commit. A Tx is
// not safe for concurrent use.
type Tx struct {
	l        *Lake
	lock     *writeLock
	base     Manifest
	added    []FileEntry
	staged   []stagedFile
	removed  map[string]bool
	upgraded map[string]FileEntry // old data files given a key index, by path
	abort    []func()             // stop encoding goroutines of files still open
	done     bool
}

type stagedFile struct{ tmp, final string }

// Begin starts a write transaction, waiting up to Options.LockTimeout for
// the lock (then ErrLocked). It removes files left by a crashed writer.
func (l *Lake) Begin(ctx context.Context) (*Tx, error) {
	lk, err := l.lock(ctx)
	if err != nil {
		return nil, err
	}
	m, err := l.Manifest()
	if err != nil {
		lk.release()
		return nil, err
	}
	tx := &Tx{l: l, lock: lk, base: m, removed: map[string]bool{}, upgraded: map[string]FileEntry{}}
	if err := tx.cleanOrphans(); err != nil {
		lk.release()
		return nil, err
	}
	return tx, nil
}

// live returns the paths a reader or the manifest may still need: data
// files, their key index files, and tombstones within their grace period.
func (m Manifest) live(grace time.Duration) map[string]bool {
	live := map[string]bool{}
	for _, f := range m.Files {
		live[f.Path] = true
		if f.Keys != "" {
			live[f.Keys] = true
		}
	}
	for _, t := range m.Tombstones {
		if time.Since(t.Removed) < grace {
			live[t.Path] = true
		}
	}
	return live
}

// cleanOrphans deletes data and key files not in the manifest (left by a
// crashed writer; safe because we hold the lock) and tombstones past their
// grace.
func (tx *Tx) cleanOrphans() error {
	tx.base.Tombstones = slices.DeleteFunc(tx.base.Tombstones, func(t Tombstone) bool {
		return time.Since(t.Removed) >= tx.l.opts.TombstoneGrace
	})
	orphans, err := tx.l.orphans(tx.base.live(tx.l.opts.TombstoneGrace))
	if err != nil {
		return err
	}
	for _, o := range orphans {
		tx.l.opts.Logger.Info("remove orphan file", "path", o)
		if err := os.Remove(filepath.Join(tx.l.root, filepath.FromSlash(o))); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove orphan %s: %w", o, err)
		}
	}
	tx.l.removeEmptyDirs()
	return nil
}

// orphans lists files under table folders and _keys that are not in live.
func (l *Lake) orphans(live map[string]bool) ([]string, error) {
	var out []string
	for _, name := range lakeDirs(keyindex.Dir, supersededDir, stagingDir) {
		dir := filepath.Join(l.root, name)
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(l.root, p)
			rel = filepath.ToSlash(rel)
			if !live[rel] {
				out = append(out, rel)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", dir, err)
		}
	}
	return out, nil
}

// stage registers a file written as tmp, to be renamed to final at Commit.
func (tx *Tx) stage(tmp, final string) {
	tx.staged = append(tx.staged, stagedFile{tmp: tmp, final: final})
}

// addKeys writes the key index of an old data file that has none; the
// manifest records it at Commit.
func (tx *Tx) addKeys(f FileEntry, entries []keyindex.Entry) error {
	rel := keyindex.Path(f.Path)
	final := filepath.Join(tx.l.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", keyindex.Dir, err)
	}
	tx.stage(final+".tmp", final)
	n, sum, err := keyindex.WriteFile(final+".tmp", entries)
	if err != nil {
		return fmt.Errorf("write key index %s: %w", rel, err)
	}
	f.Keys, f.KeysBytes, f.KeysSHA256 = rel, n, hex.EncodeToString(sum)
	tx.upgraded[f.Path] = f
	return nil
}

// Commit makes every file written in the transaction visible at once and
// releases the lock. After Commit, Rollback does nothing.
func (tx *Tx) Commit() error {
	if tx.done {
		return fmt.Errorf("commit: transaction already finished")
	}
	if len(tx.added) == 0 && len(tx.removed) == 0 && len(tx.upgraded) == 0 {
		tx.Rollback() // nothing to publish: leave no staged file behind
		return nil
	}
	step := tx.l.opts.step
	step("files written")
	dirs := map[string]bool{}
	for i, s := range tx.staged {
		if err := os.MkdirAll(filepath.Dir(s.final), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(s.final), err)
		}
		if err := os.Rename(s.tmp, s.final); err != nil {
			return fmt.Errorf("rename %s: %w", s.tmp, err)
		}
		dirs[filepath.Dir(s.final)] = true
		if i == 0 {
			step("first file renamed")
		}
	}
	step("files renamed")
	if err := syncDirs(dirs); err != nil {
		return err
	}
	step("folders synced")
	m := tx.base
	m.Version++
	m.Updated = time.Now().UTC()
	files := make([]FileEntry, 0, len(m.Files)+len(tx.added))
	var dropKeys, moved []string
	for _, f := range m.Files {
		if up, ok := tx.upgraded[f.Path]; ok {
			f = up
		}
		if tx.removed[f.Path] {
			m.Tombstones = append(m.Tombstones, Tombstone{Path: supersededPath(f.Path), Removed: m.Updated})
			moved = append(moved, f.Path)
			if f.Keys != "" {
				dropKeys = append(dropKeys, f.Keys) // readers never read key files
			}
			continue
		}
		files = append(files, f)
	}
	m.Files = append(files, tx.added...)
	if err := tx.l.writeManifest(m); err != nil {
		return err
	}
	step("manifest synced")
	for i, rel := range moved {
		tx.l.moveSuperseded(rel)
		if i == 0 {
			step("first superseded file moved")
		}
	}
	for i, k := range dropKeys {
		os.Remove(filepath.Join(tx.l.root, filepath.FromSlash(k))) // an orphan if this fails; the next writer removes it
		if i == 0 {
			step("first superseded index removed")
		}
	}
	tx.finish()
	return nil
}

// Rollback discards everything written in the transaction and releases the
// lock. It is safe to call after Commit (it then does nothing).
func (tx *Tx) Rollback() {
	if tx.done {
		return
	}
	for _, stop := range tx.abort {
		stop()
	}
	for _, s := range tx.staged {
		os.Remove(s.tmp)
		os.Remove(s.final)
		tx.l.removeEmptyParents(filepath.Dir(s.final))
	}
	tx.finish()
}

func (tx *Tx) finish() {
	tx.done = true
	tx.lock.release()
}

// remove marks a committed file as superseded by this transaction, with
// its companion if it has one.
func (tx *Tx) remove(rel string) {
	tx.removed[rel] = true
	if c, ok := companionPath(rel); ok {
		tx.removed[c] = true
	}
}

// partitionFiles returns the committed files of one partition of a table.
func (tx *Tx) partitionFiles(t Table, values []string) []FileEntry {
	want := strings.Join(values, "\x00")
	var out []FileEntry
	for _, f := range tx.base.Files {
		if f.Table == t.Name && strings.Join(f.Partition, "\x00") == want && !tx.removed[f.Path] {
			out = append(out, f)
		}
	}
	return out
}

// spillDir is where a transaction's spill files go (unlinked at once).
func (tx *Tx) spillDir() string { return filepath.Join(tx.l.root, stagingDir) }

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
