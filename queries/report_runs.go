package queries

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ReportRuns holds the run counts of every (judge, condition, episode) of
// a snapshot and the episodes' attributes, read once (ReadReportRuns), so
// that the report's metrics cells and claim-sway pairs are computed from
// them in Go (Cells, Pairs: the rows of MetricsCells and MetricsPairs)
// instead of one statement each.
type ReportRuns struct {
	jcs []JudgeCondition
	eps []reportEpisode
	// runs[k][i]: judge × condition k on episode i; unknown[k]: on
	// episodes without an episode, ground-truth or label row.
	runs    [][]episodeRuns
	unknown []map[string]*episodeRuns
}

// reportEpisode is one row of report_episodes.
type reportEpisode struct {
	id, task, source, agent, category string
	hasTask, hasSource, hasCategory   bool
	gt, human                         optBool
}

type optBool struct{ valid, v bool }

// episodeRuns sums the run-count rows of one (judge, condition, episode).
type episodeRuns struct {
	seen                               bool
	runs, parse, success, failure, unc int
	// scores of score-only runs: the first three inline (one row's
	// worth), the rest in more.
	scores [3]float64
	nScore int
	more   []float64
}

func (e *episodeRuns) addScore(x float64) {
	if e.nScore < len(e.scores) {
		e.scores[e.nScore] = x
	} else {
		e.more = append(e.more, x)
	}
	e.nScore++
}

// ErrReportRunsShape reports a lake that ReportRuns does not reproduce
// exactly (an episode id on two rows of report_episodes): the caller asks
// the session instead.
var ErrReportRunsShape = errors.New("report runs: lake shape not covered")

// ReadReportRuns reads the run counts of every judge × condition and the
// episodes' attributes (sql/report_episodes.sql, sql/report_runs.sql, as
// Arrow batches).
func (s *Session) ReadReportRuns(ctx context.Context) (*ReportRuns, error) {
	r := &ReportRuns{}
	if err := s.Exec(ctx, sqlFile("report_episodes")); err != nil {
		return nil, fmt.Errorf("report episodes: %w", err)
	}
	ids := map[string]bool{}
	err := s.arrowRows(ctx, "SELECT i, episode_id, task_id, source, agent, gt_pass, human_pass, category FROM report_episodes", nil,
		func(rec arrow.RecordBatch) error {
			col := func(j int) *array.String { return rec.Column(j).(*array.String) }
			id, task, source, agent, category := col(1), col(2), col(3), col(4), col(7)
			gt, human := rec.Column(5).(*array.Boolean), rec.Column(6).(*array.Boolean)
			for row := range int(rec.NumRows()) {
				i := int(intAt(rec.Column(0), row))
				if i >= len(r.eps) {
					r.eps = append(r.eps, make([]reportEpisode, i+1-len(r.eps))...)
				}
				e := &r.eps[i]
				e.id = strings.Clone(id.Value(row))
				if ids[e.id] {
					return ErrReportRunsShape
				}
				ids[e.id] = true
				e.task, e.hasTask = strOf(task, row)
				e.source, e.hasSource = strOf(source, row)
				e.agent, _ = strOf(agent, row)
				e.category, e.hasCategory = strOf(category, row)
				e.gt, e.human = boolOf(gt, row), boolOf(human, row)
			}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("report episodes: %w", err)
	}
	index := map[JudgeCondition]int{}
	var last JudgeCondition
	k := -1
	err = s.arrowRows(ctx, sqlFile("report_runs"), nil, func(rec arrow.RecordBatch) error {
		judge, condition := rec.Column(0).(*array.String), rec.Column(1).(*array.String)
		ic, idc := rec.Column(2), rec.Column(3).(*array.String)
		n := func(j int) *array.Int32 { return rec.Column(j).(*array.Int32) }
		runs, parse, success, failure, unc := n(4), n(5), n(6), n(7), n(8)
		s1, s2, s3 := rec.Column(9).(*array.Float64), rec.Column(10).(*array.Float64), rec.Column(11).(*array.Float64)
		for row := range int(rec.NumRows()) {
			// Rows come file by file: the judge × condition seldom changes.
			if j, c := judge.Value(row), condition.Value(row); k < 0 || j != last.Judge || c != last.Condition {
				last = JudgeCondition{Judge: strings.Clone(j), Condition: strings.Clone(c)}
				var ok bool
				if k, ok = index[last]; !ok {
					k = len(r.jcs)
					index[last] = k
					r.jcs = append(r.jcs, last)
					r.runs = append(r.runs, make([]episodeRuns, len(r.eps)))
					r.unknown = append(r.unknown, nil)
				}
			}
			var e *episodeRuns
			if ic.IsNull(row) {
				if r.unknown[k] == nil {
					r.unknown[k] = map[string]*episodeRuns{}
				}
				id := idc.Value(row)
				if e = r.unknown[k][id]; e == nil {
					e = &episodeRuns{}
					r.unknown[k][strings.Clone(id)] = e
				}
			} else {
				e = &r.runs[k][intAt(ic, row)]
			}
			e.seen = true
			e.runs += int(runs.Value(row))
			e.parse += int(parse.Value(row))
			e.success += int(success.Value(row))
			e.failure += int(failure.Value(row))
			e.unc += int(unc.Value(row))
			for _, sc := range []*array.Float64{s1, s2, s3} {
				if !sc.IsNull(row) {
					e.addScore(sc.Value(row))
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report runs: %w", err)
	}
	return r, nil
}

func strOf(a *array.String, i int) (string, bool) {
	if a.IsNull(i) {
		return "", false
	}
	return strings.Clone(a.Value(i)), true
}

func boolOf(a *array.Boolean, i int) optBool {
	if a.IsNull(i) {
		return optBool{}
	}
	return optBool{valid: true, v: a.Value(i)}
}

// counts returns the episode's runs per verdict at threshold, as the
// per_episode part of metrics_cells.sql counts them: a score-only run is
// success at score >= threshold, else failure, and unscored when threshold
// is nil. Comparisons follow DuckDB's, where NaN is above every number and
// equal to itself.
func (e *episodeRuns) counts(threshold *float64) (success, failure, unc, unscored int) {
	success, failure, unc = e.success, e.failure, e.unc
	for j := range e.nScore {
		sc := 0.0
		if j < len(e.scores) {
			sc = e.scores[j]
		} else {
			sc = e.more[j-len(e.scores)]
		}
		switch {
		case threshold == nil:
			unscored++
		case atLeast(sc, *threshold):
			success++
		default:
			failure++
		}
	}
	return success, failure, unc, unscored
}

func atLeast(x, thr float64) bool {
	switch {
	case math.IsNaN(x):
		return true
	case math.IsNaN(thr):
		return false
	}
	return x >= thr
}

// reference is the episode's ground truth under reference gt (see
// metric_episodes).
func (e *reportEpisode) reference(gt string) optBool {
	switch gtOrDefault(gt) {
	case GTVerifier:
		return e.gt
	case GTHuman:
		return e.human
	}
	if e.gt.valid {
		return e.gt
	}
	return e.human
}
