package metrics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// NegativesPlan answers "how many ground-truth negatives for a Wilson
// half-width W at FPR P?".
type NegativesPlan struct {
	FPR       float64 `json:"fpr"`
	HalfWidth float64 `json:"half_width"`
	Alpha     float64 `json:"alpha"`
	Negatives int     `json:"negatives"`
}

// PlanNegatives returns the smallest number of negatives whose Wilson
// half-width at rate fpr and level 1−alpha (0 means 0.05) is at most
// halfWidth.
func PlanNegatives(fpr, halfWidth, alpha float64) (NegativesPlan, error) {
	alpha = cmp.Or(alpha, 0.05)
	n := stats.NegativesForHalfWidth(fpr, halfWidth, alpha)
	if n == 0 {
		return NegativesPlan{}, fmt.Errorf("%w: --fpr %v --half-width %v --alpha %v: need fpr in [0, 1], half-width > 0, alpha in (0, 1)",
			ErrBadOption, fpr, halfWidth, alpha)
	}
	return NegativesPlan{FPR: fpr, HalfWidth: halfWidth, Alpha: alpha, Negatives: n}, nil
}

// PowerOptions configure PlanPower.
type PowerOptions struct {
	FPRA, FPRB  float64 // the two judges' false-positive rates
	N           int     // ground-truth negatives both judge
	Discordance float64 // share of negatives on which they disagree; 0 means |FPRA−FPRB|
	Alpha       float64 // 0 means 0.05
	Sims        int     // 0 means 2000
	Seed        uint64  // 0 means DefaultSeed
	// Stop, when closed (ctx.Done()), ends the computation with
	// stats.ErrStopped; nil never stops.
	Stop <-chan struct{}
}

// PowerPlan is the power of the paired exact McNemar test.
type PowerPlan struct {
	FPRA        float64 `json:"fpr_a"`
	FPRB        float64 `json:"fpr_b"`
	N           int     `json:"n"`
	Discordance float64 `json:"discordance"`
	Alpha       float64 `json:"alpha"`
	Sims        int     `json:"sims"`
	Seed        uint64  `json:"seed"`
	Power       float64 `json:"power"`       // simulated
	ExactPower  float64 `json:"exact_power"` // what the simulation estimates
	// NFor80 is the smallest n (within 2^16) with exact power >= 0.8, or 0.
	NFor80 int `json:"n_for_80"`
}

// PlanPower estimates by simulation the power of the two-sided exact
// McNemar test to tell the two rates apart on N paired negatives
// (stats.PairedPower), and gives the exact value beside it.
func PlanPower(o PowerOptions) (PowerPlan, error) {
	o.Alpha, o.Sims, o.Seed = cmp.Or(o.Alpha, 0.05), cmp.Or(o.Sims, 2000), cmp.Or(o.Seed, DefaultSeed)
	p, err := stats.PairedPower(o.Stop, o.FPRA, o.FPRB, o.N, o.Discordance, o.Alpha, o.Sims, o.Seed)
	if err != nil {
		return PowerPlan{}, badOption(err)
	}
	exact, err := stats.PairedPowerExact(o.Stop, o.FPRA, o.FPRB, o.N, o.Discordance, o.Alpha)
	if err != nil {
		return PowerPlan{}, badOption(err)
	}
	disc := o.Discordance
	if disc == 0 {
		// |a − b| in binary floating point: 0.3 − 0.2 is 0.09999999999999998;
		// reported at 12 significant digits, as the user would write it.
		disc, _ = strconv.ParseFloat(strconv.FormatFloat(max(o.FPRA-o.FPRB, o.FPRB-o.FPRA), 'g', 12, 64), 64)
	}
	out := PowerPlan{FPRA: o.FPRA, FPRB: o.FPRB, N: o.N, Discordance: disc, Alpha: o.Alpha, Sims: o.Sims, Seed: o.Seed,
		Power: p, ExactPower: exact}
	out.NFor80 = nForPower(o, 0.8)
	select {
	case <-o.Stop:
		return PowerPlan{}, stats.ErrStopped
	default:
	}
	return out, nil
}

// badOption marks a planning function's error as ErrBadOption, unless it
// is stats.ErrStopped.
func badOption(err error) error {
	if errors.Is(err, stats.ErrStopped) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrBadOption, err)
}

// nForPower returns the smallest n with exact power >= target, by doubling
// then bisection (stats.SmallestN; power is close to monotone in n: the
// exact McNemar test's discreteness can make it dip slightly), or 0 beyond
// 2^16.
func nForPower(o PowerOptions, target float64) int {
	return stats.SmallestN(1<<16, func(n int) bool {
		p, err := stats.PairedPowerExact(o.Stop, o.FPRA, o.FPRB, n, o.Discordance, o.Alpha)
		return err == nil && p >= target
	})
}

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
	alpha = cmp.Or(alpha, 0.05)
	p, err := stats.PPILabelsForHalfWidth(a, halfWidth, alpha, episodes)
	if err != nil {
		return LabelsPlan{}, badOption(err)
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
