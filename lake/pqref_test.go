package lake

import (
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
)

// refWriter writes column batches through parquet-go's own column
// writers, one parquet.Value per value, with the lake's writer options
// and the same dictionary cap rule: the way data files were written
// before pqFile, kept as the reference pqFile must match byte for byte.
type refWriter struct {
	w       *parquet.Writer
	cl      *colLayout
	dictMax int
	caps    []refCap
	vals    []parquet.Value
}

// refCap counts a dictionary column's distinct value bytes within a row
// group; past dictMax the column's page ends and parquet-go writes the
// rest of the row group PLAIN.
type refCap struct {
	col   int
	seen  map[string]bool
	bytes int
	full  bool
}

func newRefWriter(out io.Writer, cl *colLayout, rowGroupRows, dictBytes int) *refWriter {
	r := &refWriter{w: parquet.NewWriter(out, writerOptions(cl.schema, rowGroupRows, dictBytes)...), cl: cl, dictMax: dictBytes}
	for c, s := range cl.pq().spec {
		if s.dict && dictBytes > 0 {
			r.caps = append(r.caps, refCap{col: c, seen: map[string]bool{}})
		}
	}
	return r
}

func (r *refWriter) write(b *colBatch, i, j int) error {
	cws := r.w.ColumnWriters()
	for c := range b.cols {
		r.vals = r.values(b, c, i, j, r.vals[:0])
		if _, err := cws[c].WriteRowValues(r.vals); err != nil {
			return err
		}
	}
	for k := range r.caps {
		d := &r.caps[k]
		col := &b.cols[d.col]
		for row := i; row < j && !d.full; row++ {
			if r.isNull(col, b.n, row) || d.seen[col.str[row]] {
				continue
			}
			d.seen[col.str[row]] = true
			if d.bytes += len(col.str[row]); d.bytes > r.dictMax {
				d.full = true
				if err := cws[d.col].Flush(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *refWriter) size() int64 { return r.w.Size() }

func (r *refWriter) flush() error {
	for k := range r.caps {
		r.caps[k] = refCap{col: r.caps[k].col, seen: map[string]bool{}}
	}
	return r.w.Flush()
}

func (r *refWriter) close() error { return r.w.Close() }

// isNull reports whether row is null in an optional column.
func (r *refWriter) isNull(col *colData, n, row int) bool {
	return col.nulls == n && len(col.null) == 0 || row < len(col.null) && col.null[row]
}

// values returns rows [i, j) of column c as parquet-go values.
func (r *refWriter) values(b *colBatch, c, i, j int, out []parquet.Value) []parquet.Value {
	s := r.cl.pq().spec[c]
	col := &b.cols[c]
	for row := i; row < j; row++ {
		if s.optional && r.isNull(col, b.n, row) {
			out = append(out, parquet.NullValue().Level(0, 0, c))
			continue
		}
		var v parquet.Value
		switch s.kind {
		case kString:
			v = parquet.ByteArrayValue([]byte(col.str[row]))
		case kFloat64:
			v = parquet.DoubleValue(math.Float64frombits(col.num[row]))
		case kBool:
			v = parquet.BooleanValue(col.num[row] != 0)
		default:
			v = parquet.Int64Value(int64(col.num[row]))
		}
		if s.optional {
			v = v.Level(0, 1, c)
		} else {
			v = v.Level(0, 0, c)
		}
		out = append(out, v)
	}
	return out
}
