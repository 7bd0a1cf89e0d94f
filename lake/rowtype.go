package lake

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/trustlake/trustlake/schema"
)

// rowType is what the lake derives, once, from the struct tags of a table's
// Go row type (package schema): the columns, the natural key, the partition
// columns and the fields covered by the content hash. Keys and hashes are
// computed from it for every row type alike.
//
// Tags: `parquet:"name,..."` names a stored column; `lake:"key"` marks a
// natural key column (key order is declaration order); `lake:"partition=COL"`
// a hive partition column (stored in the path, `parquet:"-"`); `lake:"nohash"`
// a stored field that the content hash leaves out; `lake:"freetext"` a
// string column written without min/max statistics.
type rowType struct {
	typ    reflect.Type
	fields []rowField // every stored or partition field, declaration order
	key    []int      // indexes into fields
	parts  []int      // indexes into fields, outermost partition first
	hashed []int      // indexes into fields
	// freeText are the columns tagged lake:"freetext" (message text, raw
	// replies): their files carry no min/max bounds, which no query
	// filters on and which would copy long values into every footer.
	freeText []string
	srcFile  uintptr // offset of Provenance.SrcFile
	srcLine  uintptr // offset of Provenance.SrcLine
	// opt are the stored fields that are pointers (optional columns);
	// optN counts them by kind.
	opt  []rowField
	optN [kTime + 1]int
}

// rowField is one field of a row type.
type rowField struct {
	name   string // column name (the partition column for partition fields)
	prefix []byte // name as hashed: length-prefixed
	goName string
	offset uintptr
	kind   fieldKind
	opt    bool // a pointer field: an optional column
}

// fieldKind is the type of a field's value (of what it points to, for an
// optional field).
type fieldKind uint8

const (
	kString fieldKind = iota + 1
	kInt64
	kFloat64
	kBool
	kTime
)

var (
	timeType       = reflect.TypeFor[time.Time]()
	provenanceType = reflect.TypeFor[schema.Provenance]()
	// kindTypes are the Go types of the field kinds.
	kindTypes = map[fieldKind]reflect.Type{
		kString:  reflect.TypeFor[string](),
		kInt64:   reflect.TypeFor[int64](),
		kFloat64: reflect.TypeFor[float64](),
		kBool:    reflect.TypeFor[bool](),
		kTime:    timeType,
	}
)

// kindOf returns the kind of a field of type t and whether it is a pointer.
func kindOf(t reflect.Type) (fieldKind, bool, bool) {
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	for k, kt := range kindTypes {
		if t == kt {
			return k, ptr, true
		}
	}
	return 0, false, false
}

// deriveRowType reads the tags of T. It panics on a row type the lake
// cannot describe: that is a programming error caught by every test.
func deriveRowType(typ reflect.Type) *rowType {
	rt := &rowType{typ: typ}
	var walk func(t reflect.Type, base uintptr)
	walk = func(t reflect.Type, base uintptr) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if sf.Anonymous && sf.Type == provenanceType {
				f, _ := sf.Type.FieldByName("SrcFile")
				l, _ := sf.Type.FieldByName("SrcLine")
				rt.srcFile, rt.srcLine = base+sf.Offset+f.Offset, base+sf.Offset+l.Offset
			}
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, base+sf.Offset)
				continue
			}
			col, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
			var key, nohash, freeText bool
			var part string
			for _, opt := range strings.Split(sf.Tag.Get("lake"), ",") {
				switch {
				case opt == "":
				case opt == "key":
					key = true
				case opt == "nohash":
					nohash = true
				case opt == "freetext":
					freeText = true
				case strings.HasPrefix(opt, "partition="):
					part = strings.TrimPrefix(opt, "partition=")
				default:
					panic(fmt.Sprintf("lake: %s.%s: unknown lake tag option %q", typ.Name(), sf.Name, opt))
				}
			}
			if part != "" {
				col = part
			}
			if col == "-" || col == "" {
				if key || nohash || freeText {
					panic(fmt.Sprintf("lake: %s.%s: tagged lake:%q but neither stored nor a partition", typ.Name(), sf.Name, sf.Tag.Get("lake")))
				}
				continue
			}
			k, ptr, ok := kindOf(sf.Type)
			if !ok {
				panic(fmt.Sprintf("lake: %s.%s: type %s is not a lake column type", typ.Name(), sf.Name, sf.Type))
			}
			idx := len(rt.fields)
			rt.fields = append(rt.fields, rowField{name: col, prefix: appendString(nil, col), goName: sf.Name,
				offset: base + sf.Offset, kind: k, opt: ptr})
			if key {
				rt.key = append(rt.key, idx)
			}
			if ptr {
				rt.opt = append(rt.opt, rt.fields[idx])
				rt.optN[k]++
			}
			if part != "" {
				if k != kString || ptr {
					panic(fmt.Sprintf("lake: %s.%s: a partition field must be a string", typ.Name(), sf.Name))
				}
				rt.parts = append(rt.parts, idx)
			}
			if !nohash {
				rt.hashed = append(rt.hashed, idx)
			}
			if freeText {
				if k != kString || part != "" {
					panic(fmt.Sprintf("lake: %s.%s: only a stored string column can be free text", typ.Name(), sf.Name))
				}
				rt.freeText = append(rt.freeText, col)
			}
		}
	}
	walk(typ, 0)
	if len(rt.key) == 0 {
		panic(fmt.Sprintf("lake: %s: no field tagged lake:\"key\"", typ.Name()))
	}
	if rt.srcFile == 0 && rt.srcLine == 0 {
		panic(fmt.Sprintf("lake: %s: no embedded schema.Provenance", typ.Name()))
	}
	return rt
}

