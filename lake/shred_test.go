package lake

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/schema"
)

// TestShredderWritesLibraryBytes: rows written through the shredder make
// the same file, byte for byte, as parquet-go's GenericWriter.Write of the
// same rows, for every table, with nulls, repeated and distinct values,
// page cuts and row groups.
func TestShredderWritesLibraryBytes(t *testing.T) {
	checks := map[string]func(*testing.T, Table){
		Episodes: shredSame[schema.Episode], Actions: shredSame[schema.Action],
		GroundTruth: shredSame[schema.GroundTruth], Labels: shredSame[schema.Label],
		Verdicts: shredSame[schema.Verdict], Results: shredSame[schema.Result],
		Trust: shredSame[schema.Trust], SelfTests: shredSame[schema.SelfTest],
		Evidence: shredSame[schema.Evidence], RunCounts: shredSame[schema.RunCount],
		Reviews: shredSame[schema.Review],
	}
	for _, tb := range Tables() {
		check := checks[tb.Name]
		if check == nil {
			t.Fatalf("table %s: no shredder check", tb.Name)
		}
		t.Run(tb.Name, func(t *testing.T) { check(t, tb) })
	}
}

func shredSame[T any](t *testing.T, tb Table) {
	sh := newShredder(tb.rows, tb.schema)
	if sh == nil {
		t.Fatal("no shredder: rows would go through GenericWriter.Write")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]T, 5000)
	for i := range rows {
		randomRow(reflect.ValueOf(&rows[i]).Elem(), rng)
	}
	var cuts []int // uneven writes, as batches come
	for j := 0; j < len(rows); {
		j = min(len(rows), j+1+rng.IntN(700))
		cuts = append(cuts, j)
	}
	l := &Lake{compression: fastestZstd()}
	write := func(shred bool) []byte {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[T](&buf, l.writerOptions(tb, 0)...)
		i := 0
		for _, j := range cuts {
			var err error
			if shred {
				err = shredWrite(sh, w.ColumnWriters(), rows[i:j])
			} else {
				_, err = w.Write(rows[i:j])
			}
			if err != nil {
				t.Fatal(err)
			}
			if i/2000 != j/2000 {
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			i = j
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	want := write(false)
	if got := write(true); !bytes.Equal(got, want) {
		t.Fatalf("shredded file differs from GenericWriter's: %d bytes against %d", len(got), len(want))
	}
}

// randomRow sets the fields of v: pointers nil a third of the time,
// strings from a small set (dictionary pages) or long (page cuts).
func randomRow(v reflect.Value, rng *rand.Rand) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			if rng.IntN(3) == 0 || f.Type().Elem().Kind() == reflect.Struct && f.Type().Elem() != timeType {
				continue
			}
			f.Set(reflect.New(f.Type().Elem()))
			f = f.Elem()
		}
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(time.Unix(1.7e9+rng.Int64N(1e6), rng.Int64N(1e9)).UTC()))
		case f.Kind() == reflect.Struct:
			randomRow(f, rng)
		case f.Kind() == reflect.String:
			s := []string{"", "a", "success", "failure"}[rng.IntN(4)]
			if rng.IntN(4) == 0 {
				s = string(bytes.Repeat([]byte{byte('a' + rng.IntN(26))}, rng.IntN(300)))
			}
			f.SetString(s)
		case f.Kind() == reflect.Int64:
			f.SetInt(rng.Int64N(1000) - 10)
		case f.Kind() == reflect.Float64:
			f.SetFloat(rng.Float64())
		case f.Kind() == reflect.Bool:
			f.SetBool(rng.IntN(2) == 0)
		}
	}
}
