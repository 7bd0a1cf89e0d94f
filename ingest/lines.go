package ingest

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/trustlake/trustlake/schema"
)

// checkLine rejects lines that are not UTF-8.
func checkLine(b []byte) error {
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("%w at byte %d", schema.ErrEncoding, i)
	}
	return nil
}

// checkJSONText is checkLine for JSON text, which also refuses a lone
// surrogate escape (\ud800 without its pair): encoding/json reads it, and
// an invalid byte, as U+FFFD, so two different ids or texts become equal.
func checkJSONText(b []byte) error {
	if err := checkLine(b); err != nil {
		return err
	}
	if off, r := loneSurrogate(b); off >= 0 {
		return fmt.Errorf("%w: lone surrogate escape \\u%04x at byte %d (not a character)", schema.ErrEncoding, r, off)
	}
	return nil
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
