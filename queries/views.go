package queries

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
)

//go:embed sql/*.sql
var sqlFiles embed.FS

// sqlFile returns the statement of an embedded .sql file.
func sqlFile(name string) string {
	b, err := sqlFiles.ReadFile("sql/" + name + ".sql")
	if err != nil {
		panic(fmt.Sprintf("missing embedded sql/%s.sql", name))
	}
	return string(b)
}

// createViews defines one view per lake table over exactly the files of
// one snapshot of the manifest (read once, so every view sees the same
// version), plus the derived views in sql/view_*.sql. Each view also reads
// a zero-row file of the table's current row type, so a column added to a
// row type exists (as NULL) in lakes whose files predate it, and an empty
// table still has its columns and types.
func (s *Session) createViews(ctx context.Context) error {
	snap, err := s.lk.Snapshot()
	if err != nil {
		return err
	}
	s.version = snap.Version()
	root, err := s.readRoot()
	if err != nil {
		return err
	}
	for _, t := range lake.Tables() {
		files, err := snap.CheckedFiles(t.Name)
		if err != nil {
			return err
		}
		if root != s.lk.Root() {
			for i, f := range files {
				rel, err := filepath.Rel(s.lk.Root(), f)
				if err != nil {
					return err
				}
				files[i] = filepath.Join(root, rel)
			}
		}
		zero, err := s.zeroFile(t)
		if err != nil {
			return err
		}
		if err := s.Exec(ctx, tableView(t, append(files, zero))); err != nil {
			return fmt.Errorf("create view %s: %w", t.Name, err)
		}
		if s.afterView != nil {
			s.afterView(t.Name)
		}
	}
	complete := snap.RunCountsComplete() // run_counts counts every verdicts file of the snapshot
	s.runCountsPerEpisode = complete && runcounts.PerEpisode(snap)
	s.noResults = snap.Rows(lake.Results) == 0
	s.counts = &LakeCounts{Verdicts: int(snap.Rows(lake.Verdicts)), Episodes: int(snap.Rows(lake.Episodes)),
		GroundTruth: int(snap.Rows(lake.GroundTruth))}
	runs := VerdictRunsView(complete, s.runCountsPerEpisode)
	for _, name := range []string{"view_categories", "view_human_reference", runs} {
		if err := s.Exec(ctx, sqlFile(name)); err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
	}
	return nil
}

// VerdictRunsView names the statement that defines the view verdict_runs
// (the runs counted per judge, condition and episode, which the metrics
// read): over the run_counts table when it counts every verdicts file of
// the snapshot (complete), with every row whole when the table also holds
// one row per episode (perEpisode), else over the verdicts.
func VerdictRunsView(complete, perEpisode bool) string {
	switch {
	case complete && perEpisode:
		return "view_verdict_runs_episodes"
	case complete:
		return "view_verdict_runs"
	}
	return "view_verdict_runs_scan"
}

func tableView(t lake.Table, files []string) string {
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = quote(f)
	}
	opts := ", hive_partitioning = false"
	if len(t.Partitions) > 0 {
		types := make([]string, len(t.Partitions))
		for i, p := range t.Partitions {
			types[i] = fmt.Sprintf("%s: 'VARCHAR'", quote(p))
		}
		opts = fmt.Sprintf(", hive_partitioning = true, hive_types = {%s}", strings.Join(types, ", "))
	}
	return fmt.Sprintf("CREATE OR REPLACE VIEW %s AS SELECT * FROM read_parquet([%s], union_by_name = true%s)",
		t.Name, strings.Join(quoted, ", "), opts)
}

// zeroFile writes a zero-row Parquet file of the table's row type in the
// session's temporary folder, under a hive path for partitioned tables
// (its partition value never appears: the file has no rows).
func (s *Session) zeroFile(t lake.Table) (string, error) {
	tmp, err := s.tmpDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(tmp, t.Name)
	for _, p := range t.Partitions {
		dir = filepath.Join(dir, p+"=_")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := filepath.Join(dir, "zero.parquet")
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	w := parquet.NewWriter(f, parquet.SchemaOf(t.Zero()))
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("write empty %s: %w", t.Name, err)
	}
	return name, nil
}

// tmpDir returns the session's temporary folder, made on first use.
func (s *Session) tmpDir() (string, error) {
	if s.tmp == "" {
		dir, err := os.MkdirTemp("", "trustlake-session-")
		if err != nil {
			return "", fmt.Errorf("create session dir: %w", err)
		}
		s.tmp = dir
	}
	return s.tmp, nil
}

// readRoot returns the folder DuckDB reads the lake's files under: the
// lake's root, or a symlink to it in the session's temporary folder when a
// folder of the root's path looks like a hive partition (runs/night=3/lake).
// DuckDB takes every key=value folder of a path as a partition column, so
// it would give every table a column night and find it missing from the
// session's zero files.
func (s *Session) readRoot() (string, error) {
	root := s.lk.Root()
	if !strings.Contains(root, "=") {
		return root, nil
	}
	tmp, err := s.tmpDir()
	if err != nil {
		return "", err
	}
	link := filepath.Join(tmp, "lake")
	if err := os.Symlink(root, link); err != nil {
		return "", fmt.Errorf("link the lake into the session dir: %w", err)
	}
	return link, nil
}

// Statement returns the text of the embedded statement sql/NAME.sql, for
// another engine that runs the same plain SQL (package queries/spark).
func Statement(name string) string { return sqlFile(name) }
