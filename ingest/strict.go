package ingest

import (
	"strconv"

	"github.com/trustlake/trustlake/schema"
)

// errNoRecords is the one rule for empty inputs: a file (or folder, or
// query) that holds no record is rejected, whatever its format. Only
// actions.jsonl, a part of an episode folder, may be empty (zero steps).
var errNoRecords = schema.Reason(schema.ErrMissing, "no records (empty input)")

// Every input decoder refuses an object that names the same key twice, at
// any depth: JSON decoders disagree on which value wins, and "keep the
// last" turned {"pass":false,…,"pass":true} into a recorded pass. Keys are
// compared after unescaping, so "p\u0061ss" repeats "pass".

// repeatedKey walks the JSON value b (which must already have been
// scanned as valid) and returns the dotted path of the first key that
// appears twice in one object ("info.reward_info.info.r_actions",
// "gates[2].passed") and the key's byte offset in b; ok is false when no
// key repeats.
func repeatedKey(b []byte) (path string, off int, ok bool) {
	w := keyWalker{b: b}
	i := skipWS(b, 0)
	if w.value(i, ""); w.found {
		return w.path, w.off, true
	}
	return "", 0, false
}

// repeatedKeyError is the record error of a repeated key.
func repeatedKeyError(path string) *schema.FieldError {
	return &schema.FieldError{Field: path, Err: schema.Reason(schema.ErrDuplicate, "key appears twice")}
}

type keyWalker struct {
	b     []byte
	end   int // offset after the last value walked
	found bool
	path  string
	off   int
}

// value walks the value at b[i]; it returns false when it stops early (a
// repeated key found, or input it cannot walk).
func (w *keyWalker) value(i int, path string) bool {
	b := w.b
	if i >= len(b) {
		return false
	}
	switch b[i] {
	case '{':
		return w.object(i, path)
	case '[':
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			w.end = i + 1
			return true
		}
		for n := 0; ; n++ {
			if !w.value(i, path+"["+strconv.Itoa(n)+"]") {
				return false
			}
			i = skipWS(b, w.end)
			if i >= len(b) {
				return false
			}
			if b[i] == ']' {
				w.end = i + 1
				return true
			}
			i = skipWS(b, i+1) // ','
		}
	default:
		_, end, err := skipValue(b, i, 0)
		if err != nil {
			return false
		}
		w.end = end
		return true
	}
}

func (w *keyWalker) object(i int, path string) bool {
	b := w.b
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		w.end = i + 1
		return true
	}
	var keys []string
	var set map[string]bool
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		koff := i
		kend, err := skipString(b, i)
		if err != nil {
			return false
		}
		key, err := unquote(b[i+1 : kend-1])
		if err != nil {
			return false
		}
		sub := key
		if path != "" {
			sub = path + "." + key
		}
		dup := false
		if set != nil {
			dup = set[key]
			set[key] = true
		} else {
			for _, k := range keys {
				dup = dup || k == key
			}
			keys = append(keys, key)
			if len(keys) > 16 {
				set = make(map[string]bool, 32)
				for _, k := range keys {
					set[k] = true
				}
			}
		}
		if dup {
			w.found, w.path, w.off = true, sub, koff
			return false
		}
		i = skipWS(b, kend)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		if !w.value(skipWS(b, i+1), sub) {
			return false
		}
		i = skipWS(b, w.end)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			w.end = i + 1
			return true
		}
		i = skipWS(b, i+1) // ','
	}
}
