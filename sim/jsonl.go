package sim

import (
	"math"
	"strconv"
	"time"
)

// JSON is built by hand in the hot loop (encoding/json is too slow for a
// million rows); these helpers produce valid JSON for any input string.

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendKey appends `,"key":`.
func appendKey(b []byte, key string) []byte {
	b = appendString(append(b, ','), key)
	return append(b, ':')
}

// appendField appends `,"key":"value"`.
func appendField(b []byte, key, value string) []byte { return appendString(appendKey(b, key), value) }

// appendStringOrNull appends s as a JSON string, or null when it is "".
func appendStringOrNull(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

// appendRounded appends x rounded to digits decimals, shortest form.
func appendRounded(b []byte, x float64, digits int) []byte {
	s := math.Pow10(digits)
	return strconv.AppendFloat(b, math.Round(x*s)/s, 'f', -1, 64)
}

// appendTime appends t (converted to UTC) as a JSON string: RFC 3339 with
// a Z and whole seconds.
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, "2006-01-02T15:04:05Z")
	return append(b, '"')
}