func (rt *rowType) columns(idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = rt.fields[j].name
	}
	return out
}

func str(p unsafe.Pointer, f *rowField) string { return *(*string)(unsafe.Add(p, f.offset)) }

// at returns the address of the field's value in the row at p: nil for
// a nil pointer.
func (f *rowField) at(p unsafe.Pointer) unsafe.Pointer {
	a := unsafe.Add(p, f.offset)
	if f.opt {
		return *(*unsafe.Pointer)(a)
	}
	return a
}

// appendValue appends prefix and a field's value in a self-delimiting form
// (strings length-prefixed; numbers, bools and times, in microseconds, as
// eight bytes). A nil pointer or the zero value of a plain field appends
// nothing, not even prefix: it contributes nothing to a content hash (so
// adding an optional column later does not change the hash of rows that
// lack it).
func appendValue(b, prefix []byte, p unsafe.Pointer, f *rowField) []byte {
	a := f.at(p)
	if a == nil {
		return b
	}
	var u uint64
	switch f.kind {
	case kString:
		s := *(*string)(a)
		if s == "" && !f.opt {
			return b
		}
		return appendString(append(b, prefix...), s)
	case kInt64, kFloat64:
		u = *(*uint64)(a)
	case kBool:
		if *(*bool)(a) {
			u = 1
		}
	case kTime:
		t := (*time.Time)(a)
		if t.IsZero() && !f.opt {
			return b
		}
		u = uint64(t.UnixMicro())
	}
	if u == 0 && !f.opt && f.kind != kTime {
		return b
	}
	return binary.LittleEndian.AppendUint64(append(b, prefix...), u)
}

// appendString appends s prefixed with its length.
func appendString[S string | []byte](b []byte, s S) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// contentHash hashes every hashed field that holds a value, each with its
// column name, so that moving a value between columns changes the hash.
// It is stable across processes and versions (xxh3), so it can be stored.
func (rt *rowType) contentHash(buf []byte, p unsafe.Pointer) (uint64, []byte) {
	b := buf[:0]
	for _, i := range rt.hashed {
		f := &rt.fields[i]
		b = appendValue(b, f.prefix, p, f)
	}
	return xxh3.Hash(b), b
}

// keyHash is a 128-bit hash of the natural key, stable across processes.
func (rt *rowType) keyHash(buf []byte, p unsafe.Pointer) ([2]uint64, []byte) {
	b := buf[:0]
	for _, i := range rt.key {
		f := &rt.fields[i]
		switch {
		case f.kind == kString && !f.opt:
			b = appendString(b, str(p, f))
		case f.kind == kInt64 && !f.opt:
			var digits [20]byte
			b = appendString(b, strconv.AppendInt(digits[:0], *(*int64)(unsafe.Add(p, f.offset)), 10))
		default:
			b = appendString(b, appendValue(nil, nil, p, f))
		}
	}
	h := xxh3.Hash128(b)
	return [2]uint64{h.Hi, h.Lo}, b
}

// keyString is the natural key for messages: values joined by "/"; a nil
// pointer key field (such as ground_truth's annotator on verifier rows) is
// left out.
func (rt *rowType) keyString(p unsafe.Pointer) string {
	vals := make([]string, 0, len(rt.key))
	for _, j := range rt.key {
		if a := rt.fields[j].at(p); a != nil {
			vals = append(vals, fmt.Sprint(reflect.NewAt(kindTypes[rt.fields[j].kind], a).Elem().Interface()))
		}
	}
	return strings.Join(vals, "/")
}

// partition returns the row's hive partition values.
func (rt *rowType) partition(p unsafe.Pointer) []string {
	if len(rt.parts) == 0 {
		return nil
	}
	out := make([]string, len(rt.parts))
	for i, j := range rt.parts {
		out[i] = str(p, &rt.fields[j])
	}
	return out
}

// inPartition reports whether the row's partition values are values,
// without allocating.
func (rt *rowType) inPartition(p unsafe.Pointer, values []string) bool {
	for i, j := range rt.parts {
		if str(p, &rt.fields[j]) != values[i] {
			return false
		}
	}
	return true
}

// setPartition restores the partition fields from the hive path.
func (rt *rowType) setPartition(p unsafe.Pointer, values []string) {
	for i, j := range rt.parts {
		*(*string)(unsafe.Add(p, rt.fields[j].offset)) = values[i]
	}
}

// where returns the row's source file and line.
func (rt *rowType) where(p unsafe.Pointer) (string, int64) {
	return *(*string)(unsafe.Add(p, rt.srcFile)), *(*int64)(unsafe.Add(p, rt.srcLine))
}

// origin formats a source as "file:line" (or "file" when line is 0).
func origin(file string, line int64) string {
	if line <= 0 {
		return file
	}
	return file + ":" + strconv.FormatInt(line, 10)
}
