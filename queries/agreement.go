package queries

import "context"

// AgreementCell is the Krippendorff coincidence sums of one task (and
// judge × condition, or condition): O holds o_ss, o_ff, o_uu, o_sf, o_su,
// o_fu over the values success (pass), failure (fail) and uncertain.
type AgreementCell struct {
	Judge, Condition, TaskID string
	Units                    int
	Judges                   int // AgreementJudges: the most judges an episode of the task had
	O                        [6]float64
}

// AgreementRuns returns the coincidences between each judge × condition's
// runs per task (sql/agreement_runs.sql) over the episodes of source.
func (s *Session) AgreementRuns(ctx context.Context, threshold *float64, source string) ([]AgreementCell, error) {
	if err := s.defineMetricEpisodes(ctx, threshold, GTVerifier); err != nil {
		return nil, err
	}
	return s.agreementCells(ctx, "agreement_runs", func(c *AgreementCell) []any {
		return []any{&c.Judge, &c.Condition, &c.TaskID, &c.Units, &c.O[0], &c.O[1], &c.O[2], &c.O[3], &c.O[4], &c.O[5]}
	}, nullable(threshold), source)
}

// AgreementJudges returns the coincidences between judges' majority
// verdicts per condition and task (sql/agreement_judges.sql).
func (s *Session) AgreementJudges(ctx context.Context, threshold *float64, source string) ([]AgreementCell, error) {
	if err := s.defineMetricEpisodes(ctx, threshold, GTVerifier); err != nil {
		return nil, err
	}
	return s.agreementCells(ctx, "agreement_judges", func(c *AgreementCell) []any {
		return []any{&c.Condition, &c.TaskID, &c.Units, &c.O[0], &c.O[1], &c.O[2], &c.O[3], &c.O[4], &c.O[5], &c.Judges}
	}, nullable(threshold), source)
}

// AgreementHuman returns the coincidences between human annotators' pass
// and fail judgments per task (sql/agreement_human.sql; O[0] pass-pass,
// O[1] fail-fail, O[3] pass-fail).
func (s *Session) AgreementHuman(ctx context.Context) ([]AgreementCell, error) {
	return s.agreementCells(ctx, "agreement_human", func(c *AgreementCell) []any {
		return []any{&c.TaskID, &c.Units, &c.O[0], &c.O[1], &c.O[3]}
	})
}

func (s *Session) agreementCells(ctx context.Context, name string, dest func(*AgreementCell) []any, args ...any) ([]AgreementCell, error) {
	return collect(ctx, s, "query "+name, name, dest, sqlFile(name), args...)
}

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
