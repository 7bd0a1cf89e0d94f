package metrics

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
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
	if opts, err = opts.withDefaults(); err != nil {
		return Report{}, err
	}
	ref, err := HumanReference(ctx, s)
	if err != nil {
		return Report{}, err
	}
	if opts.GT == queries.GTHuman && ref.Episodes == 0 {
		return Report{}, fmt.Errorf("%w: --gt human: the lake has no human pass/fail judgments (trustlake ingest human-labels FILE.csv)", ErrNoGroundTruth)
	}
	cells, err := s.MetricsCells(ctx, queries.MetricCellOptions{
		ByAgent:    slices.Contains(opts.By, ByAgent),
		ByCategory: slices.Contains(opts.By, ByCategory) || slices.Contains(opts.By, ByHardness),
		Threshold:  opts.Threshold,
		GT:         opts.GT,
	})
	if err != nil {
		return Report{}, err
	}
	rep, err := Compute(cells, opts)
	if ctx.Err() != nil { // a signal while a step that does not poll it ran: no output
		return Report{}, ctx.Err()
	}
	if errors.Is(err, ErrNoGroundTruth) {
		return Report{}, fmt.Errorf("%w (the lake has %d ground-truth rows and %d episodes; reference --gt %s)", err, counts.GroundTruth, counts.Episodes, opts.GT)
	}
	if err != nil {
		return Report{}, err
	}
	rep.Reference = ref
	if ref.Ties > 0 && opts.GT != queries.GTVerifier {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("human judgments tie on %d episode(s): they have no human reference", ref.Ties))
	}
	return rep, nil
}

// HumanReference summarises the human pass/fail judgments of the lake:
// episodes, annotators, judgments, ties (no majority) and Fleiss' κ
// between annotators over the episodes judged by two or more.
func HumanReference(ctx context.Context, s Engine) (Reference, error) {
	counts, annotators, err := s.HumanAgreement(ctx)
	if err != nil {
		return Reference{}, err
	}
	ref := Reference{Annotators: annotators}
	var multi [][]int
	for _, c := range counts {
		ref.Episodes += c.N
		ref.Judgments += c.N * (c.Pass + c.Fail)
		if c.Pass == c.Fail {
			ref.Ties += c.N
		}
		if c.Pass+c.Fail < 2 {
			continue
		}
		ref.MultiAnnotated += c.N
		if c.Pass == 0 || c.Fail == 0 {
			ref.Unanimous += c.N
		}
		for range c.N {
			multi = append(multi, []int{c.Pass, c.Fail})
		}
	}
	ref.FleissKappa = jsonNum(stats.FleissKappa(multi))
	return ref, nil
}

// Engine runs the sufficient-statistics SQL of Run and Compare and returns
// the small per-task results; the statistics are computed here, in Go, on
// those. A DuckDB *queries.Session is the embedded engine; a Spark Connect
// session (package queries/spark) runs the same statements on a cluster.
// The slices an engine returns are the caller's (Run filters and sorts the
// cells in place).
type Engine interface {
	MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error)
	MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error)
	MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error)
	MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error)
	HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error)
}

// ScoreEngine is an Engine that also reads the episode scores of a
// score-only judge (Threshold).
type ScoreEngine interface {
	Engine
	MetricsScores(ctx context.Context, jc queries.JudgeCondition, source string) ([]queries.MetricScore, error)
}

var _ ScoreEngine = (*queries.Session)(nil)
