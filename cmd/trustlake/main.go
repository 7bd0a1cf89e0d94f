// Command trustlake is an embedded-analytics data lake for AI-agent
// evaluation results: it measures how much of a recorded success is real.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
)

// version is set by the Makefile with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signalContext()
	// TRUSTLAKE_CPUPROFILE=FILE writes a Go CPU profile (for benchmarks).
	if name := os.Getenv("TRUSTLAKE_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			pprof.StartCPUProfile(f)
			defer f.Close()
		}
	}
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	pprof.StopCPUProfile()
	stop()
	os.Exit(code)
}

// signalContext is cancelled by the first SIGINT or SIGTERM (every command
// then stops within about a second and exits 130). After it, the default
// handling is back: a second Ctrl-C ends the process at once.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	return ctx, stop
}

// globalFlags are accepted before or after the command name (see
// cmdline.HoistGlobalFlags).
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name:    "lake",
			Usage:   "lake `DIR`",
			EnvVars: []string{"TRUSTLAKE_LAKE"},
			Value:   "./lake",
		},
		&cli.BoolFlag{Name: "verbose", Usage: "log debug messages on stderr"},
		&cli.DurationFlag{Name: "lock-timeout", Value: 30 * time.Second, Usage: "how long a writer waits for another writer's lock"},
	}
}

// commands lists every command; one file each (cmd_*.go).
func commands() []*cli.Command {
	return []*cli.Command{
		ingestCommand(),
		sqlCommand(),
		exportCommand(),
		lakeCommand(),
		genCommand(),
		metricsCommand(),
		compareCommand(),
		thresholdCommand(),
		planCommand(),
		rateCommand(),
		checklistCommand(),
		tasksCommand(),
		verifyCommand(),
		perturbCommand(),
		trustCommand(),
		evidenceCommand(),
		judgeCommand(),
		reportCommand(),
		viewCommand(),
	}
}

// run is the whole program; it returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	args = cmdline.HoistGlobalFlags(args, app.Flags)
	if err := cmdline.Check(app, args, "sql"); err != nil {
		return exitCode(ctx, stderr, err)
	}
	err := app.RunContext(ctx, args)
	return exitCode(ctx, stderr, err)
}

// newApp is the command-line definition: what --help prints and what
// docs/cli.md is generated from (TestCLIReference).
func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	onUsage := func(c *cli.Context, err error, isSub bool) error { return cmdline.FlagUsageError(c, err) }
	cmds := commands()
	cmdline.UsageOnEveryCommand(cmds, onUsage)
	return &cli.App{
		Name:                 "trustlake",
		Usage:                "measure how much of a recorded agent success is real",
		Version:              version,
		Flags:                globalFlags(),
		Commands:             cmds,
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError:         onUsage,
	}
}
