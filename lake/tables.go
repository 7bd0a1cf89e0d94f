package lake

import (
	"fmt"

	"github.com/trustlake/trustlake/schema"
)

// Table describes one lake table.
type Table struct {
	Name       string
	Partitions []string // hive partition columns, outermost first
	Key        []string // natural key columns (documentation; rows compute Key())
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
)

// Tables returns every table of the lake in a stable order.
func Tables() []Table {
	return []Table{
		{Name: Episodes, Partitions: []string{"agent"}, Key: []string{"episode_id"}},
		{Name: Actions, Partitions: []string{"agent"}, Key: []string{"episode_id", "step"}},
		{Name: GroundTruth, Key: []string{"episode_id", "verifier_sha256", "annotator"}},
		{Name: Labels, Key: []string{"episode_id"}},
		{Name: Verdicts, Partitions: []string{"judge", "condition"}, Key: []string{"episode_id", "judge", "condition", "run"}},
		{Name: Results, Partitions: []string{"benchmark"}, Key: []string{"result_id"}},
		{Name: Trust, Partitions: []string{"benchmark"}, Key: []string{"result_id"}},
		{Name: SelfTests, Key: []string{"verifier_sha256", "fixture"}},
	}
}

// LookupTable returns the table called name.
func LookupTable(name string) (Table, error) {
	for _, t := range Tables() {
		if t.Name == name {
			return t, nil
		}
	}
	return Table{}, fmt.Errorf("%w: %q", ErrNoTable, name)
}

// ZeroRow returns a zero value of the table's row type (its Parquet schema
// gives an empty table typed columns), or nil for an unknown table.
func ZeroRow(table string) any {
	switch table {
	case Episodes:
		return schema.Episode{}
	case Actions:
		return schema.Action{}
	case GroundTruth:
		return schema.GroundTruth{}
	case Labels:
		return schema.Label{}
	case Verdicts:
		return schema.Verdict{}
	case Results:
		return schema.Result{}
	case Trust:
		return schema.Trust{}
	case SelfTests:
		return schema.SelfTest{}
	}
	return nil
}
