package queries

import (
	"context"
	"fmt"
)

// HumanCount says that N episodes have Pass human judgments of pass and
// Fail of fail.
type HumanCount struct {
	Pass, Fail, N int
}

// HumanAgreement returns the human pass/fail judgments of the lake grouped
// by their per-episode counts (sql/human_agreement.sql), and the number of
// distinct annotators.
func (s *Session) HumanAgreement(ctx context.Context) ([]HumanCount, int, error) {
	rows, err := s.Query(ctx, sqlFile("human_agreement"))
	if err != nil {
		return nil, 0, fmt.Errorf("query human agreement: %w", err)
	}
	defer rows.Close()
	var (
		out        []HumanCount
		annotators int
	)
	for rows.Next() {
		var c HumanCount
		if err := rows.Scan(&c.Pass, &c.Fail, &c.N, &annotators); err != nil {
			return nil, 0, fmt.Errorf("scan human agreement: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("query human agreement: %w", err)
	}
	return out, annotators, nil
}
