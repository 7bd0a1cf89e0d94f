package queries

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ReportScores returns MetricsScores(jc, source) for every jc of jcs, in
// their order: the report's reward models. Those whose run counts keep
// every score with its run number (ReportRuns.HasScoreRuns) are averaged
// from r; the others are read in one statement (sql/report_scores.sql)
// and joined with the episodes of r. The statement returns the runs as
// Arrow batches. Either way each episode's mean is summed here in run
// order, as metrics_scores.sql's avg(score ORDER BY run) does
// (TestReportRunsAsSession compares them).
func (s *Session) ReportScores(ctx context.Context, r *ReportRuns, jcs []JudgeCondition, source string) ([][]MetricScore, error) {
	out := make([][]MetricScore, len(jcs))
	var read []JudgeCondition // by the statement
	for k, jc := range jcs {
		if r.HasScoreRuns(jc) {
			out[k] = r.Scores(jc, source)
		} else {
			read = append(read, jc)
		}
	}
	if len(read) == 0 {
		return out, nil
	}
	got, err := s.readReportScores(ctx, r, read, source)
	if err != nil {
		return nil, err
	}
	for k, jc := range jcs {
		if i := slices.Index(read, jc); i >= 0 {
			out[k] = got[i]
		}
	}
	return out, nil
}

