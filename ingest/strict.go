package ingest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/trustlake/trustlake/schema"
)

// errNoRecords is the one rule for empty inputs: a file (or folder, or
// query) that holds no record is rejected, whatever its format. Only
// actions.jsonl, a part of an episode folder, may be empty (zero steps).
var errNoRecords = schema.Reason(schema.ErrMissing, "no records (empty input)")

// Every input decoder refuses an object that names the same key twice, at
// any depth: JSON decoders disagree on which value wins, and "keep the
// last" turned {"pass":false,…,"pass":true} into a recorded pass. Keys are
// compared after unescaping and case-folded, so "p\u0061ss" and "Pass"
// repeat "pass" (encoding/json matches struct fields case-insensitively).

// maxNesting bounds how deep objects and arrays may nest in any input
// value: deeper input is refused (real logs nest a few tens of levels).
const maxNesting = 128

// checkKeys walks the JSON value b (which must already have been scanned
// as valid) and returns the error of the first key that appears twice in
// one object, named by its dotted path ("info.reward_info.r_actions",
// "gates[2].passed"), or of the first value nested deeper than maxNesting,
// with the byte offset in b where it is; nil when there is neither. Its
// cost is linear in len(b): the path is built only for the key found.
func checkKeys(b []byte) (*schema.FieldError, int) {
	w := keyWalker{b: b}
	if w.value(skipWS(b, 0)); !w.found {
		return nil, 0
	}
	if w.deep {
		return &schema.FieldError{Field: w.pathString(), Err: schema.Reason(schema.ErrValue, "nested deeper than %d levels", maxNesting)}, w.off
	}
	return &schema.FieldError{Field: w.pathString(), Err: schema.Reason(schema.ErrDuplicate, "key appears twice")}, w.off
}

// pathSeg is one level of the path to the value being walked: an object
// key or an array index.
type pathSeg struct {
	key   string
	index int // -1 for a key
}

type keyWalker struct {
	b     []byte
	end   int // offset after the last value walked
	found bool
	deep  bool
	off   int
	stack []pathSeg
}

// pathString renders the path of the key found ("a.b[2].c"), kept short
// for messages: at most the first and last three levels, keys cut at 40
// bytes.
func (w *keyWalker) pathString() string {
	segs := w.stack
	var sb strings.Builder
	for i, s := range segs {
		if len(segs) > 6 && i == 3 {
			sb.WriteString(".…")
		}
		if len(segs) > 6 && i >= 3 && i < len(segs)-3 {
			continue
		}
		if s.index >= 0 {
			sb.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		if len(s.key) > 40 {
			sb.WriteString(strings.ToValidUTF8(s.key[:40], "") + "…")
		} else {
			sb.WriteString(s.key)
		}
	}
	return sb.String()
}

// value walks the value at b[i]; it returns false when it stops early (a
// repeated key found, nesting too deep, or input it cannot walk).
func (w *keyWalker) value(i int) bool {
	b := w.b
	if i >= len(b) {
		return false
	}
	if (b[i] == '{' || b[i] == '[') && len(w.stack) >= maxNesting {
		w.found, w.deep, w.off = true, true, i
		return false
	}
	switch b[i] {
	case '{':
		return w.object(i)
	case '[':
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			w.end = i + 1
			return true
		}
		w.stack = append(w.stack, pathSeg{})
		for n := 0; ; n++ {
			w.stack[len(w.stack)-1] = pathSeg{index: n}
			if !w.value(i) {
				return false
			}
			i = skipWS(b, w.end)
			if i >= len(b) {
				return false
			}
			if b[i] == ']' {
				w.end = i + 1
				w.stack = w.stack[:len(w.stack)-1]
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

func (w *keyWalker) object(i int) bool {
	b := w.b
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		w.end = i + 1
		return true
	}
	var keys []string
	var set map[string]bool
	w.stack = append(w.stack, pathSeg{index: -1})
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
		w.stack[len(w.stack)-1] = pathSeg{key: key, index: -1}
		folded := strings.ToLower(key) // no copy for a lower-case ASCII key
		dup := false
		if set != nil {
			dup = set[folded]
			set[folded] = true
		} else {
			for _, k := range keys {
				dup = dup || k == folded
			}
			keys = append(keys, folded)
			if len(keys) > 16 {
				set = make(map[string]bool, 32)
				for _, k := range keys {
					set[k] = true
				}
			}
		}
		if dup {
			w.found, w.off = true, koff
			return false
		}
		i = skipWS(b, kend)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		if !w.value(skipWS(b, i+1)) {
			return false
		}
		i = skipWS(b, w.end)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			w.end = i + 1
			w.stack = w.stack[:len(w.stack)-1]
			return true
		}
		i = skipWS(b, i+1) // ','
	}
}

// errLoneSurrogate is the error of a \uD800-\uDFFF escape without its
// pair: it is no character, and decoders that turn it into U+FFFD make two
// different strings equal.
func errLoneSurrogate(r rune) error {
	return fmt.Errorf("lone surrogate escape \\u%04x (not a character)", r)
}

// loneSurrogate returns the offset in b (JSON text) of the first \u escape
// that is a UTF-16 surrogate without its pair, and the surrogate; off is
// -1 when there is none. Backslashes only occur inside JSON strings, so
// the text need not be parsed.
func loneSurrogate(b []byte) (off int, r rune) {
	for i := 0; i < len(b); i++ {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 || i+j+1 >= len(b) {
			return -1, 0
		}
		i += j
		if b[i+1] != 'u' {
			i++ // an escaped character, "\\" included
			continue
		}
		r, _, err := hex4(b, i+2)
		if err != nil || !utf16.IsSurrogate(r) {
			i++
			continue
		}
		if r < 0xdc00 && i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
			if r2, _, err := hex4(b, i+8); err == nil && r2 >= 0xdc00 && r2 < 0xe000 {
				i += 11
				continue
			}
		}
		return i, r
	}
	return -1, 0
}
