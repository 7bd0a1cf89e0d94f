package lake

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
)

// pqCase is one way of filling a table's columns with random values.
type pqCase struct {
	name     string
	nullRate float64 // share of nil pointers; 1: an all-null optional column
	strings  string  // "few" (dictionary-like), "ids" (ascending), "long" (some past a page), "empty"
	ints     string  // "steps" (small deltas), "wide" (the whole int64 range)
	rows     []int   // batch sizes
	groupMax int64   // rows per row group
	limit    int64   // bytes per row group
	dictMax  int     // dictionary cap (0: none)
}

var pqCases = []pqCase{
	{name: "plain", nullRate: 0.2, strings: "ids", ints: "steps", rows: []int{2048, 2048, 700}, groupMax: 131072, limit: 32 << 20},
	{name: "no-nulls", nullRate: 0, strings: "few", ints: "wide", rows: []int{5000, 1}, groupMax: 131072, limit: 32 << 20},
	{name: "all-null", nullRate: 1, strings: "few", ints: "steps", rows: []int{1000, 3000}, groupMax: 131072, limit: 32 << 20},
	{name: "small-groups", nullRate: 0.5, strings: "ids", ints: "wide", rows: []int{2048, 2048, 2048, 5}, groupMax: 1000, limit: 32 << 20},
	{name: "long-strings", nullRate: 0.1, strings: "long", ints: "steps", rows: []int{300, 300}, groupMax: 131072, limit: 1 << 20},
	{name: "empty-strings", nullRate: 0.3, strings: "empty", ints: "steps", rows: []int{600}, groupMax: 131072, limit: 32 << 20},
	{name: "dict-cap", nullRate: 0.2, strings: "ids", ints: "steps", rows: []int{2048, 2048, 2048}, groupMax: 4000, limit: 32 << 20, dictMax: 16 << 10},
	{name: "dict-cap-few", nullRate: 0.2, strings: "few", ints: "steps", rows: []int{3000}, groupMax: 131072, limit: 32 << 20, dictMax: 64},
	{name: "one-row", nullRate: 0.5, strings: "few", ints: "wide", rows: []int{1}, groupMax: 131072, limit: 32 << 20},
	{name: "no-rows", rows: nil, groupMax: 131072, limit: 32 << 20},
}

// TestPQFileMatchesParquetGo writes random batches of every table with
// the lake's writer (pqFile) and with parquet-go's column writers
// (refWriter) and wants the same bytes: same pages, statistics, column
// and offset indexes, dictionary fallback and footer.
func TestPQFileMatchesParquetGo(t *testing.T) {
	for _, tab := range Tables() {
		for ci, c := range pqCases {
			t.Run(tab.Name+"/"+c.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(ci), 7))
				batches, _ := randomBatches(rng, tab.cols, c)
				got := writeWith(t, batches, c, func(w *bytes.Buffer) chunkWriterCloser {
					return pqCloser{newPQFile(w, tab.cols.pq(), zstdFastest, c.dictMax)}
				})
				want := writeWith(t, batches, c, func(w *bytes.Buffer) chunkWriterCloser {
					return newRefWriter(w, tab.cols, int(c.groupMax), c.dictMax)
				})
				if !bytes.Equal(got, want) {
					t.Fatalf("%d bytes, parquet-go wrote %d; %s", len(got), len(want), footerDiff(got, want))
				}
				checkReadBack(t, got, tab.cols, batches)
			})
		}
	}
}

type chunkWriterCloser interface {
	chunkWriter
	close() error
}

type pqCloser struct{ *pqFile }

func writeWith(t *testing.T, batches []*colBatch, c pqCase, open func(*bytes.Buffer) chunkWriterCloser) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := open(&buf)
	g := rowGroup{}
	for _, b := range batches {
		if err := writeChunks(w, b, &g, c.groupMax, c.limit); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// footerDiff describes how two files' footers differ.
func footerDiff(got, want []byte) string {
	g, err1 := readFooter(got)
	w, err2 := readFooter(want)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("footers: %v, %v", err1, err2)
	}
	if d := cmp.Diff(w, g); d != "" {
		return "footer (-parquet-go +pqFile):\n" + d
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("same footer; first difference at byte %d", i)
		}
	}
	return "same footer and prefix"
}

