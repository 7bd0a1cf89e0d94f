package main

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// reportEngine is the session a report computes on, remembering the
// lake-wide lookups every metrics function starts with (row counts and the
// judge × conditions, each a scan of the verdicts): the report calls Run,
// Compare per judge and Threshold per reward model on one unchanging
// snapshot, so each of those statements runs once per threshold instead of
// once per call.
type reportEngine struct {
	*queries.Session
	mu     sync.Mutex
	counts *queries.LakeCounts
	jcs    map[string][]queries.JudgeConditionCount // by threshold ("" for none)
}

var _ metrics.ScoreEngine = (*reportEngine)(nil)

func newReportEngine(s *queries.Session) *reportEngine {
	return &reportEngine{Session: s, jcs: map[string][]queries.JudgeConditionCount{}}
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

func (e *reportEngine) MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error) {
	key := ""
	if threshold != nil {
		key = fmt.Sprint(*threshold)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	got, ok := e.jcs[key]
	if !ok {
		var err error
		if got, err = e.Session.MetricsJudgeConditions(ctx, threshold); err != nil {
			return nil, err
		}
		e.jcs[key] = got
	}
	return slices.Clone(got), nil
}
