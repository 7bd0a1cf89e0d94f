package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/render"
)

// globalOptions are the flags every command shares.
type globalOptions struct {
	lakeDir     string
	verbose     bool
	lockTimeout time.Duration
	stderr      io.Writer
}

func globals(c *cli.Context) globalOptions {
	return globalOptions{lakeDir: c.String("lake"), verbose: c.Bool("verbose"), lockTimeout: c.Duration("lock-timeout"), stderr: c.App.ErrWriter}
}

func (g globalOptions) logger() *slog.Logger {
	level := slog.LevelWarn
	if g.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level}))
}

// openLake opens (or creates) the lake for writing.
func (g globalOptions) openLake() (*lake.Lake, error) {
	return lake.Open(g.lakeDir, runcounts.With(lake.Options{Logger: g.logger(), LockTimeout: g.lockTimeout}))
}

// openLakeRead opens an existing lake for reading.
func (g globalOptions) openLakeRead() (*lake.Lake, error) {
	l, err := lake.OpenExisting(g.lakeDir, runcounts.With(lake.Options{Logger: g.logger()}))
	if errors.Is(err, lake.ErrNotALake) {
		return nil, usageHint("trustlake --lake DIR ... (or set TRUSTLAKE_LAKE)", "%v", err)
	}
	return l, err
}

// isTerminal reports whether w is a terminal (progress goes there only).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress returns a callback that redraws a counter on stderr at most
// every 200ms, or nil when stderr is not a terminal.
func progress(w io.Writer, what string) func(int64) {
	if !isTerminal(w) {
		return nil
	}
	last := time.Now()
	return func(n int64) {
		if time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "\r%s: %d...", what, n)
	}
}

// countProgress returns a "what: done/total" progress callback for stderr,
// or nil when stderr is not a terminal.
func countProgress(w io.Writer, what string) func(done, total int) {
	if !isTerminal(w) {
		return nil
	}
	last := time.Time{}
	return func(done, total int) {
		if done < total && time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "\r%s: %d/%d", what, done, total)
	}
}

// clearProgress erases a progress line from a terminal.
func clearProgress(w io.Writer) {
	if isTerminal(w) {
		fmt.Fprint(w, "\r\033[K")
	}
}

// maxPrintedErrors caps the record errors printed for one command.
const maxPrintedErrors = 100

// printRejected prints each rejected record (up to the cap, then a count)
// and returns the error that maps to exit code 3.
func printRejected(w io.Writer, err error) error {
	var rej *ingest.Rejected
	if !errors.As(err, &rej) {
		return err
	}
	printCapped(w, rej.Errors, " rejected record(s)")
	return &summaryError{exitRejected, rej.Error()}
}

// printCapped prints errs one a line, up to maxPrintedErrors, then
// "... and N more" followed by what.
func printCapped[E error](w io.Writer, errs []E, what string) {
	for i, e := range errs {
		if i == maxPrintedErrors {
			fmt.Fprintf(w, "... and %d more%s\n", len(errs)-maxPrintedErrors, what)
			break
		}
		fmt.Fprintln(w, e.Error())
	}
}

// idSet is the set of ids, nil when there are none.
func idSet(ids []string) map[string]bool {
	if len(ids) == 0 {
		return nil
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// thresholdOpt is --threshold, nil when not given.
func thresholdOpt(c *cli.Context) *float64 {
	if !c.IsSet("threshold") {
		return nil
	}
	return new(c.Float64("threshold"))
}

func checkFormat(f string, allowed []string) error {
	if slices.Contains(allowed, f) {
		return nil
	}
	return usageErrorf("--format %q: want one of %s", f, strings.Join(allowed, ", "))
}

// printWarnings writes a result's warnings on stderr, one "warning: " line each.
func printWarnings(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
}

// output prints r as JSON (--json), or as text followed by its warnings on
// stderr.
func output[R any](stdout, stderr io.Writer, asJSON bool, r R, text func(io.Writer, R), warnings []string) error {
	if asJSON {
		return render.JSON(stdout, r)
	}
	text(stdout, r)
	printWarnings(stderr, warnings)
	return nil
}
