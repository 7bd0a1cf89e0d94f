package main

import (
	"context"
	"io"
	"time"

	"github.com/urfave/cli/v2"
)

// globalFlags are accepted before or after the command name (see
// hoistGlobalFlags).
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
	onUsage := func(c *cli.Context, err error, isSub bool) error { return flagUsageError(c, err) }
	cmds, globals := commands(), globalFlags()
	usageOnEveryCommand(cmds, onUsage)
	args = hoistGlobalFlags(args, globals)
	if err := checkCommandLine(args, globals, cmds); err != nil {
		return exitCode(ctx, stderr, err)
	}
	app := &cli.App{
		Name:                 "trustlake",
		Usage:                "measure how much of a recorded agent success is real",
		Version:              version,
		Flags:                globals,
		Commands:             cmds,
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError:         onUsage,
	}
	err := app.RunContext(ctx, args)
	return exitCode(ctx, stderr, err)
}
