package main

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// reportEngine is the session a report computes on. The sections run
// concurrently (metrics, each claim sway, each reward model, health, the
// Trust Layer: one's Go statistics overlap another's SQL), so every
// statement takes the session in turn (a DuckDB session runs one statement
// at a time). It also
// remembers the lake-wide lookups every metrics function starts with (row
// counts and the judge × conditions): the report calls Run, Compare per
// judge and Threshold per reward model on one unchanging snapshot, so each
// of those statements runs once instead of once per call.
type reportEngine struct {
	sess   *queries.Session
	mu     sync.Mutex // held while a statement runs on sess
	counts *queries.LakeCounts
	jcs    []queries.JudgeConditionCount // without a threshold
	// runs: the run counts and episodes read once (ReadRuns); the judge ×
	// conditions, metrics cells and pairs are computed from them in Go.
	// Nil when not read (then every answer comes from the session).
	runs *queries.ReportRuns
	// scoreJCs are the reward models whose scores the first MetricsScores
	// call of one of them reads in one statement (ReportScores) into scores.
	scoreJCs []queries.JudgeCondition
	scores   map[scoreKey][]queries.MetricScore
}

type scoreKey struct {
	jc     queries.JudgeCondition
	source string
}

var _ metrics.ScoreEngine = (*reportEngine)(nil)

func newReportEngine(s *queries.Session) *reportEngine {
	return &reportEngine{sess: s}
}

func (e *reportEngine) MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.counts == nil {
		c, err := e.sess.MetricsLakeCounts(ctx)
		if err != nil {
			return c, err
		}
		e.counts = &c
	}
	return *e.counts, nil
}

// MetricsJudgeConditions answers from one scan for every threshold: the
// judge × conditions and their episodes do not depend on the threshold
// (metric_episodes groups the runs by judge, condition and episode whatever
// it is), and with a threshold no run is left unscored, so the answer for
// any threshold is the one without, its unscored counts zero
// (TestReportEngineJudgeConditions checks it against the session).
func (e *reportEngine) MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runs != nil {
		return e.runs.JudgeConditions(threshold), nil
	}
	if e.jcs == nil {
		got, err := e.sess.MetricsJudgeConditions(ctx, nil)
		if err != nil {
			return nil, err
		}
		e.jcs = got
	}
	out := slices.Clone(e.jcs)
	if threshold != nil {
		for i := range out {
			out[i].Unscored = 0
		}
	}
	return out, nil
}

// MetricsCells computes the cells from the runs read once when there are
// (outside the lock: they do not change), else asks the session.
func (e *reportEngine) MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error) {
	if r := e.readRuns(); r != nil {
		return r.Cells(opts), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.MetricsCells(ctx, opts)
}

// MetricsPairs is like MetricsCells.
func (e *reportEngine) MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error) {
	if r := e.readRuns(); r != nil {
		return r.Pairs(a, b, source, threshold, gt), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.MetricsPairs(ctx, a, b, source, threshold, gt)
}

func (e *reportEngine) readRuns() *queries.ReportRuns {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runs
}

// readScores names the judge × conditions whose scores MetricsScores reads
// together, on the first call for one of them.
func (e *reportEngine) readScores(jcs []queries.JudgeCondition) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.scoreJCs = slices.Clone(jcs)
}

// MetricsScores answers the judge × conditions named by readScores from
// one statement for all of them (queries.Session.ReportScores, the same
// rows as the session's MetricsScores), others from the session.
func (e *reportEngine) MetricsScores(ctx context.Context, jc queries.JudgeCondition, source string) ([]queries.MetricScore, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.Contains(e.scoreJCs, jc) {
		return e.sess.MetricsScores(ctx, jc, source)
	}
	if got, ok := e.scores[scoreKey{jc, source}]; ok {
		return got, nil
	}
	all, err := e.sess.ReportScores(ctx, e.scoreJCs, source)
	if err != nil {
		return nil, err
	}
	if e.scores == nil {
		e.scores = map[scoreKey][]queries.MetricScore{}
	}
	for i, got := range all {
		e.scores[scoreKey{e.scoreJCs[i], source}] = got
	}
	return e.scores[scoreKey{jc, source}], nil
}

func (e *reportEngine) HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.HumanAgreement(ctx)
}

// ReadRuns reads the run counts of every (judge, condition, episode) and
// the episodes once (queries.Session.ReadReportRuns) for the judge ×
// conditions, cells and pairs. On a lake whose shape ReportRuns does not
// cover it counts the runs per episode once for the session's statements
// instead (queries.Session.MaterializeRuns at threshold).
func (e *reportEngine) ReadRuns(ctx context.Context, threshold *float64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	r, err := e.sess.ReadReportRuns(ctx)
	if errors.Is(err, queries.ErrReportRunsShape) {
		return e.sess.MaterializeRuns(ctx, threshold)
	}
	if err != nil {
		return err
	}
	e.runs = r
	return nil
}

func (e *reportEngine) ReportHealth(ctx context.Context) (queries.Health, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.ReportHealth(ctx)
}

func (e *reportEngine) ReportNeedsReview(ctx context.Context) ([]queries.ReviewCount, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.ReportNeedsReview(ctx)
}

func (e *reportEngine) TrustBenchmarks(ctx context.Context) ([]queries.BenchmarkCount, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.TrustBenchmarks(ctx)
}

// locked runs fn with the session to itself (for a caller that takes a
// *queries.Session, such as metrics.Checklist).
func (e *reportEngine) locked(fn func(*queries.Session) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e.sess)
}
