package ingest

import (
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// RecordErrors is every rejected record of one input, in input order. A
// decoder returns it (as an error) after it has emitted all good records, so
// one bad record never hides the rest of the file. Print it with Error: one
// "file:line: field: reason" per line.
type RecordErrors []*schema.RecordError

func (e RecordErrors) Error() string {
	lines := make([]string, len(e))
	for i, r := range e {
		lines[i] = r.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As look at each record error.
func (e RecordErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, r := range e {
		out[i] = r
	}
	return out
}
