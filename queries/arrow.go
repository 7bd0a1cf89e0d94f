package queries

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"
)

// queryArrow runs a query with $n parameters through DuckDB's Arrow
// interface and calls fn on each record batch in turn: columns come as
// typed arrays, without converting every value to a driver.Value. The
// batch's memory is released after fn returns (strings must be copied;
// see interner).
func (s *Session) queryArrow(ctx context.Context, query string, args []any, fn func(rec arrow.RecordBatch) error) error {
	return s.arrowReader(ctx, query, args, func(rr array.RecordReader) error {
		for rr.Next() {
			if err := fn(rr.RecordBatch()); err != nil {
				return err
			}
		}
		return rr.Err()
	})
}

// arrowReader runs a query through DuckDB's Arrow interface and hands its
// record reader to fn, releasing it after.
func (s *Session) arrowReader(ctx context.Context, query string, args []any, fn func(array.RecordReader) error) error {
	return s.conn.Raw(func(dc any) error {
		ar, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
		if err != nil {
			return err
		}
		rr, err := ar.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rr.Release()
		return fn(rr)
	})
}

// columns reads typed columns of one record batch (column), keeping the
// first error so that a reader checks once after taking them all.
type columns struct {
	rec arrow.RecordBatch
	err error
}

// column returns column i of c's batch as an array of type A: the zero A
// when it is not one, c keeping the first such error (naming the column).
func column[A arrow.Array](c *columns, i int) A {
	a, ok := c.rec.Column(i).(A)
	if !ok && c.err == nil {
		c.err = fmt.Errorf("column %s is %s, want %T", c.rec.ColumnName(i), c.rec.Column(i).DataType(), a)
	}
	return a
}

// interner copies strings out of Arrow buffers once per distinct value.
type interner map[string]string

func (in interner) get(a *array.String, i int) string {
	v := a.Value(i)
	if s, ok := in[v]; ok {
		return s
	}
	s := strings.Clone(v)
	in[s] = s
	return s
}
