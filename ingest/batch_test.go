package ingest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// recordErrors keeps every error of a RecordErrors it is given (wrapped or
// not), and a single RecordError as it is; anything else is placed at
// file:line.
func TestRecordErrorsKeepsAll(t *testing.T) {
	a := &schema.RecordError{File: "a.jsonl", Line: 3, Err: errors.New("bad a")}
	b := &schema.RecordError{File: "b.jsonl", Line: 7, Err: errors.New("bad b")}
	for _, err := range []error{RecordErrors{a, b}, fmt.Errorf("read: %w", RecordErrors{a, b})} {
		if got := recordErrors("x", 1, err); len(got) != 2 || got[0] != a || got[1] != b {
			t.Errorf("recordErrors(%v) = %v, want both errors as they are", err, got)
		}
	}
	if got := recordErrors("x", 1, fmt.Errorf("open: %w", a)); len(got) != 1 || got[0] != a {
		t.Errorf("a wrapped RecordError = %v, want it as it is", got)
	}
	if got := recordErrors("x", 1, errors.New("plain")); len(got) != 1 || got[0].File != "x" || got[0].Line != 1 {
		t.Errorf("a plain error = %v, want it at x:1", got)
	}
}
