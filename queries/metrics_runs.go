package queries

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// runsState records the session's materialised metric_runs table
// (MaterializeRuns): its threshold.
type runsState struct {
	done bool
	thr  *float64
}

// MaterializeRuns counts the runs of every (judge, condition, episode) once
// into the session's table metric_runs (sql/metrics_runs.sql), scoring
// score-only runs at threshold (nil: unscored). From then on MetricsCells
// and MetricsPairs at that threshold, MetricsJudgeConditions and
// MetricsScores at any, read that table instead of grouping the verdicts
// again: the same statements, whose per_episode part becomes a scan of it.
// For a caller that runs several of them on one snapshot (the report).
func (s *Session) MaterializeRuns(ctx context.Context, threshold *float64) error {
	if err := s.Exec(ctx, sqlFile("metrics_runs"), nullable(threshold)); err != nil {
		return fmt.Errorf("count runs per episode: %w", err)
	}
	s.runs = runsState{done: true, thr: copyThreshold(threshold)}
	return nil
}

func copyThreshold(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Markers of the per_episode part of a metrics statement.
const (
	perEpisodeBegin = "-- per_episode:begin\n"
	perEpisodeEnd   = "-- per_episode:end\n"
)

// runsStatement returns the embedded statement name, reading per_episode
// from metric_runs when the session materialised it and the statement's
// per-episode counts do not depend on the threshold (anyThreshold) or were
// counted at threshold.
func (s *Session) runsStatement(name string, threshold *float64, anyThreshold bool) string {
	q := sqlFile(name)
	if !s.runs.done || !anyThreshold && !sameThreshold(s.runs.thr, threshold) {
		return q
	}
	i, j := strings.Index(q, perEpisodeBegin), strings.Index(q, perEpisodeEnd)
	if i < 0 || j < i {
		panic(fmt.Sprintf("sql/%s.sql: no per_episode markers", name))
	}
	head, part, tail := q[:i], q[i:j], q[j+len(perEpisodeEnd):]
	// A parameter only the replaced part used must still appear: DuckDB
	// numbers the values by the parameters it sees.
	var keep []string
	for _, p := range slices.Compact(slices.Sorted(slices.Values(param.FindAllString(comment.ReplaceAllString(part, ""), -1)))) {
		if !slices.Contains(param.FindAllString(comment.ReplaceAllString(head+tail, ""), -1), p) {
			keep = append(keep, "CAST("+p+" AS VARCHAR) IS NULL")
		}
	}
	where := ""
	if len(keep) > 0 {
		where = " WHERE " + strings.Join(keep, " OR ") + " OR true"
	}
	return head + "    SELECT * FROM metric_runs" + where + "\n" + tail
}

var (
	param   = regexp.MustCompile(`\$[0-9]+`)
	comment = regexp.MustCompile(`--[^\n]*`)
)

func sameThreshold(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
