package queries

import (
	"context"
	"database/sql"
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
	out := map[string][]MetricPair{}
	err := s.eachRow(ctx, fmt.Sprintf("query pairs %s vs %s", a, b), func(rows *sql.Rows) error {
		var judge string
		var p MetricPair
		if err := rows.Scan(&judge, &p.TaskID, &p.GTPass, &p.AMajority, &p.BMajority, &p.N); err != nil {
			return fmt.Errorf("scan pair: %w", err)
		}
		out[judge] = append(out[judge], p)
		return nil
	}, sqlFile("metrics_pairs_judges"), a, b, source, nullable(threshold), gtOrDefault(gt))
	if err != nil {
		return nil, err
	}
	return out, nil
}
