package lake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// Problem is one finding of Check.
type Problem struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"` // missing, size, sha256, rows, unreadable, keys, orphan, no_keys, counts, no_counts
	Detail string `json:"detail"`
	Damage bool   `json:"damage"` // false for leftovers that lose nothing (orphans)
}

// CheckReport is the result of Check.
type CheckReport struct {
	Version  int64            `json:"manifest_version"`
	Files    int              `json:"files"`
	Rows     map[string]int64 `json:"rows"` // per table
	Problems []Problem        `json:"problems"`
}

// Damaged reports whether any problem loses or corrupts committed data.
func (r CheckReport) Damaged() bool {
	return slices.ContainsFunc(r.Problems, func(p Problem) bool { return p.Damage })
}

// Check verifies every committed file against the manifest: presence,
// size, sha256 and Parquet row count; and its key index: presence, size,
// sha256, and every entry against the key and content hashes recomputed
// from the rows; and the companion of every data file that has one (the
// run_counts of a verdicts file) against its rows, through its Companion
// (a full check needs the lake opened with it). Files not in the manifest are
// listed as orphans, data files written before the key index as no_keys,
// verdicts files written before run_counts as no_counts (none of these is
// damage). Check never modifies the lake.
func (l *Lake) Check(ctx context.Context) (CheckReport, error) {
	return l.check(ctx, true)
}

// CheckSizes is the cheap part of Check: every committed file and key
// index is present with the manifest's size, and orphans are listed. It
// reads no file's contents (no sha256, no Parquet row count, no key
// entries), so it costs one stat per file; Check does the full
// verification.
func (l *Lake) CheckSizes(ctx context.Context) (CheckReport, error) {
	return l.check(ctx, false)
}

func (l *Lake) check(ctx context.Context, full bool) (CheckReport, error) {
	m, err := l.Manifest()
	if err != nil {
		return CheckReport{}, err
	}
	rep := CheckReport{Version: m.Version, Files: len(m.Files), Rows: map[string]int64{}, Problems: []Problem{}}
	live := m.live(1 << 62) // every tombstone still on disk is expected
	companions, derived := map[string]*FileEntry{}, map[string]bool{}
	for i, f := range m.Files {
		if t, err := LookupTable(f.Table); err == nil && t.Derived {
			companions[f.Path] = &m.Files[i]
		} else if rel, ok := companionPath(f.Path); ok {
			derived[rel] = true
		}
	}
	for _, f := range m.Files {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		rep.Rows[f.Table] += f.Rows
		if p, ok := checkFile(l.root, f, full); !ok {
			rep.Problems = append(rep.Problems, p)
			continue
		}
		t, err := LookupTable(f.Table)
		// A data file with a companion is read once for its key index and
		// its companion.
		var cc Companion
		var fed RowFeed
		if err == nil && full && t.companion != "" {
			if cc, err = l.companionFor(t); err != nil {
				return rep, err
			}
		}
		if err != nil || !t.Derived { // a derived table has no key index
			var p Problem
			ok := false
			if cc != nil && f.Keys != "" {
				fed = cc.Feed()
				if keys, err := t.ops.digest(l.root, t, f, fed.Add); err == nil {
					p, ok = checkKeys(l.root, f, keys, true)
				} else {
					fed = nil // each check reads again and reports the error
				}
			}
			if fed == nil {
				p, ok = checkKeys(l.root, f, nil, full)
			}
			if !ok {
				rep.Problems = append(rep.Problems, p)
			}
		}
		switch {
		case err == nil && t.companion != "":
			rel, _ := companionPath(f.Path)
			c := companions[rel]
			if c == nil {
				rep.Problems = append(rep.Problems, Problem{Path: f.Path, Kind: "no_counts",
					Detail: fmt.Sprintf("no %s companion (written before %s; `trustlake lake compact` adds it, metrics read the %s meanwhile)", t.companion, t.companion, t.Name)})
			} else if full {
				if p, ok := cc.Check(l.root, f, *c, fed); !ok {
					rep.Problems = append(rep.Problems, p)
				}
			}
		case err == nil && t.Derived && !derived[f.Path]:
			rep.Problems = append(rep.Problems, Problem{Path: f.Path, Kind: "counts", Damage: true,
				Detail: "companion of a data file that is not in the manifest (metrics would count rows that are not there)"})
		}
	}
	orphans, err := l.orphans(live)
	if err != nil {
		return rep, err
	}
	for _, o := range orphans {
		rep.Problems = append(rep.Problems, Problem{Path: o, Kind: "orphan", Detail: "not in the manifest (left by an interrupted write; removed by the next write)"})
	}
	return rep, nil
}

