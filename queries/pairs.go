package queries

import (
	"context"
	"fmt"
)

// MetricsPairsJudges returns, for every judge, the rows of MetricsPairs
// with A the judge under condition a and B the same judge under condition
// b, in one statement (sql/metrics_pairs_judges.sql) instead of one per
// judge. A judge without such pairs has none.
func (s *Session) MetricsPairsJudges(ctx context.Context, a, b, source string, threshold *float64, gt string) (map[string][]MetricPair, error) {
	if err := s.defineMetricEpisodes(ctx, threshold, gt); err != nil {
		return nil, err
	}
	rows, err := s.Query(ctx, sqlFile("metrics_pairs_judges"), a, b, source, nullable(threshold), gtOrDefault(gt))
	if err != nil {
		return nil, fmt.Errorf("query pairs %s vs %s: %w", a, b, err)
	}
	defer rows.Close()
	out := map[string][]MetricPair{}
	for rows.Next() {
		var judge string
		var p MetricPair
		if err := rows.Scan(&judge, &p.TaskID, &p.GTPass, &p.AMajority, &p.BMajority, &p.N); err != nil {
			return nil, fmt.Errorf("scan pair: %w", err)
		}
		out[judge] = append(out[judge], p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query pairs %s vs %s: %w", a, b, err)
	}
	return out, nil
}
