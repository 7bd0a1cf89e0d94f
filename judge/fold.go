package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// folded is a text in the form the leakage guard matches in: Unicode
// compatibility form (NFKC: full-width letters, ligatures, non-breaking
// spaces and hyphens become their plain forms), lower case, and only its
// letters and digits. Every other rune (spaces and their runs, '-', '_',
// non-breaking and soft hyphens, dashes, zero-width and bidi controls,
// punctuation) only separates tokens, so "F_UNCOMMITTED", "f‑uncommitted"
// (U+2011) and "F - Uncommitted" all fold to the tokens "f" "uncommitted".
type folded struct {
	s     string // the tokens, concatenated
	start []bool // start[i]: a token starts at byte i of s
	end   []bool // end[i]: a token ends at byte i of s
}

// fold returns text in the guard's matching form.
func fold(text string) folded {
	text = strings.ToLower(norm.NFKC.String(text))
	var b strings.Builder
	b.Grow(len(text))
	// The folded text is never longer than text.
	f := folded{start: make([]bool, len(text)+1), end: make([]bool, len(text)+1)}
	in := false
	for _, r := range text {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		switch {
		case letter && !in:
			f.start[b.Len()] = true
		case !letter && in:
			f.end[b.Len()] = true
		}
		if in = letter; letter {
			b.WriteRune(r)
		}
	}
	if in {
		f.end[b.Len()] = true
	}
	f.s = b.String()
	return f
}

// key returns the folded tokens of s, concatenated: what contains matches.
func key(s string) string { return fold(s).s }

// contains reports whether the folded needle k (from key) occurs in f
// starting at a token start and ending at a token end: "F-ABORT" is found
// in "status: f_abort" but not in "if abort".
func (f folded) contains(k string) bool {
	if k == "" {
		return false
	}
	for off := 0; off+len(k) <= len(f.s); {
		i := strings.Index(f.s[off:], k)
		if i < 0 {
			return false
		}
		i += off
		if f.start[i] && f.end[i+len(k)] {
			return true
		}
		_, size := utf8.DecodeRuneInString(f.s[i:])
		off = i + size
	}
	return false
}
