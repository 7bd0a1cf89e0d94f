package spark

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// createViews reads the manifest through the engine and defines one view
// per lake table over exactly its committed files, plus categories.
func (s *Session) createViews(ctx context.Context) error {
	m, err := s.readManifest(ctx)
	if err != nil {
		return err
	}
	files := map[string][]string{}
	for _, f := range m.Files {
		files[f.Table] = append(files[f.Table], f.Path)
	}
	for _, t := range lake.Tables() {
		var stmts []string
		if len(files[t.Name]) == 0 {
			q, err := emptyView(t)
			if err != nil {
				return &EngineError{Engine: s.remote, Statement: "create view " + t.Name, Err: err}
			}
			stmts = []string{q}
		} else {
			stmts = s.tableView(t, files[t.Name])
		}
		for _, q := range stmts {
			if err := s.exec(ctx, "create view "+t.Name, q); err != nil {
				return err
			}
		}
	}
	// Rows are summed per episode: whether the run counts hold one row per
	// episode is read from the files' footers, which this session does not open.
	for _, name := range []string{"view_categories", "view_human_reference", queries.VerdictRunsView(m.RunCountsComplete(), false)} {
		if err := s.exec(ctx, name, queries.Statement(name)); err != nil {
			return err
		}
	}
	return nil
}

// uri returns the engine's URI of a path relative to the lake root.
func (s *Session) uri(rel string) string {
	return strings.TrimRight(s.opts.LakeURI, "/") + "/" + rel
}

// readManifest reads _manifest/manifest.json from the lake URI through the
// engine, so that the file list and the files come from the same place.
func (s *Session) readManifest(ctx context.Context) (lake.Manifest, error) {
	const stmt = "read manifest"
	q := fmt.Sprintf("CREATE OR REPLACE TEMPORARY VIEW trustlake_manifest USING text OPTIONS (path %s, wholetext 'true')",
		literal(globEscape(s.uri(lake.ManifestPath))))
	if err := s.exec(ctx, stmt, q); err != nil {
		return lake.Manifest{}, err
	}
	rows, err := s.run(ctx, "spark query", stmt, "SELECT value FROM trustlake_manifest")
	if err != nil {
		return lake.Manifest{}, err
	}
	if len(rows) != 1 {
		return lake.Manifest{}, &EngineError{Engine: s.remote, Statement: stmt,
			Err: fmt.Errorf("%s: want one file, got %d rows", s.uri(lake.ManifestPath), len(rows))}
	}
	text, _ := rows[0].At(0).(string)
	m, err := lake.DecodeManifest([]byte(text))
	if err != nil {
		return lake.Manifest{}, &EngineError{Engine: s.remote, Statement: stmt, Err: fmt.Errorf("%s: %w", s.uri(lake.ManifestPath), err)}
	}
	return m, nil
}

// tableView reads exactly the given files (paths relative to the lake
// root) with hive partitioning: one Hadoop glob `TABLE/{f1,f2,...}` below
// basePath TABLE, the schemas of all files merged (columns added later are
// NULL in older files, as DuckDB's union_by_name). Spark percent-decodes a
// partition value byte by byte into Latin-1 characters, so a value with
// non-ASCII UTF-8 ("ü" is %C3%BC) comes back as "Ã¼"; the view turns the
// characters back into their bytes and decodes those as UTF-8.
func (s *Session) tableView(t lake.Table, rels []string) []string {
	inner := make([]string, len(rels))
	for i, r := range rels {
		inner[i] = globEscape(strings.TrimPrefix(path.Clean(r), t.Name+"/"))
	}
	glob := globEscape(s.uri(t.Name)) + "/{" + strings.Join(inner, ",") + "}"
	raw := t.Name
	if len(t.Partitions) > 0 {
		raw = "trustlake_raw_" + t.Name
	}
	stmts := []string{fmt.Sprintf("CREATE OR REPLACE TEMPORARY VIEW %s USING parquet OPTIONS (path %s, basePath %s, mergeSchema 'true')",
		raw, literal(glob), literal(s.uri(t.Name)))}
	if len(t.Partitions) > 0 {
		cols := make([]string, len(t.Partitions))
		for i, p := range t.Partitions {
			cols[i] = fmt.Sprintf("decode(encode(%s, 'ISO-8859-1'), 'UTF-8') AS %s", p, p)
		}
		stmts = append(stmts, fmt.Sprintf("CREATE OR REPLACE TEMPORARY VIEW %s AS SELECT * EXCEPT (%s), %s FROM %s",
			t.Name, strings.Join(t.Partitions, ", "), strings.Join(cols, ", "), raw))
	}
	return stmts
}

// emptyView defines a table without files as zero rows of its columns
// (the row type's declaration mapped to the types Spark reads them as),
// partition columns last as in a partitioned read.
func emptyView(t lake.Table) (string, error) {
	var cols []string
	for _, c := range t.Columns() {
		typ, ok := sparkTypes[c.Type]
		if !ok {
			return "", fmt.Errorf("column %s: Go type %v is not mapped", c.Name, c.Type)
		}
		cols = append(cols, fmt.Sprintf("CAST(NULL AS %s) AS %s", typ, c.Name))
	}
	for _, p := range t.Partitions {
		cols = append(cols, fmt.Sprintf("CAST(NULL AS STRING) AS %s", p))
	}
	return fmt.Sprintf("CREATE OR REPLACE TEMPORARY VIEW %s AS SELECT %s LIMIT 0", t.Name, strings.Join(cols, ", ")), nil
}

// sparkTypes are the Spark SQL types of the lake's column types, as Spark
// reads the Parquet columns parquet-go writes for them (time.Time as a
// UTC-adjusted timestamp).
var sparkTypes = map[reflect.Type]string{
	reflect.TypeFor[string]():    "STRING",
	reflect.TypeFor[int64]():     "BIGINT",
	reflect.TypeFor[float64]():   "DOUBLE",
	reflect.TypeFor[bool]():      "BOOLEAN",
	reflect.TypeFor[time.Time](): "TIMESTAMP",
}

// globEscape escapes Hadoop glob metacharacters in a path.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`\{}[]*?,`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
