package main

import (
	"context"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// reportEngine is the session a report computes on, remembering the
// lake-wide lookups every metrics function starts with (row counts and the
// judge × conditions, each a scan of the verdicts): the report calls Run,
// Compare per judge and Threshold per reward model on one unchanging
// snapshot, so each of those statements runs once instead of once per
// call.
type reportEngine struct {
	*queries.Session
	mu     sync.Mutex
	counts *queries.LakeCounts
	jcs    []queries.JudgeConditionCount // without a threshold
}

var _ metrics.ScoreEngine = (*reportEngine)(nil)

func newReportEngine(s *queries.Session) *reportEngine {
	return &reportEngine{Session: s}
}

func (e *reportEngine) MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.counts == nil {
		c, err := e.Session.MetricsLakeCounts(ctx)
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
	if e.jcs == nil {
		got, err := e.Session.MetricsJudgeConditions(ctx, nil)
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
