package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

func ingestSQLCommand() *cli.Command {
	return &cli.Command{
		Name:      "sql",
		Usage:     "load anything DuckDB can read into a lake table, mapped by your SELECT",
		ArgsUsage: "TABLE QUERY",
		Description: "The SELECT's column names must be the table's field names (as in the native\n" +
			"formats: e.g. verdicts need episode_id, judge, condition, run, verdict). Each row\n" +
			"is validated exactly like a line of the native format; a rejected row is\n" +
			"reported as NAME:ROW: field: reason. Example:\n" +
			"  trustlake ingest sql verdicts \"SELECT id AS episode_id, 'gpt-judge' AS judge,\n" +
			"    'E1-final' AS condition, 1 AS run, label AS verdict FROM 'other_tool.csv'\"",
		Flags: append(ingestFlags(),
			&cli.StringFlag{Name: "name", Value: "sql", Usage: "name of the input in messages and in _src_file"},
			&cli.StringSliceFlag{Name: "attach", Usage: "expose a file as a view first: `NAME=PATH` (repeatable)"},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageHint(`trustlake ingest sql verdicts "SELECT ... FROM 'file.csv'"`, "ingest sql: want TABLE and QUERY")
			}
			table, query := c.Args().Get(0), c.Args().Get(1)
			if t, err := lake.LookupTable(table); err != nil || table == lake.Trust || t.Derived {
				names := []string{}
				for _, t := range lake.Tables() {
					if t.Name != lake.Trust && !t.Derived {
						names = append(names, t.Name)
					}
				}
				return usageErrorf("ingest sql: unknown table %q; tables: %s", table, strings.Join(names, ", "))
			}
			attach, name := c.StringSlice("attach"), c.String("name")
			return runIngest(c, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingestSQL(ctx, globals(c), dst, table, query, name, attach, o)
			})
		},
	}
}

// ingestSQL runs query in DuckDB and feeds its rows to ingest.Records.
func ingestSQL(ctx context.Context, g globalOptions, dst *lake.Lake, table, query, name string, attach []string, o ingest.Options) (ingest.Stats, error) {
	s, err := openSession(ctx, g, attach, 0)
	if err != nil {
		return ingest.Stats{}, err
	}
	defer s.Close()
	rows, err := s.ReadOnlyQuery(ctx, query)
	if err != nil {
		return ingest.Stats{}, queryError(err)
	}
	defer rows.Close()
	next, err := queries.Records(rows, "ingest sql")
	if err != nil {
		return ingest.Stats{}, err
	}
	return ingest.Records(ctx, dst, table, name, next, o)
}
