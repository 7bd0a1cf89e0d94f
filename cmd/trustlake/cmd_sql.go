package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/render"
)

func sqlCommand() *cli.Command {
	return &cli.Command{
		Name:      "sql",
		Usage:     "run DuckDB SQL over the lake (QUERY from stdin when absent)",
		ArgsUsage: "[QUERY]",
		Description: "Views: episodes, actions, ground_truth, labels, verdicts, results, trust, selftests,\n" +
			"categories (effective failure category: review, else label, else verifier), reviews.\n" +
			"Functions: wilson_lo(k, n [, alpha]), wilson_hi(k, n [, alpha]), mcnemar_p(b, c),\n" +
			"cohen_kappa(tp, fp, fn, tn), fpr_needed_negatives(p, half_width [, alpha]).\n" +
			"The session time zone is UTC. One read-only statement per call: SELECT (DESCRIBE,\n" +
			"SHOW, SUMMARIZE), EXPLAIN, PRAGMA, CALL. It may read any file this process can\n" +
			"read (read_csv, read_parquet, --attach); it writes nothing (COPY, EXPORT, ATTACH,\n" +
			"INSTALL, LOAD, SET, CREATE, INSERT are refused, exit 2): write results with\n" +
			"trustlake export. Extensions are never downloaded or auto-loaded.\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "table", Usage: "table, csv, json or jsonl"},
			&cli.StringSliceFlag{Name: "attach", Usage: "expose an external Parquet/CSV/JSON file or glob as a view: `NAME=PATH` (repeatable)"},
			&cli.IntFlag{Name: "threads", Usage: "DuckDB threads (0: all cores)"},
		},
		Action: func(c *cli.Context) error {
			query, format := c.Args().First(), c.String("format")
			if c.NArg() > 1 {
				return usageHint(`trustlake sql "SELECT ..."`, "sql: give the query as one argument (quote it)")
			}
			if c.NArg() == 0 {
				b, err := io.ReadAll(c.App.Reader)
				if err != nil {
					return fmt.Errorf("read query from stdin: %w", err)
				}
				query = string(b)
			}
			if strings.TrimSpace(query) == "" {
				return usageHint(`trustlake sql "SELECT count(*) FROM verdicts"`, "sql: empty query")
			}
			if err := checkFormat(format, render.Formats); err != nil {
				return err
			}
			return runSQL(c.Context, globals(c), c.StringSlice("attach"), c.Int("threads"), query, format, c.App.Writer)
		},
	}
}

// openSession opens a DuckDB session over the lake with attachments.
func openSession(ctx context.Context, g globalOptions, attach []string, threads int) (*queries.Session, error) {
	src, err := g.openLakeRead()
	if err != nil {
		return nil, err
	}
	s, err := queries.Open(ctx, src, queries.Options{Logger: g.logger(), Threads: threads})
	if err != nil {
		return nil, err
	}
	for _, a := range attach {
		name, path, ok := strings.Cut(a, "=")
		if !ok {
			s.Close()
			return nil, usageHint("--attach evals=results/*.parquet", "--attach %q: want NAME=PATH", a)
		}
		if err := s.Attach(ctx, name, path); err != nil {
			s.Close()
			if errors.Is(err, queries.ErrBadAttach) {
				return nil, usageErrorf("%v", err)
			}
			return nil, err
		}
	}
	return s, nil
}

func runSQL(ctx context.Context, g globalOptions, attach []string, threads int, query, format string,
	stdout io.Writer) error {
	s, err := openSession(ctx, g, attach, threads)
	if err != nil {
		return err
	}
	defer s.Close()
	rows, err := s.ReadOnlyQuery(ctx, query)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, queries.ErrNotReadOnly) {
			return usageHint(`trustlake export --query "SELECT ..." --format csv --out FILE`, "sql: %v", err)
		}
		return queryError(err)
	}
	defer rows.Close()
	if _, err := render.Rows(stdout, rows, format); err != nil {
		return cmp.Or(ctx.Err(), fmt.Errorf("sql: %w", err))
	}
	return nil
}
