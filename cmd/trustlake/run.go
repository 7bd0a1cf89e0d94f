package main

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"
)

// globalFlags are accepted before any command.
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name:    "lake",
			Usage:   "lake `DIR`",
			EnvVars: []string{"TRUSTLAKE_LAKE"},
			Value:   "./lake",
		},
		&cli.BoolFlag{Name: "verbose", Usage: "log debug messages on stderr"},
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
	}
}

// run is the whole program; it returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := &cli.App{
		Name:                 "trustlake",
		Usage:                "measure how much of a recorded agent success is real",
		Version:              version,
		Flags:                globalFlags(),
		Commands:             commands(),
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, isSub bool) error {
			return usageErrorf("%v", err)
		},
	}
	err := app.RunContext(ctx, args)
	return report(ctx, stderr, err)
}