// randomBatches fills batches of the layout's rows with random values; it
// also returns the rows of each batch.
func randomBatches(rng *rand.Rand, cl *colLayout, c pqCase) ([]*colBatch, [][]unsafe.Pointer) {
	rt := cl.rt
	var out []*colBatch
	var rows [][]unsafe.Pointer
	seq := 0
	few := []string{"success", "failure", "uncertain", "parse_error", "sim:vlm-a@1", ""}
	str := func() string {
		switch c.strings {
		case "few":
			return few[rng.IntN(len(few))]
		case "long":
			if rng.IntN(50) == 0 {
				return strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(90_000))
			}
			return fmt.Sprintf("value-%06d-%s", rng.IntN(1_000_000), strings.Repeat("x", rng.IntN(40)))
		case "empty":
			if rng.IntN(2) == 0 {
				return ""
			}
			return few[rng.IntN(len(few))]
		default:
			return fmt.Sprintf("sim-20261010-t%04d-e%03d", seq/7, seq%1000)
		}
	}
	num := func() int64 {
		if c.ints == "wide" {
			return int64(rng.Uint64())
		}
		return int64(seq) + int64(rng.IntN(5)) - 2
	}
	for _, n := range c.rows {
		b := cl.newBatch(n)
		var ps []unsafe.Pointer
		for range n {
			seq++
			row := reflect.New(rt.typ)
			p := row.UnsafePointer()
			for _, f := range rt.fields {
				a := unsafe.Add(p, f.offset)
				if f.kind >= kPtrString && rng.Float64() < c.nullRate {
					continue // nil
				}
				switch f.kind {
				case kString:
					*(*string)(a) = str()
				case kPtrString:
					s := str()
					*(**string)(a) = &s
				case kInt64:
					*(*int64)(a) = num()
				case kPtrInt64:
					v := num()
					*(**int64)(a) = &v
				case kFloat64, kPtrFloat64:
					v := math.Round(rng.NormFloat64()*1000) / 64
					if f.kind == kFloat64 {
						*(*float64)(a) = v
					} else {
						*(**float64)(a) = &v
					}
				case kBool, kPtrBool:
					v := rng.IntN(2) == 0
					if f.kind == kBool {
						*(*bool)(a) = v
					} else {
						*(**bool)(a) = &v
					}
				case kTime, kPtrTime:
					v := time.UnixMicro(1_790_000_000_000_000 + num()).UTC()
					if f.kind == kTime {
						if rng.Float64() >= c.nullRate {
							*(*time.Time)(a) = v
						}
					} else {
						*(**time.Time)(a) = &v
					}
				}
			}
			cl.add(b, p, [2]uint64{uint64(seq)})
			ps = append(ps, p)
		}
		out, rows = append(out, b), append(rows, ps)
	}
	return out, rows
}

// TestBatchContentHashes checks the content hash of every row of random
// batches of every table (nulls, all-null columns, empty strings, zero
// values) against the row's own (rowType.contentHash): the key index
// stores them.
func TestBatchContentHashes(t *testing.T) {
	for _, tab := range Tables() {
		for ci, c := range pqCases {
			rng := rand.New(rand.NewPCG(uint64(ci), 11))
			batches, rows := randomBatches(rng, tab.cols, c)
			for k, b := range batches {
				parts := tab.rows.partition(rows[k][0])
				plan := tab.cols.hashPlan(b, parts, nil)
				for r, p := range rows[k] {
					tab.rows.setPartition(p, parts) // the batch's partition (not a column)
					want, _ := tab.rows.contentHash(nil, p)
					if got, _ := contentHash(plan, r, nil); got != want {
						t.Fatalf("%s/%s: batch %d row %d: content hash %x, the row's %x", tab.Name, c.name, k, r, got, want)
					}
				}
			}
		}
	}
}

// checkReadBack reads the file with parquet-go and compares every value
// with the batches'.
func checkReadBack(t *testing.T, data []byte, cl *colLayout, batches []*colBatch) {
	t.Helper()
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, b := range batches {
		total += b.n
	}
	if pf.NumRows() != int64(total) {
		t.Fatalf("%d rows, want %d", pf.NumRows(), total)
	}
	ref := &refWriter{cl: cl}
	for c := range cl.fields {
		var got []parquet.Value
		for _, rg := range pf.RowGroups() {
			r := rg.ColumnChunks()[c].Pages()
			for {
				p, err := r.ReadPage()
				if err != nil {
					break
				}
				vals := make([]parquet.Value, p.NumValues())
				n, _ := p.Values().ReadValues(vals)
				got = append(got, vals[:n]...)
			}
			r.Close()
		}
		var want []parquet.Value
		for _, b := range batches {
			want = ref.values(b, c, 0, b.n, want)
		}
		if len(got) != len(want) {
			t.Fatalf("column %d: %d values, want %d", c, len(got), len(want))
		}
		for k := range want {
			if !parquet.Equal(got[k], want[k]) || got[k].IsNull() != want[k].IsNull() {
				t.Fatalf("column %d row %d: %v, want %v", c, k, got[k], want[k])
			}
		}
	}
}
