package lake

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// FileEntry is one committed data file.
type FileEntry struct {
	Table     string    `json:"table"`
	Path      string    `json:"path"` // relative to the lake root, slash-separated
	Partition []string  `json:"partition,omitempty"`
	Rows      int64     `json:"rows"`
	Bytes     int64     `json:"bytes"`
	SHA256    string    `json:"sha256"`
	Committed time.Time `json:"committed"`
	// The file's key index (package keyindex). Empty for files written before
	// the index existed; a writer adds it when it next touches the partition.
	Keys       string `json:"keys,omitempty"` // relative to the lake root
	KeysBytes  int64  `json:"keys_bytes,omitempty"`
	KeysSHA256 string `json:"keys_sha256,omitempty"`
}

// Tombstone is a file superseded by a commit, kept for running readers
// until its grace period ends.
type Tombstone struct {
	Path    string    `json:"path"`
	Removed time.Time `json:"removed"`
}

// Manifest is the committed state of the lake.
type Manifest struct {
	Format     int         `json:"format"`
	Version    int64       `json:"version"` // increases by one per commit
	Updated    time.Time   `json:"updated"`
	Files      []FileEntry `json:"files"`
	Tombstones []Tombstone `json:"tombstones,omitempty"`
}

const manifestFormat = 1

func (l *Lake) manifestPath() string { return filepath.Join(l.root, manifestDir, "manifest.json") }

// ManifestDigest returns the committed manifest's version and the sha256
// of its file (hex): what a report names as its provenance.
func (l *Lake) ManifestDigest() (int64, string, error) {
	b, err := os.ReadFile(l.manifestPath())
	if err != nil {
		return 0, "", fmt.Errorf("read manifest: %w", err)
	}
	var m struct {
		Version int64 `json:"version"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return 0, "", fmt.Errorf("decode manifest: %w", err)
	}
	sum := sha256.Sum256(b)
	return m.Version, hex.EncodeToString(sum[:]), nil
}

// Manifest reads the committed manifest; an empty lake has version 0.
func (l *Lake) Manifest() (Manifest, error) {
	b, err := os.ReadFile(l.manifestPath())
	if errors.Is(err, os.ErrNotExist) {
		return Manifest{Format: manifestFormat}, nil
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("read manifest: %w", err)
	}
	m, err := DecodeManifest(b)
	if err != nil {
		return Manifest{}, fmt.Errorf("read manifest %s: %w", l.manifestPath(), err)
	}
	return m, nil
}

// DecodeManifest parses the bytes of _manifest/manifest.json, for readers
// that fetch it themselves (a Spark engine reads it from the lake's URI).
func DecodeManifest(b []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, err
	}
	if m.Format != manifestFormat {
		return Manifest{}, fmt.Errorf("format %d, this build reads %d", m.Format, manifestFormat)
	}
	return m, nil
}

// ManifestPath is the manifest's path relative to the lake root.
const ManifestPath = manifestDir + "/manifest.json"

// writeManifest replaces the manifest atomically: temp file, fsync, rename,
// fsync of the folder.
func (l *Lake) writeManifest(m Manifest) error {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	tmp := l.manifestPath() + ".tmp"
	if err := writeFileSync(tmp, b); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	l.opts.step("manifest written")
	if err := os.Rename(tmp, l.manifestPath()); err != nil {
		return fmt.Errorf("commit manifest: %w", err)
	}
	l.opts.step("manifest renamed")
	return syncDir(filepath.Dir(l.manifestPath()))
}

func writeFileSync(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDirs fsyncs the folders side by side: each fsync of a folder waits
// for a journal commit, and commits made at once are shared. It returns
// the first error after all are done.
func syncDirs(dirs map[string]bool) error {
	errs := make(chan error, len(dirs))
	for d := range dirs {
		go func() { errs <- syncDir(d) }()
	}
	var first error
	for range dirs {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
