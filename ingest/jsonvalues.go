package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoding of the values jsonscan.go delimits: string unquoting, typed
// accessors with schema-style errors, and the extra-fields object.

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// unquote decodes the raw bytes of a JSON string body (without quotes).
func unquote(raw []byte) (string, error) {
	bs := bytes.IndexByte(raw, '\\')
	if bs < 0 {
		return string(raw), nil
	}
	out := make([]byte, 0, len(raw))
	out = append(out, raw[:bs]...)
	for i := bs; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(raw) {
			return "", errors.New("bad escape")
		}
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, err := hex4(raw, i+1)
			if err != nil {
				return "", err
			}
			i += n
			if utf16.IsSurrogate(r) {
				r2, n2, err := hex4(raw, i+3)
				dec := utf8.RuneError
				if err == nil && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					dec = utf16.DecodeRune(r, r2)
				}
				if dec == utf8.RuneError {
					return "", errLoneSurrogate(r)
				}
				r = dec
				i += 2 + n2
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", fmt.Errorf("bad escape \\%c", raw[i])
		}
	}
	return string(out), nil
}

func hex4(raw []byte, i int) (rune, int, error) {
	if i+4 > len(raw) {
		return 0, 0, errors.New("bad \\u escape")
	}
	v, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	if err != nil {
		return 0, 0, errors.New("bad \\u escape")
	}
	return rune(v), 4, nil
}

// Typed accessors. Each returns schema-style errors naming what was wanted.

func (f *field) typeErr(want string) error {
	return &typeError{want: want, got: f.kind.String()}
}

func (f *field) str() (string, error) {
	if f.kind != kString {
		return "", f.typeErr("string")
	}
	return unquote(f.val[1 : len(f.val)-1])
}

// opt decodes an optional field: nil for null, else the value get reads.
func opt[T any](f *field, get func() (T, error)) (*T, error) {
	if f.kind == kNull {
		return nil, nil
	}
	v, err := get()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (f *field) optStr() (*string, error) { return opt(f, f.str) }

func (f *field) float() (float64, error) {
	switch f.kind {
	case kNonFinite:
		return 0, fmt.Errorf("%s is not a finite number", f.val)
	case kNumber:
	default:
		return 0, f.typeErr("number")
	}
	if v, ok := fastFloat(f.val); ok {
		return v, nil
	}
	v, err := strconv.ParseFloat(string(f.val), 64)
	if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s overflows a float64", f.val)
	}
	if err != nil {
		return 0, fmt.Errorf("bad number %s", f.val)
	}
	return v, nil
}

func (f *field) optFloat() (*float64, error) { return opt(f, f.float) }

func (f *field) int() (int64, error) {
	if f.kind != kNumber {
		return 0, f.typeErr("integer")
	}
	v, err := strconv.ParseInt(string(f.val), 10, 64)
	if err != nil {
		fv, ferr := strconv.ParseFloat(string(f.val), 64)
		if ferr == nil && fv == math.Trunc(fv) && math.Abs(fv) < 1<<53 {
			return int64(fv), nil
		}
		return 0, &typeError{want: "integer", got: string(f.val)}
	}
	return v, nil
}

func (f *field) optInt() (*int64, error) { return opt(f, f.int) }

func (f *field) boolean() (bool, error) {
	if f.kind != kBool {
		return false, f.typeErr("boolean")
	}
	return f.val[0] == 't', nil
}

func (f *field) optBool() (*bool, error) { return opt(f, f.boolean) }

// appendExtra appends `"key":value` to an extra-fields object being built.
func appendExtra(dst []byte, f *field) []byte {
	if len(dst) == 0 {
		dst = append(dst, '{')
	} else {
		dst = append(dst, ',')
	}
	dst = appendQuoted(dst, f.key)
	dst = append(dst, ':')
	return append(dst, f.val...)
}

// appendQuoted appends s as a JSON string.
func appendQuoted(dst, s []byte) []byte {
	plain := true
	for _, c := range s {
		if c == '"' || c == '\\' || c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	q, _ := json.Marshal(string(s))
	return append(dst, q...)
}

func closeExtra(b []byte) string {
	if len(b) == 0 {
		return "{}"
	}
	return string(append(b, '}'))
}

// pow10 are the powers of ten that a float64 holds exactly, up to 1e15.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// fastFloat parses a JSON number (already checked by the scanner) without
// an exponent whose digits, as an integer, are at most 2^53 and which has
// at most 15 decimals, such as 0.85: both that integer and the power of ten
// it is divided by are exact in a float64, so the quotient is the correctly
// rounded value (Clinger's fast path, which strconv also takes, after more
// work). ok is false otherwise.
func fastFloat(b []byte) (v float64, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && b[0] == '-' {
		i, neg = 1, true
	}
	var m uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 19 || m > 1<<53 || frac >= len(pow10) {
		return 0, false // 19 digits cannot overflow m
	}
	v = float64(m)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, true
}

// digits returns the offset after the run of decimal digits at b[i].
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// numberText is the number-like run at b[i], for messages.
func numberText(b []byte, i int) string {
	j := i
	for j < len(b) && j-i < 32 && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
		j++
	}
	return string(b[i:j])
}
