package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/render"
)

func lakeCommand() *cli.Command {
	return &cli.Command{
		Name:  "lake",
		Usage: "inspect the lake itself",
		Subcommands: []*cli.Command{{
			Name:  "check",
			Usage: "verify every committed file against the manifest (presence, sha256, row counts)",
			Description: "Prints one line per problem. Orphan files (left by an interrupted write) are\n" +
				"listed but are not damage: the next write removes them.\n" + exitCodesHelp +
				" Exit 4 means the lake is damaged.",
			Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"}},
			Action: func(c *cli.Context) error {
				return runLakeCheck(c.Context, globals(c), c.Bool("json"), c.App.Writer)
			},
		}, {
			Name:  "compact",
			Usage: "fold each partition's data files into one (nightly ingests add a file per batch)",
			Description: "Rewrites every partition with more than one data file into a single file, in\n" +
				"one atomic commit; rows are copied unchanged. Readers see the old files or the new\n" +
				"ones, never both. Default: every table.\n" + exitCodesHelp,
			Flags: []cli.Flag{
				&cli.StringSliceFlag{Name: "table", Usage: "compact only `TABLE` (repeatable)"},
				&cli.BoolFlag{Name: "json", Usage: "print what was done as JSON"},
			},
			Action: func(c *cli.Context) error {
				return runLakeCompact(c.Context, globals(c), c.StringSlice("table"), c.Bool("json"), c.App.Writer)
			},
		}},
	}
}

func runLakeCompact(ctx context.Context, g globalOptions, tables []string, asJSON bool, stdout io.Writer) error {
	if _, err := g.openLakeRead(); err != nil {
		return err
	}
	l, err := g.openLake()
	if err != nil {
		return err
	}
	if len(tables) == 0 {
		for _, t := range lake.Tables() {
			tables = append(tables, t.Name)
		}
	}
	out := map[string]lake.CompactStats{}
	folded := 0
	for _, t := range tables {
		if _, err := lake.LookupTable(t); err != nil {
			return usageErrorf("lake compact: %v", err)
		}
		st, err := lake.Compact(ctx, l, t)
		if err != nil {
			return err
		}
		out[t] = st
		if !asJSON && st.Partitions > 0 {
			fmt.Fprintf(stdout, "%s: %d partition(s), %d files → %d, %d rows\n", t, st.Partitions, st.FilesIn, st.FilesOut, st.Rows)
		}
		folded += st.Partitions
	}
	if asJSON {
		return render.JSON(stdout, out)
	}
	if folded == 0 {
		fmt.Fprintf(stdout, "nothing to fold: every partition of %s already holds one file\n", strings.Join(tables, ", "))
	}
	return nil
}

func runLakeCheck(ctx context.Context, g globalOptions, asJSON bool, stdout io.Writer) error {
	l, err := g.openLakeRead()
	if err != nil {
		return err
	}
	rep, err := l.Check(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if err := render.JSON(stdout, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "manifest version %d, %d files\n", rep.Version, rep.Files)
		for _, t := range slices.Sorted(maps.Keys(rep.Rows)) {
			fmt.Fprintf(stdout, "%s: %d rows\n", t, rep.Rows[t])
		}
		for _, p := range rep.Problems {
			fmt.Fprintf(stdout, "%s: %s: %s\n", p.Path, p.Kind, p.Detail)
		}
		if len(rep.Problems) == 0 {
			fmt.Fprintln(stdout, "ok")
		}
	}
	if rep.Damaged() {
		return &summaryError{exitCheckFailed, "lake check: damage found"}
	}
	return nil
}
