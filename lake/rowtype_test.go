package lake

import (
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"
)

// fill sets every field of a row to a distinct non-zero value.
func fill(v reflect.Value, n *int) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		*n++
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(time.Unix(int64(1e9+*n), 0).UTC()))
		case f.Kind() == reflect.Struct:
			fill(f, n)
		case f.Kind() == reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			if p.Elem().Kind() == reflect.Struct && p.Elem().Type() != timeType {
				continue
			}
			set(p.Elem(), *n)
			f.Set(p)
		default:
			set(f, *n)
		}
	}
}

func set(f reflect.Value, n int) {
	switch {
	case f.Type() == timeType:
		f.Set(reflect.ValueOf(time.Unix(int64(1e9+n), 0).UTC()))
	case f.Kind() == reflect.String:
		f.SetString("v" + string(rune('a'+n%26)))
	case f.Kind() == reflect.Int64:
		f.SetInt(int64(n))
	case f.Kind() == reflect.Float64:
		f.SetFloat(float64(n) + 0.5)
	case f.Kind() == reflect.Bool:
		f.SetBool(true)
	}
}

// mutations of one field: every one must change the content hash (unless
// the field is tagged nohash) and the key hash only for key fields.
func mutations(f reflect.Value) []func() {
	switch {
	case f.Type() == timeType:
		return []func(){func() { f.Set(reflect.ValueOf(f.Interface().(time.Time).Add(time.Microsecond))) }}
	case f.Kind() == reflect.Pointer:
		e := f.Elem()
		return append(mutations(e), func() { f.Set(reflect.Zero(f.Type())) })
	case f.Kind() == reflect.String:
		return []func(){func() { f.SetString(f.String() + "x") }, func() { f.SetString("") }}
	case f.Kind() == reflect.Int64:
		return []func(){func() { f.SetInt(f.Int() + 1) }, func() { f.SetInt(0) }}
	case f.Kind() == reflect.Float64:
		return []func(){func() { f.SetFloat(f.Float() * 2) }, func() { f.SetFloat(0) }}
	case f.Kind() == reflect.Bool:
		return []func(){func() { f.SetBool(!f.Bool()) }}
	}
	return nil
}

// TestEveryFieldChangesTheContentHash runs, for every table of the
// registry (so also for a table added later), every field of its row type
// through mutations; the hash of a writer's copy of each row (as the file
// writer computes it for the key index) must equal the row's.
func TestEveryFieldChangesTheContentHash(t *testing.T) {
	for _, tab := range Tables() {
		t.Run(tab.Name, func(t *testing.T) {
			rt := tab.rows
			hashes := func(v reflect.Value) ([2]uint64, uint64) {
				p := v.Addr().UnsafePointer()
				k, _ := rt.keyHash(nil, p)
				h, _ := rt.contentHash(nil, p)
				// The file writer hashes its copy of the row, whose optional
				// values it owns (rowBatch.add): the same.
				b := newRowBatch[byte](1)
				cp := reflect.New(rt.typ)
				cp.Elem().Set(v)
				b.own.take(rt, cp.UnsafePointer(), 1)
				if hc, _ := rt.contentHash(nil, cp.UnsafePointer()); hc != h {
					t.Errorf("content hash of the batch's copy %x, of the row %x (%+v)", hc, h, v.Interface())
				}
				return k, h
			}
			for fi, f := range rt.fields {
				isKey := slices.Contains(rt.key, fi)
				isHashed := slices.Contains(rt.hashed, fi)
				base := reflect.New(rt.typ).Elem()
				n := 0
				fill(base, &n)
				k0, h0 := hashes(base)
				for mi := range len(mutations(base.FieldByName(f.goName))) {
					row := reflect.New(rt.typ).Elem()
					n := 0
					fill(row, &n)
					mutations(row.FieldByName(f.goName))[mi]()
					k, h := hashes(row)
					if got := h != h0; got != isHashed {
						t.Errorf("%s (%s) mutation %d: content hash changed = %v, want %v", f.goName, f.name, mi, got, isHashed)
					}
					if got := k != k0; got != isKey {
						t.Errorf("%s (%s) mutation %d: key hash changed = %v, want %v", f.goName, f.name, mi, got, isKey)
					}
				}
			}
			// Every Go field is covered: stored, a partition, or provenance.
			var goFields []string
			for i := 0; i < rt.typ.NumField(); i++ {
				if sf := rt.typ.Field(i); !sf.Anonymous {
					goFields = append(goFields, sf.Name)
				}
			}
			for _, name := range goFields {
				if !slices.ContainsFunc(rt.fields, func(f rowField) bool { return f.goName == name }) {
					t.Errorf("field %s is neither stored nor a partition column", name)
				}
			}
		})
	}
}

// TestMovingAValueBetweenColumnsChangesTheHash: hashes name their columns.
func TestMovingAValueBetweenColumnsChangesTheHash(t *testing.T) {
	tab, _ := LookupTable(Verdicts)
	type v struct{ a, b *float64 }
	one := 1.0
	rows := []v{{&one, nil}, {nil, &one}}
	var hs []uint64
	for _, r := range rows {
		row := reflect.New(tab.rows.typ).Elem()
		row.FieldByName("Score").Set(reflect.ValueOf(r.a))
		row.FieldByName("Confidence").Set(reflect.ValueOf(r.b))
		h, _ := tab.rows.contentHash(nil, unsafe.Pointer(row.Addr().Pointer()))
		hs = append(hs, h)
	}
	if hs[0] == hs[1] {
		t.Fatal("score=1 and confidence=1 hash the same")
	}
}

// TestDeclaredTables pins what the tags declare for today's tables (the
// README's table list).
func TestDeclaredTables(t *testing.T) {
	want := map[string][2][]string{
		Episodes:    {{"agent"}, {"episode_id"}},
		Actions:     {{"agent"}, {"episode_id", "step"}},
		GroundTruth: {nil, {"episode_id", "verifier_sha256", "annotator"}},
		Labels:      {nil, {"episode_id"}},
		Verdicts:    {{"judge", "condition"}, {"episode_id", "judge", "condition", "run"}},
		Results:     {{"benchmark"}, {"result_id"}},
		Trust:       {{"benchmark"}, {"result_id"}},
		SelfTests:   {nil, {"verifier_sha256", "fixture"}},
	}
	for name, w := range want {
		tab, err := LookupTable(name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tab.Partitions, w[0]) || !slices.Equal(tab.Key, w[1]) {
			t.Errorf("%s: partitions %v key %v, want %v %v", name, tab.Partitions, tab.Key, w[0], w[1])
		}
	}
}
