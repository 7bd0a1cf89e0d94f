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
	// opt* count them by the kind of value they point to.
	opt                                  []rowField
	optStrs, optNums, optBools, optTimes int
}

// rowField is one field of a row type.
type rowField struct {
	name   string // column name (the partition column for partition fields)
	prefix []byte // name as hashed: length-prefixed
	goName string
	offset uintptr
	kind   fieldKind
}

type fieldKind uint8

const (
	kString fieldKind = iota + 1
	kInt64
	kFloat64
	kBool
	kTime
	kPtrString
	kPtrInt64
	kPtrFloat64
	kPtrBool
	kPtrTime
)

var (
	timeType       = reflect.TypeFor[time.Time]()
	provenanceType = reflect.TypeFor[schema.Provenance]()
)

func kindOf(t reflect.Type) (fieldKind, bool) {
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	var k fieldKind
	switch {
	case t == timeType:
		k = kTime
	case t.Kind() == reflect.String:
		k = kString
	case t.Kind() == reflect.Int64:
		k = kInt64
	case t.Kind() == reflect.Float64:
		k = kFloat64
	case t.Kind() == reflect.Bool:
		k = kBool
	default:
		return 0, false
	}
	if ptr {
		k += kPtrString - kString
	}
	return k, true
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
			k, ok := kindOf(sf.Type)
			if !ok {
				panic(fmt.Sprintf("lake: %s.%s: type %s is not a lake column type", typ.Name(), sf.Name, sf.Type))
			}
			idx := len(rt.fields)
			rt.fields = append(rt.fields, rowField{name: col, prefix: appendString(nil, col), goName: sf.Name, offset: base + sf.Offset, kind: k})
			if key {
				rt.key = append(rt.key, idx)
			}
			rt.countOptional(rt.fields[idx])
			if part != "" {
				if k != kString {
					panic(fmt.Sprintf("lake: %s.%s: a partition field must be a string", typ.Name(), sf.Name))
				}
				rt.parts = append(rt.parts, idx)
			}
			if !nohash {
				rt.hashed = append(rt.hashed, idx)
			}
			if freeText {
				if k != kString && k != kPtrString || part != "" {
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

// countOptional counts field f among the optional ones if it is one.
func (rt *rowType) countOptional(f rowField) {
	switch f.kind {
	case kPtrString:
		rt.optStrs++
	case kPtrInt64, kPtrFloat64:
		rt.optNums++
	case kPtrBool:
		rt.optBools++
	case kPtrTime:
		rt.optTimes++
	default:
		return
	}
	rt.opt = append(rt.opt, f)
}

func (rt *rowType) columns(idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = rt.fields[j].name
	}
	return out
}

func str(p unsafe.Pointer, f *rowField) string { return *(*string)(unsafe.Add(p, f.offset)) }

// appendValue appends a field's value in a self-delimiting form; ok is false
// for a nil pointer or the zero value of a plain field, which contribute
// nothing to a content hash (so adding an optional column later does not
// change the hash of rows that lack it).
func appendValue(b []byte, p unsafe.Pointer, f *rowField) ([]byte, bool) {
	a := unsafe.Add(p, f.offset)
	if f.kind == kString || f.kind == kPtrString {
		s, ok := stringOf(a, f.kind)
		if !ok {
			return b, false
		}
		return appendString(b, s), true
	}
	u, ok := wordOf(a, f.kind)
	if !ok {
		return b, false
	}
	return binary.LittleEndian.AppendUint64(b, u), true
}

// stringOf is the value of a string field of kind k at a; ok is false
// for a nil pointer or "".
func stringOf(a unsafe.Pointer, k fieldKind) (string, bool) {
	if k == kPtrString {
		s := *(**string)(a)
		if s == nil {
			return "", false
		}
		return *s, true
	}
	s := *(*string)(a)
	return s, s != ""
}

// wordOf is the eight bytes of a number, bool or time field of kind k at
// a (times in microseconds); ok is false for a nil pointer or a plain
// field's zero value.
func wordOf(a unsafe.Pointer, k fieldKind) (uint64, bool) {
	switch k {
	case kInt64, kFloat64:
		u := *(*uint64)(a)
		return u, u != 0
	case kPtrInt64, kPtrFloat64:
		v := *(**uint64)(a)
		if v == nil {
			return 0, false
		}
		return *v, true
	case kBool:
		if !*(*bool)(a) {
			return 0, false
		}
		return 1, true
	case kPtrBool:
		v := *(**bool)(a)
		if v == nil {
			return 0, false
		}
		if *v {
			return 1, true
		}
		return 0, true
	case kTime:
		t := (*time.Time)(a)
		if t.IsZero() {
			return 0, false
		}
		return uint64(t.UnixMicro()), true
	case kPtrTime:
		t := *(**time.Time)(a)
		if t == nil {
			return 0, false
		}
		return uint64(t.UnixMicro()), true
	}
	return 0, false
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
		a := unsafe.Add(p, f.offset)
		if f.kind == kString || f.kind == kPtrString {
			if s, ok := stringOf(a, f.kind); ok {
				b = appendString(append(b, f.prefix...), s)
			}
		} else if u, ok := wordOf(a, f.kind); ok {
			b = binary.LittleEndian.AppendUint64(append(b, f.prefix...), u)
		}
	}
	return xxh3.Hash(b), b
}

// keyHash is a 128-bit hash of the natural key, stable across processes.
func (rt *rowType) keyHash(buf []byte, p unsafe.Pointer) ([2]uint64, []byte) {
	b := buf[:0]
	for _, i := range rt.key {
		f := &rt.fields[i]
		switch f.kind {
		case kString:
			b = appendString(b, str(p, f))
		case kInt64:
			var digits [20]byte
			b = appendString(b, strconv.AppendInt(digits[:0], *(*int64)(unsafe.Add(p, f.offset)), 10))
		default:
			v, _ := appendValue(nil, p, f)
			b = appendString(b, v)
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
		f := &rt.fields[j]
		switch f.kind {
		case kString:
			vals = append(vals, str(p, f))
		case kInt64:
			vals = append(vals, strconv.FormatInt(*(*int64)(unsafe.Add(p, f.offset)), 10))
		default:
			v := reflect.Indirect(reflect.NewAt(rt.typ, p).Elem().FieldByName(f.goName))
			if v.IsValid() {
				vals = append(vals, fmt.Sprint(v.Interface()))
			}
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