// readReportScores is ReportScores from one statement for every jc of
// jcs.
func (s *Session) readReportScores(ctx context.Context, r *ReportRuns, jcs []JudgeCondition, source string) ([][]MetricScore, error) {
	out := make([][]MetricScore, len(jcs))
	var judges, conditions []string
	for _, jc := range jcs {
		judges = append(judges, jc.Judge)
		conditions = append(conditions, jc.Condition)
	}
	judges, conditions = slices.Compact(slices.Sorted(slices.Values(judges))), slices.Compact(slices.Sorted(slices.Values(conditions)))
	// The codes of every judge × condition the statement may return (each
	// judge with each condition), so that two with one code are caught.
	names, err := s.judgeConditionCodes(ctx, sqlFile("report_score_codes"), judges, conditions)
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
	slot, kept := make([]int32, len(r.eps)), int32(0) // number among the kept episodes, or -1
	for i := range r.eps {
		slot[i] = -1
		if e := &r.eps[i]; e.hasSource && e.source == source && e.gt.valid {
			slot[i], kept = kept, kept+1
		}
	}
	// Per judge × condition, the runs of each kept episode by its slot.
	eps := make([][]scoreEpisode, len(jcs))
	var last uint64
	k := -2 // -1: a judge × condition not asked for
	look := r.lookup()
	err = s.queryArrow(ctx, sqlFile("report_scores"), []any{judges, conditions}, func(rec arrow.RecordBatch) error {
		jc, id := rec.Column(0).(*array.Uint64).Uint64Values(), rec.Column(1).(*array.Uint64).Uint64Values()
		run, score := rec.Column(2).(*array.Int64), rec.Column(3).(*array.Float64)
		for row := range int(rec.NumRows()) {
			if h := jc[row]; k == -2 || h != last {
				last, k = h, -1
				if name, ok := names[h]; ok {
					if k = slices.Index(jcs, name); k >= 0 && eps[k] == nil {
						eps[k] = make([]scoreEpisode, kept)
					}
				}
			}
			if k < 0 {
				continue
			}
			i, ok := look.find(id[row])
			if !ok || slot[i] < 0 {
				continue
			}
			eps[k][slot[i]].add(run.Value(row), score.Value(row), score.IsNull(row))
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
			if slot[i] < 0 {
				continue
			}
			e := &r.eps[i]
			if m, ok := eps[k][slot[i]].mean(); ok {
				if out[k] == nil {
					out[k] = make([]MetricScore, 0, kept)
				}
				m.EpisodeID, m.TaskID, m.GTPass = e.id, e.task, e.gt.v
				out[k] = append(out[k], m)
			}
		}
	}
	return out, nil
}

// HasScoreRuns reports whether the run counts of jc give its episodes'
// scores as the verdicts do: every run of jc with a score is score-only
// and its score is kept with its run number (rows written since run_counts
// keep them, with no run that carries both a verdict and a score). A jc
// without runs has none either way.
func (r *ReportRuns) HasScoreRuns(jc JudgeCondition) bool {
	k := slices.Index(r.jcs, jc)
	return k < 0 || r.scoreRuns[k]
}

// Scores returns MetricsScores(jc, source) from the run counts (jc
// HasScoreRuns): the episodes with a task row of source and the
// verifier's ground truth, in the order of their ids, each with the mean
// of its scores summed in run order. Safe for concurrent use.
func (r *ReportRuns) Scores(jc JudgeCondition, source string) []MetricScore {
	k := slices.Index(r.jcs, jc)
	if k < 0 {
		return nil
	}
	kept := func(i int) bool {
		e := &r.eps[i]
		return r.runs[k][i].scoreAt != 0 && e.hasSource && e.source == source && e.gt.valid
	}
	n := 0
	for i := range r.eps {
		if kept(i) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	// Sized once: with the collector off, a slice grown by appends is
	// pages touched for nothing.
	out := make([]MetricScore, 0, n)
	var buf []scoredRun
	for _, i := range r.byID {
		if !kept(i) {
			continue
		}
		e, runs := &r.eps[i], &r.runs[k][i]
		buf = buf[:0]
		for _, x := range r.scores.of(runs) {
			buf = append(buf, scoredRun{run: x.run, score: x.score})
		}
		m, _ := meanInRunOrder(buf, int(runs.runs))
		m.EpisodeID, m.TaskID, m.GTPass = e.id, e.task, e.gt.v
		out = append(out, m)
	}
	return out
}

// scoreEpisode gathers one episode's runs of one judge × condition: the
// first three inline (64 bytes an episode: a million verdicts' reward
// models fill ~100,000), the rest in more.
type scoreEpisode struct {
	n      int32
	nulls  uint8 // bit j: the j-th run has no score
	runs   [3]int64
	scores [3]float64
	more   *[]scoredRun
}

type scoredRun struct {
	run   int64
	score float64
	null  bool
}

func (e *scoreEpisode) add(run int64, score float64, null bool) {
	if e.n < int32(len(e.runs)) {
		e.runs[e.n], e.scores[e.n] = run, score
		if null {
			e.nulls |= 1 << e.n
		}
	} else {
		if e.more == nil {
			e.more = new([]scoredRun)
		}
		*e.more = append(*e.more, scoredRun{run, score, null})
	}
	e.n++
}

// mean is the episode's MetricScore without its episode: its non-null
// scores summed in run order and divided by their count; false when none
// is scored (metrics_scores.sql's HAVING count(score) > 0).
func (e *scoreEpisode) mean() (MetricScore, bool) {
	var buf [len(scoreEpisode{}.runs)]scoredRun
	runs := buf[:min(int(e.n), len(buf))]
	for j := range runs {
		runs[j] = scoredRun{e.runs[j], e.scores[j], e.nulls&(1<<j) != 0}
	}
	if e.more != nil {
		runs = append(runs, *e.more...)
	}
	return meanInRunOrder(runs, int(e.n))
}

// meanInRunOrder is the MetricScore (without its episode) of an episode's
// runs, of which n in all: the non-null scores summed in run order and
// divided by their count; false when none is scored. It sorts runs.
func meanInRunOrder(runs []scoredRun, n int) (MetricScore, bool) {
	// They usually come in run order; else a stable insertion sort (an
	// episode has few runs).
	for j := 1; j < len(runs); j++ {
		for i := j; i > 0 && runs[i].run < runs[i-1].run; i-- {
			runs[i], runs[i-1] = runs[i-1], runs[i]
		}
	}
	sum, scored := 0.0, 0
	for _, r := range runs {
		if !r.null {
			sum += r.score
			scored++
		}
	}
	if scored == 0 {
		return MetricScore{}, false
	}
	return MetricScore{Score: sum / float64(scored), Scored: scored, Runs: n}, true
}
