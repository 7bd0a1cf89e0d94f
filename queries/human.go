package queries

import "context"

// HumanCount says that N episodes have Pass human judgments of pass and
// Fail of fail.
type HumanCount struct {
	Pass, Fail, N int
}

// HumanAgreement returns the human pass/fail judgments of the lake grouped
// by their per-episode counts (sql/human_agreement.sql), and the number of
// distinct annotators.
func (s *Session) HumanAgreement(ctx context.Context) ([]HumanCount, int, error) {
	var annotators int
	out, err := collect(ctx, s, "query human agreement", "human agreement",
		func(c *HumanCount) []any { return []any{&c.Pass, &c.Fail, &c.N, &annotators} }, sqlFile("human_agreement"))
	if err != nil {
		return nil, 0, err
	}
	return out, annotators, nil
}
