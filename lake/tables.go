package lake

import (
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake/keyindex"
	"github.com/trustlake/trustlake/schema"
)

// Table is the one descriptor of a lake table: its name, partition columns,
// row type, natural key and content hash. Views (package queries), the
// ingest writers, compaction and `lake check` all read it; the partition
// and key columns and both hashes are derived from the row type's struct
// tags (see rowType), never written per type.
type Table struct {
	Name       string
	Partitions []string // hive partition columns, outermost first
	Key        []string // natural key columns
	// Derived tables hold companion files, written beside the data files
	// of the table they derive from (run_counts beside verdicts) by its
	// Companion (companion.go): never ingested, and compacted with their
	// source, not on their own.
	Derived   bool
	companion string // the derived table of each data file's companion (companion.go), or ""
	rows      *rowType
	schema    *parquet.Schema // parquet-go's schema of the row type's struct tags
	ops       tableOps
}

// Table names.
const (
	Episodes    = "episodes"
	Actions     = "actions"
	GroundTruth = "ground_truth"
	Labels      = "labels"
	Verdicts    = "verdicts"
	Results     = "results"
	Trust       = "trust"
	SelfTests   = "selftests"
	Evidence    = "evidence"
	RunCounts   = "run_counts"
	Reviews     = "reviews"
)

// registry declares every table, once, in a stable order.
//
// Adding a table is a one-place change here: declare its row type in
// package schema (parquet tags for the columns; lake tags for the key,
// partitions and fields left out of the hash), then add one line below.
// Views, the Writer, compaction, `lake check`, the key index and the hash
// tests pick it up from this list.
var registry = sync.OnceValue(func() []Table {
	return []Table{
		define[schema.Episode](Episodes),
		define[schema.Action](Actions),
		define[schema.GroundTruth](GroundTruth),
		define[schema.Label](Labels),
		define[schema.Verdict](Verdicts).withCompanion(RunCounts),
		define[schema.Result](Results),
		define[schema.Trust](Trust),
		define[schema.SelfTest](SelfTests),
		define[schema.Evidence](Evidence),
		define[schema.RunCount](RunCounts).derived(),
		define[schema.Review](Reviews),
	}
})

func define[T any](name string) Table {
	rt := deriveRowType(reflect.TypeFor[T]())
	return Table{
		Name:       name,
		Partitions: rt.columns(rt.parts),
		Key:        rt.columns(rt.key),
		rows:       rt,
		schema:     parquet.SchemaOf(new(T)),
		ops:        typedOps[T]{},
	}
}

// withCompanion gives each data file of the table a companion file of the
// derived table name (companion.go).
func (t Table) withCompanion(name string) Table {
	t.companion = name
	return t
}

func (t Table) derived() Table {
	t.Derived = true
	return t
}

// Tables returns every table of the lake in a stable order.
func Tables() []Table { return registry() }

// LookupTable returns the table called name.
func LookupTable(name string) (Table, error) {
	for _, t := range registry() {
		if t.Name == name {
			return t, nil
		}
	}
	return Table{}, fmt.Errorf("%w: %q", ErrNoTable, name)
}

// Zero returns a zero value of the table's row type: its Parquet schema
// gives an empty table typed columns.
func (t Table) Zero() any { return reflect.Zero(t.rows.typ).Interface() }

// tableFor returns the table called name and checks that T is its row type.
func tableFor[T any](name string) (Table, error) {
	t, err := LookupTable(name)
	if err != nil {
		return Table{}, err
	}
	return t, checkRowType[T](t)
}

// checkRowType checks that T is the row type of table t.
func checkRowType[T any](t Table) error {
	if want := reflect.TypeFor[T](); t.rows.typ != want {
		return fmt.Errorf("table %s holds %s rows, not %s", t.Name, t.rows.typ, want)
	}
	return nil
}

// tableOps are the operations that need the row type as a Go type
// (Parquet reading and writing); typedOps[T] implements them for each table.
type tableOps interface {
	compact(tx *Tx, t Table, files []FileEntry, st *CompactStats) error
	digest(root string, t Table, f FileEntry, feed func(rows any)) ([]keyindex.Entry, error)
	origins(root string, t Table, f FileEntry) ([]string, error)
}

// Column is one stored column of a table, as its row type declares it.
type Column struct {
	Name     string
	Type     reflect.Type // string, int64, float64, bool or time.Time
	Optional bool         // a pointer field: the column holds nulls
}

// Columns returns the table's stored columns in declaration order (the
// Parquet schema's order); partition columns live in paths, not files.
func (t Table) Columns() []Column {
	var out []Column
	for i, f := range t.rows.fields {
		if slices.Contains(t.rows.parts, i) {
			continue
		}
		out = append(out, Column{Name: f.name, Type: kindTypes[f.kind], Optional: f.opt})
	}
	return out
}
