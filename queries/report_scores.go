package queries

import (
	"cmp"
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"
)

// ReportScores returns MetricsScores(jc, source) for every jc of jcs, in
// their order, from one statement (sql/report_scores.sql): the report's
// reward models. The statement returns the scored runs as Arrow batches;
// each episode's mean is summed here in run order, as metrics_scores.sql's
// avg(score ORDER BY run) does (TestReportScores compares the two).
func (s *Session) ReportScores(ctx context.Context, jcs []JudgeCondition, source string) ([][]MetricScore, error) {
	out := make([][]MetricScore, len(jcs))
	if len(jcs) == 0 {
		return out, nil
	}
	var wanted, judges, conditions []string
	for k, jc := range jcs {
		wanted = append(wanted, "("+strconv.Itoa(k)+", "+quote(jc.Judge)+", "+quote(jc.Condition)+")")
		judges = append(judges, quote(jc.Judge))
		conditions = append(conditions, quote(jc.Condition))
	}
	q := strings.NewReplacer("{{wanted}}", strings.Join(wanted, ", "),
		"{{judges}}", strings.Join(slices.Compact(slices.Sorted(slices.Values(judges))), ", "),
		"{{conditions}}", strings.Join(slices.Compact(slices.Sorted(slices.Values(conditions))), ", ")).Replace(sqlFile("report_scores"))
	// Per judge × condition, the episodes by rank (sparse: a rank may
	// have no run of that judge × condition).
	eps := make([][]scoreEpisode, len(jcs))
	err := s.arrowRows(ctx, q, []any{source}, func(rec arrow.RecordBatch) error {
		k, rank, id, task := rec.Column(0), rec.Column(1), rec.Column(2).(*array.String), rec.Column(3).(*array.String)
		gt, run, score := rec.Column(4).(*array.Boolean), rec.Column(5).(*array.Int64), rec.Column(6).(*array.Float64)
		for i := range int(rec.NumRows()) {
			kk, r := int(intAt(k, i)), int(intAt(rank, i))
			if r >= len(eps[kk]) {
				eps[kk] = slices.Grow(eps[kk], r+1-len(eps[kk]))[:r+1]
			}
			e := &eps[kk][r]
			if e.n == 0 {
				e.id, e.task, e.gt = strings.Clone(id.Value(i)), strings.Clone(task.Value(i)), gt.Value(i)
			}
			e.add(scoredRun{run: run.Value(i), score: score.Value(i), null: score.IsNull(i)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query scores: %w", err)
	}
	for k := range jcs {
		for _, e := range eps[k] {
			if m, ok := e.mean(); ok {
				if out[k] == nil {
					out[k] = make([]MetricScore, 0, len(eps[k]))
				}
				out[k] = append(out[k], m)
			}
		}
	}
	return out, nil
}

// scoreEpisode gathers one episode's runs of one judge × condition: the
// first three inline, the rest in more.
type scoreEpisode struct {
	id, task string
	gt       bool
	n        int
	runs     [3]scoredRun
	more     []scoredRun
}

func (e *scoreEpisode) add(r scoredRun) {
	if e.n < len(e.runs) {
		e.runs[e.n] = r
	} else {
		e.more = append(e.more, r)
	}
	e.n++
}

type scoredRun struct {
	run   int64
	score float64
	null  bool
}

// mean is the episode's MetricScore: its non-null scores summed in run
// order and divided by their count; false when none is scored (the
// statement's HAVING count(score) > 0) or the episode had no run.
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
	return MetricScore{EpisodeID: e.id, TaskID: e.task, GTPass: e.gt, Score: sum / float64(n), Scored: n, Runs: e.n}, true
}

// arrowRows runs query on the session's connection and hands each Arrow
// record batch of its result to fn (which may not keep it).
func (s *Session) arrowRows(ctx context.Context, query string, args []any, fn func(arrow.RecordBatch) error) error {
	return s.conn.Raw(func(dc any) error {
		ar, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
		if err != nil {
			return err
		}
		rr, err := ar.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rr.Release()
		for rr.Next() {
			if err := fn(rr.RecordBatch()); err != nil {
				return err
			}
		}
		return rr.Err()
	})
}

// intAt reads row i of an integer column of any width.
func intAt(a arrow.Array, i int) int64 {
	switch c := a.(type) {
	case *array.Int64:
		return c.Value(i)
	case *array.Int32:
		return int64(c.Value(i))
	case *array.Int16:
		return int64(c.Value(i))
	case *array.Int8:
		return int64(c.Value(i))
	case *array.Uint64:
		return int64(c.Value(i))
	case *array.Uint32:
		return int64(c.Value(i))
	}
	panic(fmt.Sprintf("intAt: %s column", a.DataType()))
}
