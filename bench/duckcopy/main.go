// Command duckcopy runs one DuckDB statement that writes files (the COPY
// baseline of bench/ingest.sh: `trustlake sql` only reads). It links the
// same DuckDB through package queries.
//
//	duckcopy "COPY (SELECT * FROM read_json('in.jsonl')) TO 'out' (FORMAT parquet, ...)"
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/trustlake/trustlake/queries"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: duckcopy STATEMENT")
		os.Exit(2)
	}
	ctx := context.Background()
	s, err := queries.Open(ctx, nil, queries.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer s.Close()
	if err := s.Exec(ctx, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
