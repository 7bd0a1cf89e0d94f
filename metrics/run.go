package metrics

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/trustlake/trustlake/queries"
)

// prepare checks that the lake has verdicts and returns its row counts.
func prepare(ctx context.Context, s Engine) (queries.LakeCounts, error) {
	counts, err := s.MetricsLakeCounts(ctx)
	if err != nil {
		return counts, err
	}
	if counts.Verdicts == 0 {
		return counts, fmt.Errorf("%w: the lake holds no verdicts (trustlake ingest verdicts FILE.jsonl)", ErrNoVerdicts)
	}
	return counts, nil
}

// Run computes the judge metrics of the lake behind s: it reduces runs to
// majority verdicts and per-task cells in SQL, then calls Compute. A lake
// without ground truth fails with ErrNoGroundTruth and says so.
func Run(ctx context.Context, s Engine, opts Options) (Report, error) {
	opts.stop = ctx.Done()
	counts, err := prepare(ctx, s)
	if err != nil {
		return Report{}, err
	}
	if counts.GroundTruth == 0 {
		return Report{}, fmt.Errorf("%w: the lake has %d verdicts but no ground truth; ingest episodes with gt.json (trustlake ingest episodes DIR) or ground_truth rows (trustlake ingest sql ground_truth ...)",
			ErrNoGroundTruth, counts.Verdicts)
	}
	cells, err := s.MetricsCells(ctx, queries.MetricCellOptions{
		ByAgent:    slices.Contains(opts.By, ByAgent),
		ByCategory: slices.Contains(opts.By, ByCategory) || slices.Contains(opts.By, ByHardness),
		Threshold:  opts.Threshold,
	})
	if err != nil {
		return Report{}, err
	}
	rep, err := Compute(cells, opts)
	if errors.Is(err, ErrNoGroundTruth) {
		return Report{}, fmt.Errorf("%w (the lake has %d ground-truth rows and %d episodes)", err, counts.GroundTruth, counts.Episodes)
	}
	return rep, err
}
