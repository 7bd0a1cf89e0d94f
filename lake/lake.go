package lake

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Sentinel errors; check them with errors.Is.
var (
	ErrNoTable  = errors.New("no such table")
	ErrLocked   = errors.New("lake is locked by another writer")
	ErrNotALake = errors.New("not a trustlake lake")
	ErrConflict = errors.New("natural key conflict")
)

// Options configure a Lake. Zero values mean the defaults.
type Options struct {
	RowGroupRows   int           // rows per Parquet row group; 0 means 131072
	RowGroupBytes  int64         // a row group is also cut once its buffered bytes exceed this; 0 means 32 MiB
	FileRows       int           // rows per data file before rolling to a new file; 0 means 4194304
	LockTimeout    time.Duration // how long a writer waits for the lock; 0 means 30s
	TombstoneGrace time.Duration // how long superseded files stay for readers; 0 means 1h
	Logger         *slog.Logger  // nil discards
	// Companions compute the companion files of the tables that have them
	// (runcounts.With sets the run_counts one); without a table's
	// companion the lake refuses to write the table.
	Companions []Companion

	step func(name string) // test hook: called at each step of a commit (crash tests)
}

func (o *Options) applyDefaults() {
	orDefault(&o.RowGroupRows, 131072)
	orDefault(&o.RowGroupBytes, 32<<20)
	orDefault(&o.FileRows, 4<<20)
	orDefault(&o.LockTimeout, 30*time.Second)
	orDefault(&o.TombstoneGrace, time.Hour)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.step == nil {
		o.step = func(string) {}
	}
}

// orDefault sets *p to d when it is zero or negative.
func orDefault[T int | int64 | time.Duration](p *T, d T) {
	if *p <= 0 {
		*p = d
	}
}

// Lake is an open lake folder. It is safe for concurrent use; writes are
// serialised by a lock file shared with other processes.
type Lake struct {
	root string
	opts Options
	// compression compresses the pages of every data file the lake
	// writes: one codec, so its pool of zstd encoders is shared by the
	// files written at once.
	compression parquet.WriterOption
}

const manifestDir = "_manifest"

// Open opens the lake at dir, creating it when absent. An existing folder
// that is neither empty nor a lake is refused with ErrNotALake.
func Open(dir string, opts Options) (*Lake, error) {
	opts.applyDefaults()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open lake: %w", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("open lake: %w", err)
	}
	if _, err := os.Stat(filepath.Join(abs, manifestDir)); errors.Is(err, os.ErrNotExist) {
		entries, err := os.ReadDir(abs)
		if err != nil {
			return nil, fmt.Errorf("open lake: %w", err)
		}
		if len(entries) > 0 {
			return nil, fmt.Errorf("open lake %s: %w (no %s folder, and the folder is not empty)", abs, ErrNotALake, manifestDir)
		}
		if err := os.MkdirAll(filepath.Join(abs, manifestDir), 0o755); err != nil {
			return nil, fmt.Errorf("open lake: %w", err)
		}
	}
	return &Lake{root: abs, opts: opts, compression: fastestZstd()}, nil
}

// fastestZstd is a compression option of a new zstd codec at the fastest
// level (parquet.Zstd itself is shared, at the default level).
func fastestZstd() parquet.WriterOption {
	return parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest})
}

// OpenExisting opens a lake for reading; it fails with ErrNotALake when dir
// holds no lake, instead of creating one.
func OpenExisting(dir string, opts Options) (*Lake, error) {
	if _, err := os.Stat(filepath.Join(dir, manifestDir)); err != nil {
		return nil, fmt.Errorf("open lake %s: %w (run `trustlake ingest ...` first)", dir, ErrNotALake)
	}
	return Open(dir, opts)
}

// Root returns the absolute lake folder.
func (l *Lake) Root() string { return l.root }

// Files returns the committed data files of a table, as absolute paths, in
// manifest order.
func (l *Lake) Files(table string) ([]string, error) {
	snap, err := l.Snapshot()
	if err != nil {
		return nil, err
	}
	return snap.Files(table)
}

// ErrChanged means a committed file on disk is not the one the manifest
// describes (another size, or gone): something wrote into the lake behind
// its back. Readers refuse to read it; `lake check` tells the damage.
var ErrChanged = errors.New("lake file differs from the manifest")

// CheckedFiles is Files after checking that each file exists with the size
// the manifest records; a difference is an error wrapping ErrChanged, so a
// reader never returns a silently wrong count.
func (s Snapshot) CheckedFiles(table string) ([]string, error) { return s.files(table, true) }

// files returns the data files of a table, checked as CheckedFiles does
// when check is set.
func (s Snapshot) files(table string, check bool) ([]string, error) {
	if _, err := LookupTable(table); err != nil {
		return nil, err
	}
	var out []string
	for _, f := range s.m.Files {
		if f.Table != table {
			continue
		}
		p := filepath.Join(s.root, filepath.FromSlash(f.Path))
		if check {
			st, err := os.Stat(p)
			switch {
			case err != nil:
				return nil, fmt.Errorf("%w: %s: %v", ErrChanged, f.Path, err)
			case st.Size() != f.Bytes:
				return nil, fmt.Errorf("%w: %s has %d bytes, the manifest says %d", ErrChanged, f.Path, st.Size(), f.Bytes)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// Snapshot is one committed version of the lake as readers see it. A query
// session takes one snapshot and builds every view from it, so a commit
// landing while the session opens never mixes versions. Files superseded
// after the snapshot stay on disk for Options.TombstoneGrace.
type Snapshot struct {
	root string
	m    Manifest
}

// Snapshot reads the committed manifest once.
func (l *Lake) Snapshot() (Snapshot, error) {
	m, err := l.Manifest()
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{root: l.root, m: m}, nil
}

// Root returns the absolute lake folder of the snapshot.
func (s Snapshot) Root() string { return s.root }

// Manifest returns the snapshot's manifest.
func (s Snapshot) Manifest() Manifest { return s.m }

// Version is the manifest version of the snapshot (0 for an empty lake).
func (s Snapshot) Version() int64 { return s.m.Version }

// Rows returns the rows of a table in this snapshot: the sum of its files'
// row counts in the manifest, which is what a scan of them counts.
func (s Snapshot) Rows(table string) int64 {
	var n int64
	for _, f := range s.m.Files {
		if f.Table == table {
			n += f.Rows
		}
	}
	return n
}

// Files returns the data files of a table in this snapshot, as absolute
// paths, in manifest order.
func (s Snapshot) Files(table string) ([]string, error) { return s.files(table, false) }
