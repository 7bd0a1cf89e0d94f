package ingest

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// A small allocation-light JSON object scanner for the ingest hot path.
// It splits one object into its fields, keeping each value's raw bytes and
// kind; typed accessors then decode the values a row needs. It accepts the
// non-standard tokens NaN, Infinity and -Infinity (which Python writes) as
// top-level values of kind kNonFinite so that the decoders reject them with
// a clear message instead of a syntax error; otherwise it accepts exactly
// JSON (FuzzScanObjectMatchesEncodingJSON checks it against encoding/json).

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kObject
	kArray
	kNonFinite // NaN, Infinity, -Infinity
)

func (k kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array", "non-finite number"}[k]
}

type field struct {
	key  []byte // key, unquoted (escapes decoded)
	val  []byte // raw value bytes
	kind kind
	off  int // offset of the key's opening quote in the scanned input
}

type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func synErr(off int, format string, args ...any) error {
	return &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

// scanObject parses b, which must hold exactly one JSON object (surrounding
// whitespace allowed), appending its fields to dst.
func scanObject(dst []field, b []byte) ([]field, error) {
	return scanObjectKeys(dst, b, nil)
}

// keyHint is a likely key of an object (scanObjectKeys), quoted as in the
// input ("\"run\""), with its first 16 bytes as two little-endian words
// and masks of its bytes, to compare with the input in two loads.
type keyHint struct {
	quoted string
	w, m   [2]uint64
	short  bool // at most 16 bytes: the words are the whole key
}

// keyHints makes the hints of keys, each quoted as in the input.
func keyHints(keys ...string) []keyHint {
	hs := make([]keyHint, len(keys))
	for i, k := range keys {
		h := &hs[i]
		h.quoted, h.short = k, len(k) <= 16
		for j := 0; j < len(k) && j < 16; j++ {
			h.w[j/8] |= uint64(k[j]) << (8 * (j % 8))
			h.m[j/8] |= 0xff << (8 * (j % 8))
		}
	}
	return hs
}

// at reports whether b[i:] starts with the key.
func (h *keyHint) at(b []byte, i int) bool {
	if h.short && len(b)-i >= 16 {
		x0, x1 := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
		return (x0^h.w[0])&h.m[0]|(x1^h.w[1])&h.m[1] == 0
	}
	return len(b)-i >= len(h.quoted) && string(b[i:i+len(h.quoted)]) == h.quoted
}

// scanObjectKeys is scanObject told the keys the object's fields most
// likely have, in order (keyHints): where the input holds exactly that
// key, it is taken without scanning it as a string (a quoted key without
// escapes is its own scan). Any other key, or any order, scans as usual,
// to the same fields.
func scanObjectKeys(dst []field, b []byte, keys []keyHint) ([]field, error) {
	i := skipWS(b, 0)
	if i >= len(b) {
		return dst, synErr(i, "empty input")
	}
	if b[i] != '{' {
		return dst, synErr(i, "want a JSON object, found %q", b[i])
	}
	dst, end, err := scanFields(dst, b, i, keys)
	if err != nil {
		return dst, err
	}
	if j := skipWS(b, end); j < len(b) {
		return dst, synErr(j, "unexpected %q after the object", b[j])
	}
	return dst, nil
}

// scanFields parses the object starting at b[i] == '{' and returns the
// offset after its closing brace; keys are the likely keys
// (scanObjectKeys).
func scanFields(dst []field, b []byte, i int, keys []keyHint) ([]field, int, error) {
	n := 0 // fields read
	i++
	i = skipWS(b, i)
	if i < len(b) && b[i] == '}' {
		return dst, i + 1, nil
	}
	for {
		i = skipWS(b, i)
		if i >= len(b) {
			return dst, i, synErr(i, "unexpected end of input inside an object (truncated line?)")
		}
		if b[i] != '"' {
			return dst, i, synErr(i, "want a quoted key, found %q", b[i])
		}
		koff := i
		var kend int
		var escaped bool
		var err error
		if n < len(keys) && keys[n].at(b, i) {
			kend = i + len(keys[n].quoted)
		} else if kend, escaped, err = scanString(b, i); err != nil {
			return dst, i, err
		}
		n++
		key := b[i+1 : kend-1]
		if escaped { // "r\u0075n" is the key run, as for encoding/json
			k, err := unquote(key)
			if err != nil {
				return dst, i, synErr(i, "%v in key", err)
			}
			key = []byte(k)
		}
		i = skipWS(b, kend)
		if i >= len(b) || b[i] != ':' {
			return dst, i, synErr(i, "want ':' after key %q", key)
		}
		i = skipWS(b, i+1)
		vstart := i
		k, vend, err := skipValue(b, i, 0)
		if err != nil {
			return dst, i, err
		}
		// Into the slot in place (appending a literal costs a copy).
		if len(dst) < cap(dst) {
			dst = dst[:len(dst)+1]
		} else {
			dst = append(dst, field{})
		}
		f := &dst[len(dst)-1]
		f.key, f.val, f.kind, f.off = key, b[vstart:vend], k, koff
		i = skipWS(b, vend)
		if i >= len(b) {
			return dst, i, synErr(i, "unexpected end of input inside an object (truncated line?)")
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return dst, i + 1, nil
		default:
			return dst, i, synErr(i, "want ',' or '}', found %q", b[i])
		}
	}
}

func skipWS(b []byte, i int) int {
	// One compare for the usual byte, which is not white space.
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// maxDepth is maxNesting as skipValue counts (from a field value of the top
// object).
const maxDepth = maxNesting - 1

// skipValue returns the kind of the value at b[i] and the offset after it.
func skipValue(b []byte, i, depth int) (kind, int, error) {
	if i >= len(b) {
		return 0, i, synErr(i, "unexpected end of input, want a value (truncated line?)")
	}
	if depth > maxDepth {
		return 0, i, synErr(i, "nested deeper than %d levels", maxNesting)
	}
	switch c := b[i]; {
	case c == '"':
		end, err := skipString(b, i)
		return kString, end, err
	case c == '{' || c == '[':
		close := byte('}')
		k := kObject
		if c == '[' {
			close, k = ']', kArray
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == close {
			return k, i + 1, nil
		}
		for {
			if k == kObject {
				i = skipWS(b, i)
				if i >= len(b) || b[i] != '"' {
					return 0, i, synErr(i, "want a quoted key")
				}
				end, err := skipString(b, i)
				if err != nil {
					return 0, i, err
				}
				i = skipWS(b, end)
				if i >= len(b) || b[i] != ':' {
					return 0, i, synErr(i, "want ':'")
				}
				i++
			}
			i = skipWS(b, i)
			_, end, err := skipValue(b, i, depth+1)
			if err != nil {
				return 0, i, err
			}
			i = skipWS(b, end)
			if i >= len(b) {
				return 0, i, synErr(i, "unexpected end of input inside %s (truncated line?)", k)
			}
			if b[i] == ',' {
				i++
				continue
			}
			if b[i] == close {
				return k, i + 1, nil
			}
			return 0, i, synErr(i, "want ',' or %q, found %q", close, b[i])
		}
	case c == 't':
		return lit(b, i, "true", kBool)
	case c == 'f':
		return lit(b, i, "false", kBool)
	case c == 'n':
		return lit(b, i, "null", kNull)
	case (c == 'N' || c == 'I' || c == '-' && i+1 < len(b) && b[i+1] == 'I') && depth > 0:
		return 0, i, synErr(i, "non-finite number inside a nested value is not JSON")
	case c == 'N':
		return lit(b, i, "NaN", kNonFinite)
	case c == 'I':
		return lit(b, i, "Infinity", kNonFinite)
	case c == '-' && i+1 < len(b) && b[i+1] == 'I':
		return lit(b, i, "-Infinity", kNonFinite)
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(b, i)
	default:
		return 0, i, synErr(i, "unexpected %q, want a value", c)
	}
}

// scanNumber reads a number with JSON's grammar exactly:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?. A leading zero ("01"),
// a bare point ("1.") or exponent ("1e") and a plus sign are not JSON.
func scanNumber(b []byte, i int) (kind, int, error) {
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
		if i < len(b) && b[i] >= '0' && b[i] <= '9' {
			return 0, i, synErr(start, "malformed number: leading zero in %s", numberText(b, start))
		}
	default:
		j := digits(b, i)
		if j == i {
			return 0, i, synErr(start, "malformed number %s", numberText(b, start))
		}
		i = j
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, j, synErr(start, "malformed number %s: want digits after '.'", numberText(b, start))
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, i, synErr(start, "malformed number %s: want digits in the exponent", numberText(b, start))
		}
		i = j
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E' || b[i] == '+' || b[i] == '-' || b[i] >= '0' && b[i] <= '9') {
		return 0, i, synErr(start, "malformed number %s", numberText(b, start))
	}
	return kNumber, i, nil
}

func lit(b []byte, i int, word string, k kind) (kind, int, error) {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return 0, i, synErr(i, "malformed literal, want %s", word)
	}
	return k, i + len(word), nil
}

