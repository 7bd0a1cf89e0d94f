package ingest

import (
	"errors"
	"fmt"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// fieldError builds the field-level error of a decoder.
func fieldError(name string, sentinel error, err error) *schema.FieldError {
	return &schema.FieldError{Field: name, Err: fmt.Errorf("%w: %v", sentinel, err)}
}

// typeError is an accessor error for a value of the wrong JSON type.
type typeError struct{ want, got string }

func (e *typeError) Error() string { return "want " + e.want + ", got " + e.got }

// typeOrValue classifies an accessor error: a wrong type is ErrType,
// anything else (NaN, overflow, bad escape) is ErrValue.
func typeOrValue(err error) error {
	var te *typeError
	if errors.As(err, &te) {
		return schema.ErrType
	}
	return schema.ErrValue
}

// bad is the field error of field f: err itself when it is one.
func bad(f *field, err error) *schema.FieldError {
	if fe, ok := err.(*schema.FieldError); ok {
		return fe
	}
	return fieldError(string(f.key), typeOrValue(err), err)
}

// parseTime parses an RFC 3339 timestamp; one without a zone is refused
// rather than guessed.
func parseTime(s string) (time.Time, error) {
	if t, ok := parseUTCSeconds(s); ok {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err == nil {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"} {
		if _, e := time.Parse(layout, s); e == nil {
			return time.Time{}, fmt.Errorf("%q has no time zone (want RFC 3339 such as 2026-10-10T10:02:11Z)", s)
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an RFC 3339 timestamp", s)
}

func (f *field) optTime() (*time.Time, error) {
	return opt(f, func() (time.Time, error) {
		s, err := f.str()
		if err != nil {
			return time.Time{}, err
		}
		return parseTime(s)
	})
}

// parseUTCSeconds is the fast path for the common "2006-01-02T15:04:05Z".
func parseUTCSeconds(s string) (time.Time, bool) {
	if len(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for j := i; j < i+n; j++ {
			c := s[j]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	se, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, se, 0, time.UTC)
	if t.Day() != d { // 2026-02-30 and the like: let time.Parse say why
		return time.Time{}, false
	}
	return t, true
}
