package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Exit codes. Every command's help lists the ones it uses.
const (
	exitOK          = 0
	exitInternal    = 1
	exitUsage       = 2
	exitRejected    = 3   // input rejected; nothing from the batch committed
	exitCheckFailed = 4   // a check (lake check, tasks check, checklist) found a problem
	exitLocked      = 5   // another writer held the lake past --lock-timeout: retry later
	exitIncomplete  = 6   // a judge run ended with verdicts missing (what it got is committed): rerun to resume
	exitInterrupted = 130 // SIGINT or SIGTERM
)

const exitCodesHelp = "Exit codes: 0 ok, 1 internal error, 2 usage, 3 input rejected, 4 check failed, 5 lake locked, 130 interrupted."

func usageErrorf(format string, args ...any) error {
	return &cmdline.UsageError{Msg: fmt.Sprintf(format, args...)}
}

func usageHint(hint, format string, args ...any) error {
	return &cmdline.UsageError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// queryError is a SQL statement DuckDB refused: the user's to fix (exit 2).
func queryError(err error) error {
	return usageHint("trustlake sql --help (lists the views and functions)", "sql: %v", err)
}

// usageErr is a usage mistake (exit 2) as cmdline.UsageError and the
// option errors of other packages (judge, tasks) report it.
type usageErr interface {
	error
	UsageHint() string
}

// summaryError ends a command whose details are already printed with
// code: exitRejected (input records rejected), exitCheckFailed (a check
// found problems) or exitIncomplete (a resumable run stopped before
// finishing; what it did is committed). The error carries the summary.
type summaryError struct {
	code    int
	summary string
}

func (e *summaryError) Error() string { return e.summary }

// exitCode prints err (if any) and maps it to an exit code. It is the only
// place that chooses exit codes.
func exitCode(ctx context.Context, stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var (
		ue  usageErr
		se  *summaryError
		rec *schema.RecordError
	)
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintln(stderr, "trustlake: interrupted")
		return exitInterrupted
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "trustlake: %s\n", ue.Error())
		if h := ue.UsageHint(); h != "" {
			fmt.Fprintf(stderr, "Try: %s\n", h)
		} else if !strings.Contains(ue.Error(), "--help") {
			fmt.Fprintln(stderr, "Try: trustlake --help")
		}
		return exitUsage
	case errors.As(err, &se):
		fmt.Fprintf(stderr, "trustlake: %s\n", se.summary)
		return se.code
	case errors.As(err, &rec):
		fmt.Fprintln(stderr, rec.Error())
		return exitRejected
	case errors.Is(err, lake.ErrChanged):
		fmt.Fprintf(stderr, "trustlake: %v\nTry: trustlake lake check\n", err)
		return exitCheckFailed
	case errors.Is(err, lake.ErrLocked):
		fmt.Fprintf(stderr, "trustlake: %v (raise --lock-timeout, or retry)\n", err)
		return exitLocked
	default:
		fmt.Fprintf(stderr, "trustlake: %v\n", err)
		return exitInternal
	}
}
