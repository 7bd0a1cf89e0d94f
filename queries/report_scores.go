package queries

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ReportScores returns MetricsScores(jc, source) for every jc of jcs, in
// their order, from one statement (sql/report_scores.sql) and the episodes
// of r: the report's reward models. The statement returns the runs as
// Arrow batches; each episode's mean is summed here in run order, as
// metrics_scores.sql's avg(score ORDER BY run) does (TestReportScores
// compares the two).
func (s *Session) ReportScores(ctx context.Context, r *ReportRuns, jcs []JudgeCondition, source string) ([][]MetricScore, error) {
	out := make([][]MetricScore, len(jcs))
	if len(jcs) == 0 {
		return out, nil
	}
	var judges, conditions []string
	for _, jc := range jcs {
		judges = append(judges, quote(jc.Judge))
		conditions = append(conditions, quote(jc.Condition))
	}
	judges, conditions = slices.Compact(slices.Sorted(slices.Values(judges))), slices.Compact(slices.Sorted(slices.Values(conditions)))
	q := strings.NewReplacer("{{judges}}", strings.Join(judges, ", "), "{{conditions}}", strings.Join(conditions, ", ")).Replace(sqlFile("report_scores"))
	// The codes of every judge × condition the statement may return (each
	// judge with each condition), so that two with one code are caught.
	var pairs []string
	for _, j := range judges {
		for _, c := range conditions {
			pairs = append(pairs, "("+j+", "+c+")")
		}
	}
	names, err := s.judgeConditionCodes(ctx, "SELECT j, c, hash(j, c) FROM (VALUES "+strings.Join(pairs, ", ")+") AS t(j, c)")
	if errors.Is(err, ErrReportRunsShape) { // two with one code
		for k, jc := range jcs {
			if out[k], err = s.MetricsScores(ctx, jc, source); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	// The episodes metrics_scores.sql keeps: a task row of source and the
	// verifier's ground truth.
	keep := make([]bool, len(r.eps))
	for i := range r.eps {
		e := &r.eps[i]
		keep[i] = e.hasSource && e.source == source && e.gt.valid
	}
	// Per judge × condition, the runs of each episode by its number.
	eps := make([][]scoreEpisode, len(jcs))
	var last uint64
	k := -2 // -1: a judge × condition not asked for
	look := r.lookup()
	err = s.queryArrow(ctx, q, nil, func(rec arrow.RecordBatch) error {
		jc, id := rec.Column(0).(*array.Uint64).Uint64Values(), rec.Column(1).(*array.Uint64).Uint64Values()
		run, score := rec.Column(2).(*array.Int64), rec.Column(3).(*array.Float64)
		for row := range int(rec.NumRows()) {
			if h := jc[row]; k == -2 || h != last {
				last, k = h, -1
				if name, ok := names[h]; ok {
					if k = slices.Index(jcs, name); k >= 0 && eps[k] == nil {
						eps[k] = make([]scoreEpisode, len(r.eps))
					}
				}
			}
			if k < 0 {
				continue
			}
			i, ok := look.find(id[row])
			if !ok || !keep[i] {
				continue
			}
			eps[k][i].add(scoredRun{run: run.Value(row), score: score.Value(row), null: score.IsNull(row)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query scores: %w", err)
	}
	for k := range jcs {
		if eps[k] == nil {
			continue
		}
		for _, i := range r.byID {
			e := &r.eps[i]
			if m, ok := eps[k][i].mean(); ok {
				if out[k] == nil {
					out[k] = make([]MetricScore, 0, len(r.eps))
				}
				m.EpisodeID, m.TaskID, m.GTPass = e.id, e.task, e.gt.v
				out[k] = append(out[k], m)
			}
		}
	}
	return out, nil
}

// scoreEpisode gathers one episode's runs of one judge × condition: the
// first three inline, the rest in more.
type scoreEpisode struct {
	n    int
	runs [3]scoredRun
	more []scoredRun
}

type scoredRun struct {
	run   int64
	score float64
	null  bool
}

func (e *scoreEpisode) add(r scoredRun) {
	if e.n < len(e.runs) {
		e.runs[e.n] = r
	} else {
		e.more = append(e.more, r)
	}
	e.n++
}

// mean is the episode's MetricScore without its episode: its non-null
// scores summed in run order and divided by their count; false when none
// is scored (metrics_scores.sql's HAVING count(score) > 0).
func (e *scoreEpisode) mean() (MetricScore, bool) {
	runs := append(e.runs[:min(e.n, len(e.runs)):min(e.n, len(e.runs))], e.more...)
	slices.SortStableFunc(runs, func(a, b scoredRun) int { return cmp.Compare(a.run, b.run) })
	sum, n := 0.0, 0
	for _, r := range runs {
		if !r.null {
			sum += r.score
			n++
		}
	}
	if n == 0 {
		return MetricScore{}, false
	}
	return MetricScore{Score: sum / float64(n), Scored: n, Runs: e.n}, true
}
