package lake

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// TestColumnPathRoundTrip writes rows of every table of the registry
// through the column batches and the file writer, with every optional field
// null in some rows (some in all) and every plain field zero in some, then reads each
// file back with parquet-go's reflection reader (the row path, independent
// of the column batches) and wants the same rows; `lake check` must find
// the key index equal to the data.
func TestColumnPathRoundTrip(t *testing.T) {
	l, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := l.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	r := rand.New(rand.NewPCG(5, 6))
	want := map[string][]reflect.Value{} // by data file
	wrote := map[string]bool{}           // data files written here (derived companions are not)
	for _, tab := range Tables() {
		if tab.Name == RunCounts {
			continue // only ever the companion of a verdicts file, written (and checked) with it below
		}
		rt := tab.rows
		values := make([]string, len(rt.parts))
		for i := range values {
			values[i] = "p" + fmt.Sprint(i)
		}
		fw, err := newFileWriter(tx, tab, values)
		if err != nil {
			t.Fatal(err)
		}
		const n = 1500 // three batches of rowGroupCheck and a part
		b := fw.batch(n)
		allNull := map[string]bool{} // optional fields null in every row (written from shared nulls)
		for _, f := range rt.fields {
			allNull[f.goName] = f.kind >= kPtrString && r.IntN(3) == 0
		}
		for i := range n {
			row := reflect.New(rt.typ).Elem()
			k := i
			fill(row, &k)
			for _, f := range rt.fields {
				fv := row.FieldByName(f.goName)
				if m := mutations(fv); len(m) > 0 && (allNull[f.goName] || r.IntN(4) == 0) {
					m[len(m)-1]() // nil or zero
				}
			}
			row.FieldByName(rt.fields[rt.key[0]].goName).Set(reflect.ValueOf(fmt.Sprint("k", i)).Convert(row.FieldByName(rt.fields[rt.key[0]].goName).Type()))
			p := row.Addr().UnsafePointer()
			rt.setPartition(p, values)
			key, _ := rt.keyHash(nil, p)
			tab.cols.add(b, p, key)
			want[fw.rel] = append(want[fw.rel], row)
		}
		wrote[fw.rel] = true
		if err := fw.write(b); err != nil {
			t.Fatal(err)
		}
		if err := fw.close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	m, err := l.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		if !wrote[f.Path] {
			continue
		}
		tab, _ := LookupTable(f.Table)
		fh, err := os.Open(filepath.Join(l.root, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		pr := parquet.NewReader(fh)
		for i, w := range want[f.Path] {
			got := reflect.New(tab.rows.typ)
			if err := pr.Read(got.Interface()); err != nil {
				t.Fatalf("%s row %d: %v", f.Table, i, err)
			}
			tab.rows.setPartition(unsafe.Pointer(got.Pointer()), f.Partition)
			if !reflect.DeepEqual(got.Elem().Interface(), w.Interface()) {
				t.Fatalf("%s row %d:\n got %+v\nwant %+v", f.Table, i, got.Elem().Interface(), w.Interface())
			}
		}
		fh.Close()
	}
	rep, err := l.Check(context.Background())
	if err != nil || rep.Damaged() {
		t.Fatalf("lake check: %+v %v", rep, err)
	}
}
