package schema

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Identifier rules, in one place for every decoder (each Validate method
// applies them): an identifier (episode, task, result and benchmark ids,
// agents, judges, conditions, annotators) is non-empty, at most maxIDLen
// bytes of valid UTF-8 in Unicode NFC, and holds no C0 or C1 control
// character, no bidirectional control and no U+FFFD. Identifiers are
// refused, never rewritten: a rewritten id would no longer join with the
// user's other data, and two ids could collapse into one (two lone
// surrogates both decode to U+FFFD; "é" in NFC and NFD look alike but
// would make two judges).

// maxIDLen bounds identifiers and partition values.
const maxIDLen = 512

// checkID validates an identifier used as a key or partition value.
func checkID(field, v string) *FieldError {
	if v != "" && len(v) <= maxIDLen && printableASCII(v) {
		return nil // the common case, in one pass
	}
	switch {
	case v == "":
		return fieldErr(field, ErrMissing, "")
	case len(v) > maxIDLen:
		return fieldErr(field, ErrValue, "longer than %d bytes", maxIDLen)
	case !utf8.ValidString(v):
		return fieldErr(field, ErrEncoding, "")
	}
	for _, r := range v {
		switch {
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return fieldErr(field, ErrValue, "control character U+%04X in %q", r, v)
		case isBidiControl(r):
			return fieldErr(field, ErrValue, "bidirectional control U+%04X in %q (it changes how the text displays)", r, v)
		case r == utf8.RuneError:
			return fieldErr(field, ErrEncoding, "U+FFFD in %q (an invalid byte or a lone surrogate escape such as \\ud800 in the input)", v)
		}
	}
	if !norm.NFC.IsNormalString(v) {
		return fieldErr(field, ErrValue, "%+q is not in Unicode NFC (normalise it first, e.g. Python's unicodedata.normalize(\"NFC\", s))", v)
	}
	return nil
}

// isBidiControl reports the characters that reorder displayed text (the
// Unicode Bidi_Control property): U+061C, U+200E, U+200F, U+202A..U+202E
// and U+2066..U+2069.
func isBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// printableASCII reports whether s holds only bytes 0x20..0x7e: valid
// UTF-8 without control characters. Eight bytes at a time: a byte below
// 0x20 or above 0x7e sets its high bit in the word tests (exact as to
// whether any byte does).
func printableASCII(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if ((x-ones*0x20)&^x|(x+ones)|x)&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// checkSHA256 validates a hex sha256: 64 lower-case hex digits.
func checkSHA256(field, v string) *FieldError {
	if v == "" {
		return fieldErr(field, ErrMissing, "")
	}
	if len(v) != 64 || strings.IndexFunc(v, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) >= 0 {
		return fieldErr(field, ErrValue, "%.80q is not a sha256 (64 lower-case hex digits)", v)
	}
	return nil
}
