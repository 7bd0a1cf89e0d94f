package judge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/trustlake/trustlake/lake"
)

// StoreDir is the folder, inside the lake root, of the pack files.
const StoreDir = "_evidence"

// Store keeps packs content-addressed: <lake>/_evidence/<sha[:2]>/<sha>.json.
// A pack file is written once (temporary file, then rename) and never
// changed; the evidence table says which pack belongs to which episode.
// It is safe for concurrent use.
type Store struct{ dir string }

// NewStore returns the pack store of a lake.
func NewStore(l *lake.Lake) *Store { return &Store{dir: filepath.Join(l.Root(), StoreDir)} }

func (s *Store) path(sha string) string { return filepath.Join(s.dir, sha[:2], sha+".json") }

// Put stores data under its sha256 and reports whether the file is new.
// Files are not fsynced one by one (that would dominate pack building): a
// file torn by a crash fails Get's hash check, and the next Put of the same
// pack rewrites it.
func (s *Store) Put(sha string, data []byte) (bool, error) {
	name := s.path(sha)
	if old, err := os.ReadFile(name); err == nil && SHA256Hex(old) == sha {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return false, fmt.Errorf("store pack: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".pack-*")
	if err != nil {
		return false, fmt.Errorf("store pack: %w", err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		os.Remove(f.Name())
		return false, fmt.Errorf("store pack %s: %w", sha, werr)
	}
	return true, nil
}

// Get returns the pack stored under sha, checking its hash.
func (s *Store) Get(sha string) ([]byte, error) {
	if len(sha) != 64 {
		return nil, fmt.Errorf("%w: bad pack hash %q", ErrNoPack, sha)
	}
	data, err := os.ReadFile(s.path(sha))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w %s in %s (run `trustlake evidence` again)", ErrNoPack, sha, s.dir)
	}
	if err != nil {
		return nil, err
	}
	if got := SHA256Hex(data); got != sha {
		return nil, fmt.Errorf("pack %s is damaged (its sha256 is %s)", s.path(sha), got)
	}
	return data, nil
}

// Holds reports whether the pack stored under sha holds any of texts
// (Pack.Holds): the content check of checklist item evidence_leakage.
func (s *Store) Holds(sha string, texts ...string) (bool, error) {
	data, err := s.Get(sha)
	if err != nil {
		return false, err
	}
	p, err := DecodePack(data)
	if err != nil {
		return false, fmt.Errorf("pack %s: %w", sha, err)
	}
	return slices.ContainsFunc(texts, p.Holds), nil
}
