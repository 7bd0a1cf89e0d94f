package lake

import (
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/schema"
)

// benchVerdicts are rows shaped like `trustlake gen` verdicts of one
// partition: distinct episode ids and runs, a few verdicts, one model.
func benchVerdicts(n int) []schema.Verdict {
	verdicts := []string{"success", "failure", "parse_error"}
	model := "sim:vlm-a@1"
	rows := make([]schema.Verdict, n)
	t0 := time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)
	for i := range rows {
		conf := 0.5 + float64(i%5)/10
		at := t0.Add(time.Duration(i) * time.Second)
		rows[i] = schema.Verdict{
			EpisodeID: fmt.Sprintf("sim-20261010-t%04d-a1-e%03d", i/200, i%200), Judge: "sim:vlm-a", Condition: "E1-final",
			Run: int64(i%6 + 1), Verdict: &verdicts[i%3], Confidence: &conf, Model: &model, CalledAt: &at, Extra: "{}",
			Provenance: schema.Provenance{SrcFile: "/tmp/verdicts.jsonl", SrcLine: int64(i + 1)},
		}
	}
	return rows
}

// BenchmarkWritePath writes the same verdict rows (one partition) to a
// Parquet file with zstd three ways: parquet-go's generic row writer (the
// write path before issue 14), the lake's column batches through
// parquet-go's column writers (Values), and the column batches as arrow-go
// record batches through pqarrow (prototype). Key hashing is left out: it
// is the same for all three.
func BenchmarkWritePath(b *testing.B) {
	const n = 250_000
	rows := benchVerdicts(n)
	tab, _ := LookupTable(Verdicts)
	rt, cl := tab.rows, tab.cols
	opts := []parquet.WriterOption{parquet.Compression(zstdFastest), parquet.MaxRowsPerRowGroup(131072)}
	b.Run("parquet-go-rows", func(b *testing.B) {
		cpu0 := cpuTime()
		defer func() { reportCPU(b, n, cpu0) }()
		for range b.N {
			w := parquet.NewGenericWriter[schema.Verdict](io.Discard, opts...)
			for i := 0; i < n; i += rowGroupCheck {
				if _, err := w.Write(rows[i:min(n, i+rowGroupCheck)]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	batches := func() []*colBatch {
		var out []*colBatch
		for i := 0; i < n; i += 4096 {
			cb := cl.newBatch(4096)
			for j := i; j < min(n, i+4096); j++ {
				cl.add(cb, unsafe.Pointer(&rows[j]), [2]uint64{})
			}
			out = append(out, cb)
		}
		return out
	}
	b.Run("parquet-go-columns", func(b *testing.B) {
		cpu0 := cpuTime()
		defer func() { reportCPU(b, n, cpu0) }()
		for range b.N {
			w := newRefWriter(io.Discard, cl, 131072, 0)
			g := rowGroup{}
			for _, cb := range batches() {
				if err := writeChunks(w, cb, &g, 131072, 32<<20); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed-pages", func(b *testing.B) {
		cpu0 := cpuTime()
		defer func() { reportCPU(b, n, cpu0) }()
		for range b.N {
			w := newPQFile(io.Discard, cl.pq(), zstdFastest, 0)
			g := rowGroup{}
			for _, cb := range batches() {
				if err := writeChunks(w, cb, &g, 131072, 32<<20); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pqarrow", func(b *testing.B) {
		var fields []arrow.Field
		for c := range cl.fields {
			f := rt.fields[cl.fields[c]]
			var dt arrow.DataType
			switch f.kind {
			case kString, kPtrString:
				dt = arrow.BinaryTypes.String
			case kInt64, kPtrInt64:
				dt = arrow.PrimitiveTypes.Int64
			case kFloat64, kPtrFloat64:
				dt = arrow.PrimitiveTypes.Float64
			case kBool, kPtrBool:
				dt = arrow.FixedWidthTypes.Boolean
			case kTime, kPtrTime:
				dt = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
			}
			fields = append(fields, arrow.Field{Name: f.name, Type: dt, Nullable: f.kind >= kPtrString})
		}
		as := arrow.NewSchema(fields, nil)
		props := []aparquet.WriterProperty{aparquet.WithCompression(compress.Codecs.Zstd), aparquet.WithCompressionLevel(1),
			aparquet.WithDictionaryDefault(false), aparquet.WithMaxRowGroupLength(131072)}
		for _, name := range []string{"verdict", "model", "prompt_sha256", "_src_file"} {
			props = append(props, aparquet.WithDictionaryFor(name, true))
		}
		cpu0 := cpuTime()
		defer func() { reportCPU(b, n, cpu0) }()
		for range b.N {
			fw, err := pqarrow.NewFileWriter(as, io.Discard, aparquet.NewWriterProperties(props...), pqarrow.DefaultWriterProps())
			if err != nil {
				b.Fatal(err)
			}
			rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
			var valid []bool
			for _, cb := range batches() {
				for c := range cb.cols {
					col := &cb.cols[c]
					if col.nulls == cb.n && len(col.null) == 0 { // null in every row: only counted (colData)
						rb.Field(c).AppendNulls(cb.n)
						continue
					}
					valid = valid[:0]
					for _, isNull := range col.null {
						valid = append(valid, !isNull)
					}
					if len(col.null) == 0 {
						valid = nil
					}
					switch fb := rb.Field(c).(type) {
					case *array.StringBuilder:
						fb.AppendValues(col.str, valid)
					case *array.Int64Builder:
						fb.AppendValues(unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(col.num))), len(col.num)), valid)
					case *array.Float64Builder:
						fb.AppendValues(unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(col.num))), len(col.num)), valid)
					case *array.TimestampBuilder:
						fb.AppendValues(unsafe.Slice((*arrow.Timestamp)(unsafe.Pointer(unsafe.SliceData(col.num))), len(col.num)), valid)
					case *array.BooleanBuilder:
						for i, u := range col.num {
							if valid == nil || valid[i] {
								fb.Append(u != 0)
							} else {
								fb.AppendNull()
							}
						}
					}
				}
				rec := rb.NewRecordBatch()
				if err := fw.WriteBuffered(rec); err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
			if err := fw.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// cpuTime is the process's user and system CPU time: on a shared machine
// it moves far less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds wall and CPU nanoseconds per row.
func reportCPU(b *testing.B, n int, cpu0 time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*n), "cpu-ns/row")
}
