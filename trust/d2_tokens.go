package trust

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Value tokens. An answer value is a token holding a digit (amounts, counts,
// identifiers such as "HAT136" or "credit_card_4421486"). Tokens are
// normalised so that "1,002", "$1,002" and "1002.0" are one value and
// "20th" is "20". Dates and clock times are not answer values: they are
// reformatted copies of given values far more often than computations.

func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-.,$/:", r)
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// scanTokens calls fn for each normalised token of text holding a digit and
// returns the number of bytes scanned (the work done, for the linear-time
// test).
func scanTokens(text string, fn func(tok string)) int {
	start := -1
	for i, r := range text {
		if isTokenRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emitToken(text[start:i], fn)
			start = -1
		}
	}
	if start >= 0 {
		emitToken(text[start:], fn)
	}
	return len(text)
}

func emitToken(raw string, fn func(string)) {
	t := strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '$' })
	t = strings.TrimRight(t, "$")
	if t == "" || !hasDigit(t) {
		return
	}
	fn(normalise(t))
}

// normalise canonicalises one token: numbers lose "$", thousands commas and
// trailing zeros after the point; ordinals lose their suffix; other tokens
// are lower-cased.
func normalise(t string) string {
	n := strings.TrimPrefix(t, "$")
	if n != "" && strings.Trim(n, "0123456789,.") == "" && strings.Count(n, ".") <= 1 {
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n, ",", ""), 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	lo := strings.ToLower(t)
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if d := strings.TrimSuffix(lo, suf); d != lo && d != "" && strings.Trim(d, "0123456789") == "" {
			return d
		}
	}
	return lo
}

// subTokens calls fn for the parts of a compound token ("credit_card_4421486"
// → "4421486"; "2024-05-20" → "2024", "05", "20") that hold a digit.
func subTokens(tok string, fn func(string)) {
	if !strings.ContainsAny(tok, "_-/:") {
		return
	}
	for _, p := range strings.FieldsFunc(tok, func(r rune) bool { return r == '_' || r == '-' || r == '/' || r == ':' }) {
		if p != tok && hasDigit(p) {
			fn(normalise(p))
		}
	}
}

// isAnswerValue filters tokens that D2 traces: not a date or a clock time,
// and a number with at least two digits or an identifier mixing letters and
// digits.
func isAnswerValue(tok string) bool {
	if strings.ContainsRune(tok, ':') || isDate(tok) {
		return false
	}
	digits, letters := 0, 0
	for _, r := range tok {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	if letters > 0 {
		return digits > 0 && utf8.RuneCountInString(tok) >= 3
	}
	return digits >= 2
}

// isDate matches yyyy-mm-dd, yyyy/mm/dd and mm/dd/yyyy shapes.
func isDate(tok string) bool {
	parts := strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '/' })
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return len(parts[0]) == 4 || len(parts[2]) == 4
}
