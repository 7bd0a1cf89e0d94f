package schema

import (
	"errors"
	"fmt"
)

// Sentinel reasons carried by RecordError.Err; test them with errors.Is.
var (
	ErrMissing   = errors.New("missing")
	ErrType      = errors.New("wrong type")
	ErrValue     = errors.New("invalid value")
	ErrDuplicate = errors.New("duplicate key")
	ErrConflict  = errors.New("conflicts with a row already in the lake")
	ErrSyntax    = errors.New("malformed")
	ErrEncoding  = errors.New("not valid UTF-8")
	ErrTooLong   = errors.New("line too long")
	ErrPath      = errors.New("unsafe path")
)

// RecordError reports one rejected input record, in the shape of
// fs.PathError. It prints like a compiler message: "file:line: field: reason".
type RecordError struct {
	File  string
	Line  int64 // 1-based; 0 when the error concerns the whole file
	Field string
	Err   error
}

func (e *RecordError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field == "" {
		return fmt.Sprintf("%s: %v", loc, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", loc, e.Field, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// Reason wraps a sentinel with a detail: Reason(ErrValue, "verdict %q not in ...").
func Reason(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}
