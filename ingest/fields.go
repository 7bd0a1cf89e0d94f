package ingest

import (
	"fmt"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// fieldError builds the field-level error of a decoder.
func fieldError(name string, sentinel error, err error) *schema.FieldError {
	return &schema.FieldError{Field: name, Err: fmt.Errorf("%w: %v", sentinel, err)}
}

// typeOrValue classifies an accessor error: a wrong JSON kind is ErrType,
// anything else (NaN, overflow, bad escape) is ErrValue.
func typeOrValue(f *field, err error) error {
	if f.kind == kNonFinite || f.kind == kNumber || f.kind == kString {
		switch f.kind {
		case kNonFinite:
			return schema.ErrValue
		}
	}
	if len(err.Error()) > 5 && err.Error()[:5] == "want " {
		return schema.ErrType
	}
	return schema.ErrValue
}

func bad(f *field, err error) *schema.FieldError {
	return fieldError(string(f.key), typeOrValue(f, err), err)
}

// parseTime parses an RFC 3339 timestamp; one without a zone is refused
// rather than guessed.
func parseTime(s string) (time.Time, error) {
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
	if f.kind == kNull {
		return nil, nil
	}
	s, err := f.str()
	if err != nil {
		return nil, err
	}
	t, err := parseTime(s)
	if err != nil {
		return nil, err
	}
	return &t, nil
}
