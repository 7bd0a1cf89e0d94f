package queries

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/trustlake/trustlake/schema"
)

// BenchmarkCount is one benchmark of the results table.
type BenchmarkCount struct {
	Benchmark string
	Results   int64
}

// TrustBenchmarks returns every benchmark of the results table with its
// number of results (sql/trust_benchmarks.sql), by name.
func (s *Session) TrustBenchmarks(ctx context.Context) ([]BenchmarkCount, error) {
	if s.noResults { // the manifest lists no results row: none to group
		return nil, nil
	}
	return collect(ctx, s, "list benchmarks", "benchmark",
		func(b *BenchmarkCount) []any { return []any{&b.Benchmark, &b.Results} }, sqlFile("trust_benchmarks"))
}

// TrustScope chooses the benchmarks that TrustResults, TrustActions and
// TrustGroundTruth read: the given ones, or every benchmark when none is
// given. A benchmark without results is silently empty; check names with
// TrustBenchmarks first.
func (s *Session) TrustScope(ctx context.Context, benchmarks []string) error {
	if err := s.Exec(ctx, sqlFile("trust_scope")); err != nil {
		return fmt.Errorf("create trust scope: %w", err)
	}
	args := []any{nil}
	if len(benchmarks) > 0 {
		args = args[:0]
		for _, b := range benchmarks {
			args = append(args, b)
		}
	}
	for _, a := range args {
		if err := s.Exec(ctx, sqlFile("trust_scope_add"), a); err != nil {
			return fmt.Errorf("fill trust scope: %w", err)
		}
	}
	return nil
}

// TrustResults calls fn with every result in scope (sql/trust_results.sql),
// ordered by benchmark and result id. Extra is not read (the audit does
// not use it). An error from fn stops the scan and is returned.
func (s *Session) TrustResults(ctx context.Context, fn func(schema.Result) error) error {
	return s.eachRow(ctx, "query results", func(rows *sql.Rows) error {
		var r schema.Result
		if err := rows.Scan(&r.ResultID, &r.Benchmark, &r.TaskID, &r.Agent, &r.Trial, &r.RecordedScore, &r.RecordedPass,
			orNil(&r.EpisodeID), orNil(&r.FinalMessage), orNil(&r.Instruction), &r.Grader, orNil(&r.Infra),
			nullTo(&r.SrcFile, nil), nullTo(&r.SrcLine, nil)); err != nil {
			return fmt.Errorf("scan result: %w", err)
		}
		return fn(r)
	}, sqlFile("trust_results"))
}

// DefaultActionsPerBucket is about how many actions TrustActions fetches
// per query by default.
const DefaultActionsPerBucket = 1 << 18

// TrustActions calls fn once per episode of the results in scope with its
// actions in step order (sql/trust_actions.sql); episodes come in
// episode_id order. Only the columns the audit reads are filled (episode
// id, step, role, text, keys, tool name, arguments, observation). fn may
// keep the slice; an error from fn stops the scan and is returned.
//
// The DuckDB driver materializes a query's whole result, so the episodes
// are fetched in buckets of about perBucket actions (0 means
// DefaultActionsPerBucket; sql/trust_episodes.sql): memory holds one
// bucket, not every trajectory.
func (s *Session) TrustActions(ctx context.Context, perBucket int, fn func(episodeID string, acts []schema.Action) error) error {
	if perBucket <= 0 {
		perBucket = DefaultActionsPerBucket
	}
	if err := s.Exec(ctx, sqlFile("trust_episodes"), int64(perBucket)); err != nil {
		return fmt.Errorf("bucket episodes: %w", err)
	}
	var buckets int64
	if err := s.conn.QueryRowContext(ctx, sqlFile("trust_buckets")).Scan(&buckets); err != nil {
		return fmt.Errorf("count buckets: %w", err)
	}
	for b := range buckets {
		if err := s.trustBucket(ctx, b, fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) trustBucket(ctx context.Context, bucket int64, fn func(string, []schema.Action) error) error {
	var (
		cur  string
		acts []schema.Action
	)
	err := s.eachRow(ctx, "query actions", func(rows *sql.Rows) error {
		var a schema.Action
		if err := rows.Scan(&a.EpisodeID, &a.Step, orNil(&a.Role), orNil(&a.Text), orNil(&a.Keys), orNil(&a.ToolName),
			orNil(&a.Arguments), orNil(&a.Observation)); err != nil {
			return fmt.Errorf("scan action: %w", err)
		}
		if a.EpisodeID != cur && len(acts) > 0 {
			if err := fn(cur, acts); err != nil {
				return err
			}
			acts = nil
		}
		cur = a.EpisodeID
		acts = append(acts, a)
		return nil
	}, sqlFile("trust_actions"), bucket)
	if err != nil {
		return err
	}
	if len(acts) > 0 {
		return fn(cur, acts)
	}
	return nil
}

// TrustGroundTruth returns the ground truth of the lake episodes that
// results in scope point at (sql/trust_ground_truth.sql), by episode id,
// ordered by verifier hash.
func (s *Session) TrustGroundTruth(ctx context.Context) (map[string][]schema.GroundTruth, error) {
	out := map[string][]schema.GroundTruth{}
	err := s.eachRow(ctx, "query ground truth", func(rows *sql.Rows) error {
		var g schema.GroundTruth
		if err := rows.Scan(&g.EpisodeID, &g.VerifierSHA256, &g.Pass, orNil(&g.Score), nullTo(&g.Gates, nil),
			orNil(&g.Deterministic)); err != nil {
			return fmt.Errorf("scan ground truth: %w", err)
		}
		out[g.EpisodeID] = append(out[g.EpisodeID], g)
		return nil
	}, sqlFile("trust_ground_truth"))
	if err != nil {
		return nil, err
	}
	return out, nil
}