// checkFile verifies a data file's presence and size and, when full, its
// sha256 and Parquet row count.
func checkFile(root string, f FileEntry, full bool) (Problem, bool) {
	bad := func(kind, format string, args ...any) (Problem, bool) {
		return Problem{Path: f.Path, Kind: kind, Detail: fmt.Sprintf(format, args...), Damage: true}, false
	}
	if p, ok := statEntry(root, f.Path, f.Bytes); !ok || !full {
		return p, ok
	}
	fh, err := os.Open(filepath.Join(root, filepath.FromSlash(f.Path)))
	if err != nil {
		return bad("unreadable", "%v", err)
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return bad("unreadable", "%v", err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != f.SHA256 {
		return bad("sha256", "sha256 %s, manifest says %s", sum, f.SHA256)
	}
	pf, err := parquet.OpenFile(fh, f.Bytes)
	if err != nil {
		return bad("unreadable", "not a Parquet file: %v", err)
	}
	if n := pf.NumRows(); n != f.Rows {
		return bad("rows", "%d rows, manifest says %d", n, f.Rows)
	}
	return Problem{}, true
}

// checkKeys verifies a data file's key index: its presence and size and,
// when full, its sha256 and every entry against the entries recomputed
// from the rows (want, or read when want is nil).
func checkKeys(root string, f FileEntry, want []keyindex.Entry, full bool) (Problem, bool) {
	bad := func(format string, args ...any) (Problem, bool) {
		return Problem{Path: f.Keys, Kind: "keys", Detail: fmt.Sprintf(format, args...), Damage: true}, false
	}
	if f.Keys == "" {
		return Problem{Path: f.Path, Kind: "no_keys", Detail: "written before the key index; the next write to its partition adds one"}, false
	}
	if !full {
		p, ok := statEntry(root, f.Keys, f.KeysBytes)
		if !ok {
			p.Kind = "keys"
		}
		return p, ok
	}
	if f.Keys != keyindex.Path(f.Path) {
		return bad("key index of %s should be %s", f.Path, keyindex.Path(f.Path))
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Keys)))
	if os.IsNotExist(err) {
		return bad("key index listed in the manifest does not exist")
	}
	if err != nil {
		return bad("%v", err)
	}
	if int64(len(b)) != f.KeysBytes {
		return bad("%d bytes, manifest says %d", len(b), f.KeysBytes)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.KeysSHA256 {
		return bad("sha256 %x, manifest says %s", sum, f.KeysSHA256)
	}
	if err := keyindex.Check(b, f.Keys, f.Rows); err != nil {
		return bad("%v", err)
	}
	if want == nil {
		t, err := LookupTable(f.Table)
		if err != nil {
			return bad("%v", err)
		}
		if want, err = t.ops.digest(root, t, f, nil); err != nil {
			return bad("%v", err)
		}
	}
	for r, e := range want {
		off := len(keyindex.Magic) + r*keyindex.EntryBytes
		if got := keyindex.Decode(b[off : off+keyindex.EntryBytes]); got != e {
			return bad("row %d: entry does not match the row's key and content (index and data disagree)", r)
		}
	}
	return Problem{}, true
}

// statEntry checks a file's presence and size only.
func statEntry(root, rel string, size int64) (Problem, bool) {
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case os.IsNotExist(err):
		return Problem{Path: rel, Kind: "missing", Detail: "file listed in the manifest does not exist", Damage: true}, false
	case err != nil:
		return Problem{Path: rel, Kind: "unreadable", Detail: err.Error(), Damage: true}, false
	case st.Size() != size:
		return Problem{Path: rel, Kind: "size", Detail: fmt.Sprintf("%d bytes, manifest says %d", st.Size(), size), Damage: true}, false
	}
	return Problem{}, true
}
