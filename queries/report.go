package queries

import (
	"context"
	"fmt"
)

// Health is the verifier and data health of the lake
// (sql/report_health_verifiers.sql, sql/report_health_episodes.sql).
type Health struct {
	Verifiers        int // distinct verifiers behind the ground truth
	Tested           int // of those, with an ok pass and an ok fail fixture self-test
	SelfTests        int // recorded fixture runs
	SelfTestFailures int // fixture runs that missed their expected verdict
	Nondeterministic int // verifiers ever nondeterministic
	Episodes         int
	WithoutGT        int // episodes without ground truth
}

// ReportHealth returns the verifier and data health of the lake.
func (s *Session) ReportHealth(ctx context.Context) (Health, error) {
	var h Health
	err := s.conn.QueryRowContext(ctx, sqlFile("report_health_verifiers")).Scan(&h.Verifiers, &h.Tested, &h.SelfTests,
		&h.SelfTestFailures, &h.Nondeterministic)
	if err == nil {
		err = s.conn.QueryRowContext(ctx, sqlFile("report_health_episodes")).Scan(&h.Episodes, &h.WithoutGT)
	}
	if err != nil {
		return h, fmt.Errorf("query health: %w", err)
	}
	return h, nil
}

// ReviewCount counts GT failures whose category needs review, by raw
// category.
type ReviewCount struct {
	Raw      string
	Episodes int
}

// ReportNeedsReview returns the GT failures whose category needs human
// review, by raw category (sql/report_needs_review.sql).
func (s *Session) ReportNeedsReview(ctx context.Context) ([]ReviewCount, error) {
	return collect(ctx, s, "query needs review", "needs review",
		func(r *ReviewCount) []any { return []any{&r.Raw, &r.Episodes} }, sqlFile("report_needs_review"))
}
