package spark

import (
	"cmp"
	"context"
	"fmt"

	"github.com/apache/spark-connect-go/spark/sql/types"

	"github.com/trustlake/trustlake/queries"
)

// defineMetricEpisodes (re)defines the view metric_episodes for a
// threshold and a reference (sql/metrics_episodes.sql), unless its
// statement, and so the view, is the one already defined.
func (s *Session) defineMetricEpisodes(ctx context.Context, thr *float64, gt string) error {
	stmt := bind(sqlFile("metrics_episodes"), thr, cmp.Or(gt, queries.GTVerifier))
	if stmt == s.me {
		return nil
	}
	if err := s.exec(ctx, "metrics_episodes", stmt); err != nil {
		return err
	}
	s.me = stmt
	return nil
}

// MetricsLakeCounts counts verdicts, episodes and ground-truth rows
// (sql/metrics_lake_counts.sql).
func (s *Session) MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error) {
	const name = "metrics_lake_counts"
	var c queries.LakeCounts
	err := s.each(ctx, name, bind(sqlFile(name)), 1, func(r row) {
		c.Verdicts, c.Episodes, c.GroundTruth = r.int(0), r.int(1), r.int(2)
	})
	return c, err
}

// MetricsCells returns the per-task cells of the judge metrics, as
// queries.Session.MetricsCells does, running the very same statement
// (queries/sql/metrics_cells.sql is plain SQL that both engines accept) and
// folding its rows the same way (queries.FoldCellGroups).
func (s *Session) MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error) {
	const name = "metrics_cells"
	gt := cmp.Or(opts.GT, queries.GTVerifier)
	var groups []queries.CellGroup
	stmt := bind(queries.Statement(name), opts.ByAgent, opts.ByCategory, opts.Threshold, gt)
	err := s.each(ctx, name, stmt, -1, func(r row) {
		g := queries.CellGroup{Judge: r.str(0), Condition: r.str(1), Cell: int64(r.int(2))}
		g.TaskID, g.HasTask = r.nullStr(3)
		g.Source, g.HasSource = r.nullStr(4)
		g.GTPass, g.HasGT = r.nullBool(5)
		g.Agent, g.Category = r.str(6), r.str(7)
		g.NValid, g.Episodes, g.MajSuccess, g.MajFailure = r.int(8), r.int(9), r.int(10), r.int(11)
		g.Unscored, g.Runs, g.ParseErrors, g.Agree = r.int(12), r.int(13), r.int(14), r.int(15)
		g.PairsAgree, g.Success, g.Failure, g.Uncertain = r.int(16), r.int(17), r.int(18), r.int(19)
		groups = append(groups, g)
	})
	if err != nil {
		return nil, err
	}
	return queries.FoldCellGroups(groups), nil
}

// MetricsPairs returns the paired majority verdicts of a and b
// (sql/metrics_pairs.sql), as queries.Session.MetricsPairs does.
func (s *Session) MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error) {
	const name = "metrics_pairs"
	if err := s.defineMetricEpisodes(ctx, threshold, gt); err != nil {
		return nil, err
	}
	var out []queries.MetricPair
	err := s.each(ctx, name, bind(sqlFile(name), a.Judge, a.Condition, b.Judge, b.Condition, source), -1, func(r row) {
		p := queries.MetricPair{TaskID: r.str(0), AMajority: r.str(2), BMajority: r.str(3), N: r.int(4)}
		p.GTPass, _ = r.nullBool(1)
		out = append(out, p)
	})
	return out, err
}

// MetricsJudgeConditions lists the judge × condition pairs with verdicts
// (sql/metrics_judge_conditions.sql).
func (s *Session) MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error) {
	const name = "metrics_judge_conditions"
	if err := s.defineMetricEpisodes(ctx, threshold, queries.GTAny); err != nil {
		return nil, err
	}
	var out []queries.JudgeConditionCount
	err := s.each(ctx, name, bind(sqlFile(name)), -1, func(r row) {
		out = append(out, queries.JudgeConditionCount{
			JudgeCondition: queries.JudgeCondition{Judge: r.str(0), Condition: r.str(1)},
			Episodes:       r.int(2), Unscored: r.int(3)})
	})
	return out, err
}

// HumanAgreement returns the human pass/fail judgments grouped by their
// per-episode counts and the number of annotators
// (sql/human_agreement.sql).
func (s *Session) HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error) {
	const name = "human_agreement"
	var (
		out        []queries.HumanCount
		annotators int
	)
	err := s.each(ctx, name, bind(sqlFile(name)), -1, func(r row) {
		out = append(out, queries.HumanCount{Pass: r.int(0), Fail: r.int(1), N: r.int(2)})
		annotators = r.int(3)
	})
	return out, annotators, err
}

// row reads typed values from a result row; a value of an unexpected type
// is recorded and reported by scan (a Spark version whose SQL returns
// other types fails clearly instead of giving wrong numbers).
type row struct {
	r   types.Row
	err *error
}

// each runs statement name (stmt) and calls fn for each row of its result,
// checking the row count when want >= 0.
func (s *Session) each(ctx context.Context, name, stmt string, want int, fn func(row)) error {
	rows, err := s.run(ctx, "spark query", name, stmt)
	if err != nil {
		return err
	}
	if want >= 0 && len(rows) != want {
		return &EngineError{Engine: s.remote, Statement: name, Err: fmt.Errorf("want %d rows, got %d", want, len(rows))}
	}
	var bad error
	for _, r := range rows {
		fn(row{r: r, err: &bad})
		if bad != nil {
			return &EngineError{Engine: s.remote, Statement: name, Err: bad}
		}
	}
	return nil
}

func (r row) fail(i int, want string) {
	if *r.err == nil {
		*r.err = fmt.Errorf("column %d (%s): want %s, got %T", i+1, r.r.FieldNames()[i], want, r.r.At(i))
	}
}

// nullable returns column i as a T, false for NULL and for a value of
// another type (which is recorded).
func nullable[T any](r row, i int, want string) (T, bool) {
	switch v := r.r.At(i).(type) {
	case T:
		return v, true
	case nil:
	default:
		r.fail(i, want)
	}
	var zero T
	return zero, false
}

// notNull returns column i as a T, recording a NULL or another type.
func notNull[T any](r row, i int, want string) T {
	v, ok := nullable[T](r, i, want)
	if !ok {
		r.fail(i, want)
	}
	return v
}

func (r row) str(i int) string                { return notNull[string](r, i, "a string") }
func (r row) nullStr(i int) (string, bool)    { return nullable[string](r, i, "a string") }
func (r row) nullBool(i int) (bool, bool)     { return nullable[bool](r, i, "a boolean") }
func (r row) bool(i int) bool                 { return notNull[bool](r, i, "a boolean") }
func (r row) float(i int) float64             { return notNull[float64](r, i, "a double") }
func (r row) nullFloat(i int) (float64, bool) { return nullable[float64](r, i, "a double") }

func (r row) int(i int) int {
	v, ok := r.nullInt(i)
	if !ok {
		r.fail(i, "an integer")
	}
	return int(v)
}

// ptr returns a nullable string column as a pointer (nil for NULL).
func (r row) ptr(i int) *string { return opt(r.nullStr(i)) }

// opt returns &v when ok, else nil.
func opt[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

func (r row) nullInt(i int) (int64, bool) {
	switch v := r.r.At(i).(type) {
	case nil:
		return 0, false
	case int64:
		return v, true
	case int32:
		return int64(v), true
	}
	r.fail(i, "an integer")
	return 0, false
}
