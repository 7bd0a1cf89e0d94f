package ingest

import (
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
	bs := -1
	for i, c := range raw {
		if c == '\\' {
			bs = i
			break
		}
	}
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
				if err == nil && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 2 + n2
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
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

func (f *field) optStr() (*string, error) {
	if f.kind == kNull {
		return nil, nil
	}
	s, err := f.str()
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (f *field) float() (float64, error) {
	switch f.kind {
	case kNonFinite:
		return 0, fmt.Errorf("%s is not a finite number", f.val)
	case kNumber:
	default:
		return 0, f.typeErr("number")
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

func (f *field) optFloat() (*float64, error) {
	if f.kind == kNull {
		return nil, nil
	}
	v, err := f.float()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

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

func (f *field) optInt() (*int64, error) {
	if f.kind == kNull {
		return nil, nil
	}
	v, err := f.int()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (f *field) boolean() (bool, error) {
	if f.kind != kBool {
		return false, f.typeErr("boolean")
	}
	return f.val[0] == 't', nil
}

func (f *field) optBool() (*bool, error) {
	if f.kind == kNull {
		return nil, nil
	}
	v, err := f.boolean()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// keyIs compares the key with name.
func (f *field) keyIs(name string) bool { return string(f.key) == name }

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
