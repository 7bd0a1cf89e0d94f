package nightly

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// engine is the session a report computes on. The sections run
// concurrently (metrics, each claim sway, each reward model, health, the
// Trust Layer: one's Go statistics overlap another's SQL), so every
// statement takes the session in turn (a DuckDB session runs one statement
// at a time). Prepare reads once what every metrics function starts with
// (row counts, human agreement, the judge × conditions) and the run counts
// of every (judge, condition, episode) with the episodes' attributes
// (queries.ReportRuns): the report calls Run, Compare per judge and
// Threshold per reward model on one unchanging snapshot, and their cells,
// pairs and judge × conditions are computed from those runs in Go, without
// a statement. ReadScores reads in one statement the reward models' scores
// that the run counts do not give, for their MetricsScores calls (the
// others are averaged from the runs by each call).
type engine struct {
	sess         *queries.Session
	sessionCells bool
	mu           sync.Mutex // held while a statement runs on sess, and for scores

	// Filled by Prepare, then only read.
	prepared bool
	counts   queries.LakeCounts
	human    []queries.HumanCount
	nHuman   int
	runs     *queries.ReportRuns           // nil when the lake's shape is not covered
	jcs      []queries.JudgeConditionCount // without a threshold

	// scoreJCs are the reward models whose scores ReadScores (or the first
	// MetricsScores call for one of them at another source) reads in one
	// statement (ReportScores) into scores: those whose run counts do not
	// give them.
	scoreJCs []queries.JudgeCondition
	scores   map[scoreKey][]queries.MetricScore
}

type scoreKey struct {
	jc     queries.JudgeCondition
	source string
}

var _ metrics.ScoreEngine = (*engine)(nil)

// newEngine returns the engine over s; with sessionCells the report takes
// the session's statements even where ReportRuns covers the lake: the same
// figures, slower (a cross-check, and how the tests reach that path).
func newEngine(s *queries.Session, sessionCells bool) *engine {
	return &engine{sess: s, sessionCells: sessionCells}
}

// Prepare reads the lake-wide lookups and the runs once, before the
// sections start (their calls then need no lock). On a lake whose shape
// ReportRuns does not cover, the sections run the session's statements
// (Options.SessionCells asks for them everywhere: the same figures, slower;
// a cross-check, and how the tests reach that path).
func (e *engine) Prepare(ctx context.Context, threshold *float64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	if e.counts, err = e.sess.MetricsLakeCounts(ctx); err != nil {
		return err
	}
	if e.sessionCells {
		err = queries.ErrReportRunsShape // asked for: cross-check the two paths
	} else {
		e.runs, err = e.sess.ReadReportRuns(ctx, e.counts.Episodes)
	}
	switch {
	case err == nil:
		e.jcs = e.runs.JudgeConditions(nil)
	case errors.Is(err, queries.ErrReportRunsShape):
		e.runs = nil
		e.jcs, err = e.sess.MetricsJudgeConditions(ctx, nil)
	}
	if err != nil {
		return err
	}
	// Without human judgments (the runs read no human_reference row) the
	// agreement statement would return no row.
	if e.runs == nil || e.runs.HasHumanReference() {
		if e.human, e.nHuman, err = e.sess.HumanAgreement(ctx); err != nil {
			return err
		}
	}
	e.prepared = true
	return nil
}

func (e *engine) MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error) {
	if e.prepared {
		return e.counts, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.MetricsLakeCounts(ctx)
}

func (e *engine) HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error) {
	if e.prepared {
		return e.human, e.nHuman, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.HumanAgreement(ctx)
}

// MetricsJudgeConditions answers from one scan for every threshold (from
// the runs, or a statement): the judge × conditions and their episodes do
// not depend on the threshold (metric_episodes groups the runs by judge,
// condition and episode whatever it is), and with a threshold no run is
// left unscored, so the answer for any threshold is the one without, its
// unscored counts zero (TestReportEngineJudgeConditions checks it against
// the session).
func (e *engine) MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error) {
	jcs := e.jcs
	if !e.prepared {
		e.mu.Lock()
		got, err := e.sess.MetricsJudgeConditions(ctx, nil)
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
		jcs = got
	}
	out := slices.Clone(jcs)
	if threshold != nil {
		for i := range out {
			out[i].Unscored = 0
		}
	}
	return out, nil
}

// MetricsCells computes the cells from the runs when there are, else asks
// the session.
func (e *engine) MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error) {
	if e.runs != nil {
		return e.runs.Cells(opts), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.MetricsCells(ctx, opts)
}

// MetricsPairs is like MetricsCells.
func (e *engine) MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error) {
	if e.runs != nil {
		return e.runs.Pairs(a, b, source, threshold, gt), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.MetricsPairs(ctx, a, b, source, threshold, gt)
}

// ReadScores reads the scores of the reward models jcs of source in one
// statement (queries.Session.ReportScores) for MetricsScores, but for
// those whose run counts give them (queries.ReportRuns.HasScoreRuns):
// each MetricsScores call averages those from the runs, beside the other
// sections, without the session.
func (e *engine) ReadScores(ctx context.Context, jcs []queries.JudgeCondition, source string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.scoreJCs = nil
	for _, jc := range jcs {
		if e.runs == nil || !e.runs.HasScoreRuns(jc) {
			e.scoreJCs = append(e.scoreJCs, jc)
		}
	}
	_, err := e.scoresOf(ctx, queries.JudgeCondition{}, cmp.Or(source, schema.SourceNatural))
	return err
}

// MetricsScores answers from the run counts when they give jc's scores,
// the judge × conditions ReadScores read from one statement for all of
// them and the episodes of the runs (queries.Session.ReportScores, the
// same rows as the session's MetricsScores), others from the session.
func (e *engine) MetricsScores(ctx context.Context, jc queries.JudgeCondition, source string) ([]queries.MetricScore, error) {
	if e.runs != nil && e.runs.HasScoreRuns(jc) { // the runs are read only after Prepare
		return e.runs.Scores(jc, source), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runs == nil || !slices.Contains(e.scoreJCs, jc) {
		return e.sess.MetricsScores(ctx, jc, source)
	}
	return e.scoresOf(ctx, jc, source)
}

// scoresOf returns the scores of jc of source, reading those of every
// scoreJCs of that source first when they were not (e.mu held).
func (e *engine) scoresOf(ctx context.Context, jc queries.JudgeCondition, source string) ([]queries.MetricScore, error) {
	if got, ok := e.scores[scoreKey{jc, source}]; ok || e.runs == nil || len(e.scoreJCs) == 0 {
		return got, nil
	}
	all, err := e.sess.ReportScores(ctx, e.runs, e.scoreJCs, source)
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

// ReportHealth takes the episode counts from the runs when there are
// (the statement then scans no episodes), else asks the session.
func (e *engine) ReportHealth(ctx context.Context) (queries.Health, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runs != nil {
		return e.sess.ReportHealthOf(ctx, e.runs)
	}
	return e.sess.ReportHealth(ctx)
}

func (e *engine) ReportNeedsReview(ctx context.Context) ([]queries.ReviewCount, error) {
	if e.runs != nil {
		return e.runs.NeedsReview(), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.ReportNeedsReview(ctx)
}

func (e *engine) TrustBenchmarks(ctx context.Context) ([]queries.BenchmarkCount, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.TrustBenchmarks(ctx)
}

// locked runs fn with the session to itself (for a caller that takes a
// *queries.Session, such as metrics.Checklist).
func (e *engine) locked(fn func(*queries.Session) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e.sess)
}
