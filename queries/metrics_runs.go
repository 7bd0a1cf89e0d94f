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
// into the session's table metric_runs, scoring score-only runs at
// threshold (nil: unscored): the per_episode part of sql/metrics_cells.sql
// (over verdict_runs, as the metrics read it). From then on MetricsCells
// and MetricsPairs (metric_episodes) at that threshold read that table
// instead of grouping the runs again, and MetricsJudgeConditions at any
// threshold: the same statements, whose per_episode part becomes a scan of
// it. For a caller that runs several of them on one snapshot (the report).
// When the snapshot's run counts already hold one row per episode
// (runsPerEpisode) there is no aggregation to share: each statement takes
// the rows as they are, and copying them into a table first only costs.
func (s *Session) MaterializeRuns(ctx context.Context, threshold *float64) error {
	if s.runsPerEpisode {
		return nil
	}
	part, err := sqlPart("metrics_cells", "per_episode")
	if err != nil {
		return err
	}
	// The cells statement's threshold is $3; here it is the only value.
	stmt := "CREATE OR REPLACE TEMP TABLE metric_runs AS\n" + strings.ReplaceAll(part, "$3", "$1")
	if err := s.Exec(ctx, stmt, nullable(threshold)); err != nil {
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

// sqlPart returns the text of the embedded statement name between its
// marker lines "-- part:begin" and "-- part:end".
func sqlPart(name, part string) (string, error) {
	q := sqlFile(name)
	begin, end := "-- "+part+":begin\n", "-- "+part+":end\n"
	i, j := strings.Index(q, begin), strings.Index(q, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("sql/%s.sql: no %s markers", name, part)
	}
	return q[i+len(begin) : j], nil
}

// runsStatement returns the embedded statement name, reading per_episode
// from metric_runs when the session materialised it at threshold, or at
// any threshold when the statement reads only columns that do not depend
// on it (anyThreshold).
func (s *Session) runsStatement(name string, threshold *float64, anyThreshold bool) string {
	q := sqlFile(name)
	if !s.runs.done || !anyThreshold && !sameThreshold(s.runs.thr, threshold) {
		if s.runsPerEpisode {
			return perEpisodeRows(q)
		}
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

// perEpisodeRows rewrites a statement whose per_episode part sums the
// rows of verdict_runs per (judge, condition, episode) into one that takes
// each row as it is: for a snapshot whose run counts hold exactly one row
// per episode (lake.Snapshot.RunCountsPerEpisode), where each sum is over
// one row. The sums are written CAST(sum(expr) AS BIGINT) and grouped by
// one GROUP BY line; a statement in another shape is returned unchanged.
func perEpisodeRows(q string) string {
	i, j := strings.Index(q, perEpisodeBegin), strings.Index(q, perEpisodeEnd)
	if i < 0 || j < i {
		return q
	}
	part := q[i:j]
	const group = "    GROUP BY judge, condition, episode_id\n"
	if !strings.Contains(part, "FROM verdict_runs\n") || strings.Count(part, group) != 1 ||
		strings.Count(part, "sum(") != strings.Count(part, "CAST(sum(") {
		return q
	}
	part = strings.ReplaceAll(strings.Replace(part, group, "", 1), "CAST(sum(", "CAST((")
	return q[:i] + part + q[j:]
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
