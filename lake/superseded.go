package lake

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// Table folders hold only live files, so that folder readers (DuckDB
// read_parquet('lake/verdicts/**/*.parquet'), Spark, Trino) never count a
// superseded row: a commit moves the files it supersedes to
// _superseded/<same path> (kept there for Options.TombstoneGrace, then
// deleted), and partition folders left empty are removed. Files a crashed
// writer left in a table folder are removed by the next writer.
const supersededDir = "_superseded"

// stagingDir holds the data files of a transaction until its commit
// renames them into their table folders.
const stagingDir = "_staging"

// supersededPath is where a superseded data file waits out its grace.
func supersededPath(rel string) string { return path.Join(supersededDir, rel) }

// moveSuperseded moves a committed data file that a commit superseded out
// of its table folder (best effort: a file left behind is an orphan that
// the next writer removes), then removes the partition folders it leaves
// empty.
func (l *Lake) moveSuperseded(rel string) {
	src := filepath.Join(l.root, filepath.FromSlash(rel))
	dst := filepath.Join(l.root, filepath.FromSlash(supersededPath(rel)))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
		if err := os.Rename(src, dst); err != nil && !os.IsNotExist(err) {
			l.opts.Logger.Warn("move superseded file", "path", rel, "err", err)
		}
	}
	l.removeEmptyParents(filepath.Dir(src))
}

// removeEmptyParents removes dir and its parents while they are empty,
// stopping below the lake root's first level (the table folder or _keys
// stays).
func (l *Lake) removeEmptyParents(dir string) {
	for {
		rel, err := filepath.Rel(l.root, dir)
		if err != nil || rel == "." || !strings.Contains(filepath.ToSlash(rel), "/") {
			return
		}
		if os.Remove(dir) != nil { // not empty (or gone): stop
			return
		}
		dir = filepath.Dir(dir)
	}
}

// lakeDirs returns the folders given and every table folder.
func lakeDirs(dirs ...string) []string {
	for _, t := range Tables() {
		dirs = append(dirs, t.Name)
	}
	return dirs
}

// removeEmptyDirs removes the empty partition folders under the table
// folders, _keys and _superseded (left by rolled-back or crashed writers).
func (l *Lake) removeEmptyDirs() {
	for _, name := range lakeDirs(keyindex.Dir, supersededDir) {
		var found []string
		filepath.WalkDir(filepath.Join(l.root, name), func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				found = append(found, p)
			}
			return nil
		})
		for i := len(found) - 1; i > 0; i-- { // deepest first; never the top folder
			os.Remove(found[i])
		}
	}
}
