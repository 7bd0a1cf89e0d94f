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

type exportOptions struct {
	globalOptions
	table  string
	query  string
	format string
	out    string
	attach []string
}

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
			opts := exportOptions{globalOptions: globals(c), table: c.String("table"), query: c.String("query"),
				format: c.String("format"), out: c.String("out"), attach: c.StringSlice("attach")}
			if (opts.table == "") == (opts.query == "") {
				return usageHint("trustlake export --table verdicts --format arrow --out v.arrow", "export: give exactly one of --table and --query")
			}
			if err := checkFormat(opts.format, queries.ExportFormats); err != nil {
				return err
			}
			if opts.table != "" {
				if _, err := lake.LookupTable(opts.table); err != nil && opts.table != "categories" {
					return usageErrorf("export: %v", err)
				}
				opts.query = "SELECT * FROM " + opts.table
			}
			return runExport(c.Context, opts, c.App.Writer)
		},
	}
}

func runExport(ctx context.Context, opts exportOptions, stdout io.Writer) error {
	s, err := openSession(ctx, opts.globalOptions, opts.attach, 0)
	if err != nil {
		return err
	}
	defer s.Close()
	n, err := s.Export(ctx, opts.query, opts.format, opts.out)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, queries.ErrIntoLake) {
			return usageHint("trustlake export --out FILE (a FILE outside --lake)", "export --out: %v", err)
		}
		if errors.Is(err, queries.ErrOutDir) {
			hint := "mkdir -p " + cmdline.ShellQuote(filepath.Dir(opts.out))
			if _, serr := os.Stat(filepath.Dir(opts.out)); serr == nil {
				hint = "trustlake export --out FOLDER/FILE (FOLDER an existing folder)"
			}
			return usageHint(hint, "export --out %s: %v", opts.out, err)
		}
		return err
	}
	fmt.Fprintf(stdout, "wrote %d rows to %s (%s)\n", n, opts.out, opts.format)
	return nil
}
