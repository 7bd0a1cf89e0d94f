package lake_test

import (
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake"
)

// TestColumnsAreTheParquetSchema checks that Table.Columns lists the
// columns parquet-go writes for the row type, in its order, with its
// optionality.
func TestColumnsAreTheParquetSchema(t *testing.T) {
	for _, tb := range lake.Tables() {
		fields := parquet.SchemaOf(tb.Zero()).Fields()
		cols := tb.Columns()
		if len(cols) != len(fields) {
			t.Fatalf("%s: %d columns, the Parquet schema has %d", tb.Name, len(cols), len(fields))
		}
		for i, f := range fields {
			if c := cols[i]; c.Name != f.Name() || c.Optional != f.Optional() {
				t.Errorf("%s column %d: %+v, the Parquet schema has %s (optional %v)", tb.Name, i, c, f.Name(), f.Optional())
			}
		}
	}
}
