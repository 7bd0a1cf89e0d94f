package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting of a judge reply or response envelope.
const maxJSONDepth = 64

// decodeStrict decodes one JSON value into v (a pointer to a struct) as
// encoding/json would, but refuses what encoding/json silently resolves:
// a key repeated in one object (the last one would win), two keys of one
// object that differ only in case, and a key that matches one of v's
// fields only case-insensitively ({"VERDICT": ...}). A judge reply and a
// response envelope must say one thing once.
func decodeStrict(data []byte, v any) error {
	if err := checkKeys(data, fieldNames(reflect.TypeOf(v))); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// checkKeys walks the tokens of one JSON value (linear in its size) and
// checks the keys of every object.
func checkKeys(data []byte, fields map[string]string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []keyFrame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if len(stack) > 0 {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
		if err != nil {
			return err
		}
		top := len(stack) - 1
		switch d, _ := tok.(json.Delim); {
		case top >= 0 && stack[top].key && d != '}':
			k := tok.(string)
			f := foldKey(k)
			if prev, dup := stack[top].seen[f]; dup {
				if prev == k {
					return fmt.Errorf("key %q repeated", k)
				}
				return fmt.Errorf("keys %q and %q differ only in case", prev, k)
			}
			if want, ok := fields[f]; ok && want != k {
				return fmt.Errorf("key %q: the field is %q", k, want)
			}
			stack[top].seen[f] = k
			stack[top].key = false
			continue
		case d == '{' || d == '[':
			if len(stack) >= maxJSONDepth {
				return fmt.Errorf("nested deeper than %d", maxJSONDepth)
			}
			f := keyFrame{object: d == '{', key: d == '{'}
			if f.object {
				f.seen = map[string]string{}
			}
			stack = append(stack, f)
			continue
		case d == '}' || d == ']':
			stack = stack[:top]
		}
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].key = true // a value was read: in an object, a key comes next
		}
		if len(stack) == 0 {
			if _, err := dec.Token(); err != io.EOF {
				return errors.New("more than one JSON value")
			}
			return nil
		}
	}
}

// keyFrame is one open object or array of checkKeys' walk.
type keyFrame struct {
	object bool
	key    bool              // the next token of the object is a key
	seen   map[string]string // folded key → the key as written
}

// foldKey maps every rune to the smallest rune of its simple case-folding
// orbit, so foldKey(a) == foldKey(b) exactly when strings.EqualFold(a, b):
// encoding/json's rule for matching a key to a field.
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == utf8.RuneError {
			b.WriteRune(r)
			continue
		}
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

var fieldCache sync.Map // reflect.Type → map[string]string

// fieldNames returns the JSON names of every struct field reachable from t
// (through pointers, slices and nested structs), by their folded form.
func fieldNames(t reflect.Type) map[string]string {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]string)
	}
	m := map[string]string{}
	var walk func(reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			m[foldKey(name)] = name
			walk(f.Type)
		}
	}
	walk(t)
	fieldCache.Store(t, m)
	return m
}
