package main

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/queries/spark"
)

// engineOptions choose where the sufficient-statistics SQL runs: the
// embedded DuckDB (default) or a Spark Connect server, which reads the lake
// at lakeURI.
type engineOptions struct {
	engine  string // "duckdb" or sc://HOST:PORT
	lakeURI string // the lake's root as the engine sees it; "" means file://<--lake>
}

const engineDuckDB = "duckdb"

// engineFlags are the flags of the commands that can run on Spark.
func engineFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "engine", Value: engineDuckDB, EnvVars: []string{"TRUSTLAKE_ENGINE"},
			Usage: "where the SQL runs: duckdb (embedded) or sc://HOST:PORT (Spark Connect); statistics are always computed here"},
		&cli.StringFlag{Name: "lake-uri", EnvVars: []string{"TRUSTLAKE_LAKE_URI"},
			Usage: "with --engine sc://: the lake's root as the engine sees it, e.g. s3a://bucket/lake (default: file://<--lake>)"},
	}
}

func engineOpts(c *cli.Context) (engineOptions, error) {
	e := engineOptions{engine: c.String("engine"), lakeURI: c.String("lake-uri")}
	switch {
	case e.engine == engineDuckDB:
		if e.lakeURI != "" {
			return e, usageHint("trustlake metrics --engine sc://HOST:15002 --lake-uri s3a://bucket/lake", "--lake-uri is for --engine sc://HOST:PORT; the embedded engine reads --lake")
		}
	case strings.HasPrefix(e.engine, "sc://") && len(e.engine) > len("sc://"):
	default:
		return e, usageHint("trustlake metrics --engine sc://localhost:15002", "--engine %q: want duckdb or sc://HOST:PORT", e.engine)
	}
	return e, nil
}

// uri is the lake's root as the engine sees it: --lake-uri, else
// file://<absolute lakeDir> (the engine shares this file system).
func (e engineOptions) uri(lakeDir string) string {
	if e.lakeURI != "" {
		return e.lakeURI
	}
	abs, err := filepath.Abs(lakeDir)
	if err != nil {
		abs = lakeDir
	}
	return "file://" + filepath.ToSlash(abs)
}

// onEngine runs fn on the chosen engine: the embedded DuckDB session over
// --lake, or a Spark Connect session over the lake at the engine's URI.
func onEngine[R any](ctx context.Context, g globalOptions, e engineOptions, threads int, fn func(metrics.Engine) (R, error)) (R, error) {
	if e.engine == "" || e.engine == engineDuckDB {
		return inSession(ctx, g, threads, func(s *queries.Session) (R, error) { return fn(s) })
	}
	s, err := spark.Open(ctx, e.engine, spark.Options{LakeURI: e.uri(g.lakeDir), Logger: g.logger()})
	if err != nil {
		var zero R
		return zero, err
	}
	defer s.Close()
	r, err := fn(s)
	return r, metricsError(err)
}
