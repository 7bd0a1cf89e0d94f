package spark

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	sparksql "github.com/apache/spark-connect-go/spark/sql"
	"github.com/apache/spark-connect-go/spark/sql/types"
)

// fakeRow is a result row of the given columns and values.
type fakeRow struct {
	types.Row
	names  []string
	values []any
}

func (r fakeRow) At(i int) any         { return r.values[i] }
func (r fakeRow) FieldNames() []string { return r.names }

// fakeEngine answers every statement with the same rows.
type fakeEngine struct {
	sparksql.SparkSession
	sparksql.DataFrame
	rows []types.Row
}

func (e *fakeEngine) Sql(context.Context, string) (sparksql.DataFrame, error) { return e, nil }
func (e *fakeEngine) Collect(context.Context) ([]types.Row, error)            { return e.rows, nil }

// TestGroundTruthBadColumns: of several columns of the wrong type, the
// first is reported (column 5, gates, before column 6, deterministic, as
// before 7caca11, which read deterministic before gates).
func TestGroundTruthBadColumns(t *testing.T) {
	names := []string{"episode_id", "verifier_sha256", "pass", "score", "gates", "deterministic"}
	e := &fakeEngine{rows: []types.Row{fakeRow{names: names, values: []any{"e", "v", true, 0.5, int64(1), "yes"}}}}
	s := &Session{remote: "sc://fake", sess: e, opts: Options{Logger: slog.New(slog.DiscardHandler)}}
	_, err := s.TrustGroundTruth(t.Context())
	if err == nil || !strings.Contains(err.Error(), "column 5 (gates)") {
		t.Errorf("err = %v, want column 5 (gates) reported", err)
	}
}
