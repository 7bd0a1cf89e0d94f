package spark

import (
	"context"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// The Trust Layer reads results with their trajectories and ground truth;
// the audit itself runs in Go. These methods match queries.Session's.

// TrustBenchmarks returns every benchmark of the results table with its
// number of results (sql/trust_benchmarks.sql).
func (s *Session) TrustBenchmarks(ctx context.Context) ([]queries.BenchmarkCount, error) {
	const name = "trust_benchmarks"
	var out []queries.BenchmarkCount
	err := s.each(ctx, name, bind(sqlFile(name)), -1, func(r row) {
		out = append(out, queries.BenchmarkCount{Benchmark: r.str(0), Results: int64(r.int(1))})
	})
	return out, err
}

// TrustScope chooses the benchmarks the other Trust* methods read: the
// given ones, or every benchmark when none is given (sql/trust_scope.sql).
func (s *Session) TrustScope(ctx context.Context, benchmarks []string) error {
	return s.exec(ctx, "trust_scope", bind(sqlFile("trust_scope"), benchmarks))
}

// TrustResults calls fn with every result in scope (sql/trust_results.sql),
// ordered by benchmark and result id.
func (s *Session) TrustResults(ctx context.Context, fn func(schema.Result) error) error {
	const name = "trust_results"
	var results []schema.Result
	err := s.each(ctx, name, bind(sqlFile(name)), -1, func(r row) {
		res := schema.Result{ResultID: r.str(0), Benchmark: r.str(1), TaskID: r.str(2), Agent: r.str(3),
			Trial: int64(r.int(4)), RecordedScore: r.float(5), RecordedPass: r.bool(6),
			EpisodeID: r.ptr(7), FinalMessage: r.ptr(8), Instruction: r.ptr(9), Grader: r.str(10), Infra: r.ptr(11)}
		res.SrcFile, _ = r.nullStr(12)
		res.SrcLine, _ = r.nullInt(13)
		results = append(results, res)
	})
	if err != nil {
		return err
	}
	for _, res := range results {
		if err := fn(res); err != nil {
			return err
		}
	}
	return nil
}

// TrustGroundTruth returns the ground truth of the lake episodes that
// results in scope point at (sql/trust_ground_truth.sql), by episode id.
func (s *Session) TrustGroundTruth(ctx context.Context) (map[string][]schema.GroundTruth, error) {
	const name = "trust_ground_truth"
	out := map[string][]schema.GroundTruth{}
	err := s.each(ctx, name, bind(sqlFile(name)), -1, func(r row) {
		g := schema.GroundTruth{EpisodeID: r.str(0), VerifierSHA256: r.str(1), Pass: r.bool(2)}
		g.Score = opt(r.nullFloat(3))
		g.Gates, _ = r.nullStr(4)
		g.Deterministic = opt(r.nullBool(5)) // after gates: the first bad column is reported
		out[g.EpisodeID] = append(out[g.EpisodeID], g)
	})
	return out, err
}

// TrustActions calls fn once per episode of the results in scope with its
// actions in step order, episodes in id order, fetching buckets of about
// perBucket actions (0 means queries.DefaultActionsPerBucket) so that the
// client holds one bucket at a time.
func (s *Session) TrustActions(ctx context.Context, perBucket int, fn func(episodeID string, acts []schema.Action) error) error {
	if perBucket <= 0 {
		perBucket = queries.DefaultActionsPerBucket
	}
	if err := s.exec(ctx, "trust_episodes", bind(sqlFile("trust_episodes"), perBucket)); err != nil {
		return err
	}
	var buckets int
	err := s.each(ctx, "trust_buckets", bind(sqlFile("trust_buckets")), 1, func(r row) { buckets = r.int(0) })
	if err != nil {
		return err
	}
	for b := range buckets {
		if err := s.trustBucket(ctx, b, fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) trustBucket(ctx context.Context, bucket int, fn func(string, []schema.Action) error) error {
	const name = "trust_actions"
	var all []schema.Action
	err := s.each(ctx, name, bind(sqlFile(name), bucket), -1, func(r row) {
		all = append(all, schema.Action{EpisodeID: r.str(0), Step: int64(r.int(1)), Role: r.ptr(2), Text: r.ptr(3),
			Keys: r.ptr(4), ToolName: r.ptr(5), Arguments: r.ptr(6), Observation: r.ptr(7)})
	})
	if err != nil {
		return err
	}
	for start := 0; start < len(all); {
		end := start + 1
		for end < len(all) && all[end].EpisodeID == all[start].EpisodeID {
			end++
		}
		if err := fn(all[start].EpisodeID, all[start:end:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}
