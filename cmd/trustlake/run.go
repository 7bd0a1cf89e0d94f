package main

import (
	"context"
	"fmt"
	"io"
	"time"

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
		&cli.DurationFlag{Name: "lock-timeout", Value: 30 * time.Second, Usage: "how long a writer waits for another writer's lock"},
	}
}

// commands lists every command; one file each (cmd_*.go).
func commands() []*cli.Command {
	return guardArgs([]*cli.Command{
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
	})
}

// rawArgCommands take arguments that may start with "-" (SQL text).
var rawArgCommands = map[string]bool{"sql": true}

// guardArgs makes every command (and subcommand) refuse a flag given after
// its arguments: urfave/cli stops reading flags at the first argument, so
// `ingest verdicts v.jsonl --replace` would otherwise treat "--replace" as
// a file name and silently not replace.
func guardArgs(cmds []*cli.Command) []*cli.Command {
	for _, c := range cmds {
		guardArgs(c.Subcommands)
		if c.Action == nil || rawArgCommands[c.Name] {
			continue
		}
		action, name := c.Action, c.Name
		c.Action = func(ctx *cli.Context) error {
			for _, a := range ctx.Args().Slice() {
				if len(a) > 1 && a[0] == '-' {
					return usageHint(fmt.Sprintf("%s %s ARGS...", ctx.Command.HelpName, a),
						"%s: flag %s after the arguments: flags go before them", name, a)
				}
			}
			return action(ctx)
		}
	}
	return cmds
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
