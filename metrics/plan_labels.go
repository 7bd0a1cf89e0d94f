package metrics

import (
	"context"
	"fmt"
	"math"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// LabelsPlan answers "how many ground-truth labels for a corrected success
// rate with interval half-width W, given the judge's agreement?"
// (stats.PPILabelsForHalfWidth). A count of 0 (JSON null) is out of reach
// with the given episodes.
type LabelsPlan struct {
	Rate      float64 `json:"rate"` // ground-truth success rate
	TPR       float64 `json:"tpr"`
	FPR       float64 `json:"fpr"`
	HalfWidth float64 `json:"half_width"`
	Alpha     float64 `json:"alpha"`
	Episodes  int     `json:"episodes"` // judged episodes in all; 0 means unlimited
	Judge     string  `json:"judge,omitempty"`
	Condition string  `json:"condition,omitempty"`
	Rho       jsonNum `json:"rho"`
	Lambda    jsonNum `json:"lambda"` // PPI++'s λ at its label count
	Classical *int    `json:"labels_gt_only"`
	PPI       *int    `json:"labels_ppi"`
	Tuned     *int    `json:"labels_ppi_tuned"`
}

// PlanLabels returns the labels each estimator needs for an interval of
// half-width halfWidth at level 1−alpha (0 means 0.05) when the judge
// judges episodes episodes (0: unlimited).
func PlanLabels(a stats.PPIAgreement, halfWidth, alpha float64, episodes int) (LabelsPlan, error) {
	if alpha == 0 {
		alpha = 0.05
	}
	p, err := stats.PPILabelsForHalfWidth(a, halfWidth, alpha, episodes)
	if err != nil {
		return LabelsPlan{}, fmt.Errorf("%w: %v", ErrBadOption, err)
	}
	count := func(n int) *int {
		if n == 0 {
			return nil
		}
		return &n
	}
	return LabelsPlan{Rate: a.P, TPR: a.TPR, FPR: a.FPR, HalfWidth: halfWidth, Alpha: alpha, Episodes: episodes,
		Rho: jsonNum(p.Rho), Lambda: jsonNum(p.Lambda), Classical: count(p.Classical), PPI: count(p.PPI), Tuned: count(p.Tuned)}, nil
}

// MeasuredAgreement reads one judge × condition's agreement with the ground
// truth from the lake (its labelled episodes, predictions as in Rate with
// opts: the majority verdict): the ground-truth success rate, TPR and FPR,
// and the number of judged episodes (labelled and unlabelled).
func MeasuredAgreement(ctx context.Context, e RateEngine, judge, condition string, opts RateOptions) (stats.PPIAgreement, int, error) {
	opts.Judges, opts.Conditions, opts.ByAgent, opts.Score = []string{judge}, []string{condition}, false, false
	o, err := opts.withDefaults()
	if err != nil {
		return stats.PPIAgreement{}, 0, err
	}
	cells, err := e.RateCells(ctx, queries.RateCellOptions{Source: o.Source, GT: o.GT, UncertainPolicy: o.UncertainPolicy, Threshold: o.Threshold})
	if err != nil {
		return stats.PPIAgreement{}, 0, err
	}
	if cells, err = keepJudgeConditions(cells, o.Judges, o.Conditions); err != nil {
		return stats.PPIAgreement{}, 0, err
	}
	var s stats.PPISums
	for _, c := range cells {
		s.AddScaled(c.Sums, 1)
	}
	if s.N == 0 || s.Y == 0 || s.Y == s.N {
		return stats.PPIAgreement{}, 0, fmt.Errorf("%w: %s@%s: need labelled episodes with both passes and failures to measure TPR and FPR (%v labelled, %v passes)",
			ErrNoGroundTruth, judge, condition, s.N, s.Y)
	}
	a := stats.PPIAgreement{P: s.Y / s.N, TPR: s.YF / s.Y, FPR: (s.F - s.YF) / (s.N - s.Y)}
	if math.IsNaN(a.TPR + a.FPR) {
		return a, 0, fmt.Errorf("%w: %s@%s: no agreement to measure", ErrNoGroundTruth, judge, condition)
	}
	return a, int(s.N + s.NU), nil
}
