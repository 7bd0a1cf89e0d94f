package queries

import (
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
	err = s.queryArrow(ctx, q, nil, func(rec arrow.RecordBatch) error {
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
	// They usually come in run order; else a stable insertion sort (an
	// episode has few runs).
	for j := 1; j < len(runs); j++ {
		for i := j; i > 0 && runs[i].run < runs[i-1].run; i-- {
			runs[i], runs[i-1] = runs[i-1], runs[i]
		}
	}
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
	return MetricScore{Score: sum / float64(n), Scored: n, Runs: int(e.n)}, true
}