// skipString returns the offset after the string starting at b[i] == '"',
// checking its escapes (so that raw values kept in extra are JSON too).
func skipString(b []byte, i int) (int, error) {
	end, _, err := scanString(b, i)
	return end, err
}

// scanString is skipString that also says whether the string holds an
// escape.
func scanString(b []byte, i int) (end int, escaped bool, err error) {
	for j := i + 1; j < len(b); j++ {
		// Eight plain bytes (no quote, backslash or control character)
		// at a time, then straight to the first that is not (byte by
		// byte in the last few bytes of the input).
		for j+8 <= len(b) {
			if m := special8(binary.LittleEndian.Uint64(b[j:])); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		if j >= len(b) {
			break
		}
		switch b[j] {
		case '"':
			return j + 1, escaped, nil
		case '\\':
			escaped = true
			j++
			if j >= len(b) {
				break
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return j, escaped, synErr(j, "bad \\u escape in string")
				}
				j += 4
			default:
				return j, escaped, synErr(j, "bad escape \\%c in string", b[j])
			}
		default:
			if b[j] < 0x20 {
				return j, escaped, synErr(j, "control character in string")
			}
		}
	}
	return len(b), escaped, synErr(len(b), "unterminated string (truncated line?)")
}

// special8 returns the high bits of the bytes of x that are a quote, a
// backslash or below 0x20 (the classic "has zero byte" and "has byte less
// than n" tests on the word; both exact as to whether any byte matches).
// Its lowest set bit is exactly that of the first such byte (the tests'
// borrows only reach the bytes above a match), so TrailingZeros64/8 is
// its index.
func special8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, bslash := x^(ones*'"'), x^(ones*'\\')
	return ((quote-ones)&^quote | (bslash-ones)&^bslash | (x-ones*0x20)&^x) & highs
}
