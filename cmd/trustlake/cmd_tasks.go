package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/derived"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/tasks"
)

// taskFlags are shared by tasks check and perturb (and verify, when wired).
func taskFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "tasks", Value: "tasks/library", EnvVars: []string{"TRUSTLAKE_TASKS"}, Usage: "task library `DIR`"},
		&cli.StringFlag{Name: "sandbox", Usage: "docker, bwrap or none (none: declarative checks in process, script verifiers refused); default: docker, else bwrap"},
		&cli.StringFlag{Name: "check-binary", EnvVars: []string{"TRUSTLAKE_CHECK_BINARY"}, Usage: "host `PATH` of a static trustlake-check mounted at /trustlake-check (needed by bwrap)"},
		&cli.StringSliceFlag{Name: "sandbox-label", Usage: "`KEY=VALUE` label added to every Docker sandbox container (repeatable), to find one run's containers with docker ps --filter label=KEY=VALUE"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 2, Usage: "concurrent verifier runs"},
		&cli.IntFlag{Name: "runs", Value: tasks.DefaultRuns, Usage: "verifier runs per snapshot (2 to 20), all must agree; a coin-flip verifier goes unnoticed with probability 2^(1-runs)"},
		&cli.BoolFlag{Name: "json", Usage: "print results as JSON"},
	}
}

// taskRunOptions are the flags of taskFlags; withTaskRunner completes the
// tasks.RunOptions with the logger and the check binary the sandbox uses.
type taskRunOptions struct {
	tasksDir, sandbox string
	labels            []string // --sandbox-label KEY=VALUE
	json              bool
	tasks.RunOptions
}

func taskRunFlags(c *cli.Context) taskRunOptions {
	bin := c.String("check-binary")
	if bin != "" {
		if abs, err := filepath.Abs(bin); err == nil {
			bin = abs // sandboxes mount host paths, which must be absolute
		}
	}
	return taskRunOptions{tasksDir: c.String("tasks"), sandbox: c.String("sandbox"),
		labels: c.StringSlice("sandbox-label"), json: c.Bool("json"),
		RunOptions: tasks.RunOptions{Jobs: c.Int("jobs"), CheckBinary: bin, Runs: c.Int("runs")}}
}

// withTaskRunner loads the task library, opens the sandbox backend, runs
// fn with both and releases the backend.
func withTaskRunner[R any](ctx context.Context, g globalOptions, o *taskRunOptions, fn func(*tasks.Library, tasks.Runner) (R, error)) (R, error) {
	var zero R
	if o.Runs < 2 || o.Runs > 20 {
		return zero, usageErrorf("--runs %d: want 2 to 20 (one run cannot show nondeterminism)", o.Runs)
	}
	lib, err := loadTaskLibrary(g.stderr, o.tasksDir)
	if err != nil {
		return zero, err
	}
	o.Logger = g.logger()
	r, bin, release, err := tasks.OpenRunner(ctx, tasks.RunnerOptions{Sandbox: o.sandbox, CheckBinary: o.CheckBinary,
		Labels: o.labels, Logger: o.Logger, Notice: func(s string) { fmt.Fprintln(g.stderr, "trustlake:", s) }})
	if err != nil {
		return zero, err
	}
	o.CheckBinary = bin
	defer release()
	return fn(lib, r)
}

// loadTaskLibrary loads the library; broken tasks are printed and fail the
// command with exit code 4.
func loadTaskLibrary(stderr io.Writer, dir string) (*tasks.Library, error) {
	lib, err := tasks.LoadLibrary(dir)
	if err == nil {
		return lib, nil
	}
	if lib == nil {
		return nil, usageHint("trustlake tasks check --tasks DIR (or set TRUSTLAKE_TASKS)", "%v", err)
	}
	var n int
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			fmt.Fprintln(stderr, e)
			n++
		}
	} else {
		fmt.Fprintln(stderr, err)
		n = 1
	}
	return nil, &summaryError{exitCheckFailed, fmt.Sprintf("task library %s: %d problem(s)", dir, n)}
}

func tasksCommand() *cli.Command {
	return &cli.Command{
		Name:  "tasks",
		Usage: "the verifiable task library",
		Subcommands: []*cli.Command{{
			Name:      "check",
			Usage:     "self-test: every fixture gives its expected verdict and category, twice, in the sandbox",
			ArgsUsage: "[TASK_ID...]",
			Description: "Loads the task library (reporting every malformed task.json), then runs each\n" +
				"task's verifier on each fixture twice in a fresh sandbox. A fixture fails when the\n" +
				"verdict or category differs from its expectation, or the two runs disagree.\n" + exitCodesHelp,
			Flags: append(taskFlags(), &cli.BoolFlag{Name: "record",
				Usage: "store the results in the lake table selftests (checklist then knows which verifiers were tested)"}),
			Action: func(c *cli.Context) error {
				return runTasksCheck(c.Context, globals(c), taskRunFlags(c), c.Bool("record"), c.Args().Slice(), c.App.Writer)
			},
		}, tasksEpisodesCommand()},
	}
}

func runTasksCheck(ctx context.Context, g globalOptions, o taskRunOptions, record bool, ids []string, stdout io.Writer) error {
	var rows []schema.SelfTest
	o.Progress = countProgress(g.stderr, "fixtures")
	res, err := withTaskRunner(ctx, g, &o, func(lib *tasks.Library, r tasks.Runner) ([]tasks.FixtureResult, error) {
		res, err := tasks.SelfTest(ctx, lib, r, tasks.SelfTestOptions{Tasks: ids, RunOptions: o.RunOptions})
		clearProgress(g.stderr)
		if err == nil && record {
			rows, err = tasks.SelfTestRows(lib, res, tasks.RunnerName(r))
		}
		return res, err
	})
	if errors.Is(err, tasks.ErrTask) {
		return usageErrorf("%v", err)
	}
	if err != nil {
		return err
	}
	if record {
		dst, err := g.openLake()
		if err != nil {
			return err
		}
		for i := range rows {
			if err := rows[i].Validate(); err != nil {
				return printRejected(g.stderr, err)
			}
		}
		st, err := derived.Write(ctx, dst, lake.SelfTests, rows)
		if err != nil {
			return err
		}
		if !o.json {
			ingest.WriteSummary(stdout, ingest.Stats{Tables: map[string]lake.Stats{lake.SelfTests: st}})
		}
	}
	bad := 0
	for _, x := range res {
		if !x.OK {
			bad++
		}
	}
	if err := output(stdout, g.stderr, o.json, res, tasks.WriteSelfTestText, nil); err != nil {
		return err
	}
	if bad > 0 {
		return &summaryError{exitCheckFailed, fmt.Sprintf("tasks check: %d of %d fixture(s) failed", bad, len(res))}
	}
	return nil
}
