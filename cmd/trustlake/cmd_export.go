package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a table or a query result to Parquet, CSV, Arrow IPC or JSONL",
		Description: "Exactly one of --table and --query. The file is written to a temporary name\n" +
			"and renamed into place when complete. arrow is an Arrow IPC file (pyarrow:\n" +
			"pyarrow.ipc.open_file; polars: pl.read_ipc).\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "table", Usage: "a lake table or view"},
			&cli.StringFlag{Name: "query", Usage: "a SQL query over the lake views"},
			&cli.StringFlag{Name: "format", Value: "parquet", Usage: "parquet, csv, arrow or jsonl"},
			&cli.StringFlag{Name: "out", Usage: "output `FILE`", Required: true},
			&cli.StringSliceFlag{Name: "attach", Usage: "expose a file as a view: `NAME=PATH` (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			table, query, format := c.String("table"), c.String("query"), c.String("format")
			if (table == "") == (query == "") {
				return usageHint("trustlake export --table verdicts --format arrow --out v.arrow", "export: give exactly one of --table and --query")
			}
			if err := checkFormat(format, queries.ExportFormats); err != nil {
				return err
			}
			if table != "" {
				if _, err := lake.LookupTable(table); err != nil && table != "categories" {
					return usageErrorf("export: %v", err)
				}
				query = "SELECT * FROM " + table
			}
			return runExport(c.Context, globals(c), c.StringSlice("attach"), query, format, c.String("out"), c.App.Writer)
		},
	}
}

func runExport(ctx context.Context, g globalOptions, attach []string, query, format, out string,
	stdout io.Writer) error {
	s, err := openSession(ctx, g, attach, 0)
	if err != nil {
		return err
	}
	defer s.Close()
	n, err := s.Export(ctx, query, format, out)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, queries.ErrIntoLake) {
			return usageHint("trustlake export --out FILE (a FILE outside --lake)", "export --out: %v", err)
		}
		if errors.Is(err, queries.ErrOutDir) {
			hint := "mkdir -p " + cmdline.ShellQuote(filepath.Dir(out))
			if _, serr := os.Stat(filepath.Dir(out)); serr == nil {
				hint = "trustlake export --out FOLDER/FILE (FOLDER an existing folder)"
			}
			return usageHint(hint, "export --out %s: %v", out, err)
		}
		return err
	}
	fmt.Fprintf(stdout, "wrote %d rows to %s (%s)\n", n, out, format)
	return nil
}
