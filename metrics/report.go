package metrics

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/trustlake/trustlake/stats"
)

// Metric is one estimate with its intervals. NaN marks an undefined value
// or an unavailable bound; JSON shows it as null.
type Metric struct {
	Value float64
	// Wilson is the Wilson score interval; HasWilson is false for
	// statistics that are not proportions (inflation, κ), whose JSON then
	// has no "wilson" key.
	Wilson    [2]float64
	HasWilson bool
	// Boot is the task-clustered percentile bootstrap interval.
	Boot [2]float64
}

// undefined returns a metric with every number NaN.
func undefined(hasWilson bool) Metric {
	nan := math.NaN()
	return Metric{Value: nan, Wilson: [2]float64{nan, nan}, HasWilson: hasWilson, Boot: [2]float64{nan, nan}}
}

// bootMetric returns a metric without a Wilson interval: a bootstrap
// interval's estimate and bounds (NaN when not OK).
func bootMetric(iv stats.Interval) Metric {
	m := undefined(false)
	m.Value, m.Boot = iv.Estimate, bounds(iv)
	return m
}

// bounds returns a bootstrap interval's bounds (NaN when not OK).
func bounds(iv stats.Interval) [2]float64 { return [2]float64{iv.Lo, iv.Hi} }

// jsonNum is a float that marshals NaN and ±Inf as null.
type jsonNum float64

func (f jsonNum) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(x)
}

func (f *jsonNum) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonNum(math.NaN())
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = jsonNum(x)
	return nil
}

// pair renders an interval as [lo, hi], or nil (null) when either bound is
// undefined.
func pair(iv [2]float64) []jsonNum {
	if math.IsNaN(iv[0]) || math.IsNaN(iv[1]) {
		return nil
	}
	return []jsonNum{jsonNum(iv[0]), jsonNum(iv[1])}
}

type metricJSON struct {
	Value  jsonNum    `json:"value"`
	Wilson *[]jsonNum `json:"wilson,omitempty"`
	Boot   []jsonNum  `json:"boot"`
}

// MarshalJSON writes {"value": x, "wilson": [lo, hi], "boot": [lo, hi]};
// "wilson" is absent when it does not apply, and null values stand for
// undefined ones.
func (m Metric) MarshalJSON() ([]byte, error) {
	out := metricJSON{Value: jsonNum(m.Value), Boot: pair(m.Boot)}
	if m.HasWilson {
		w := pair(m.Wilson)
		out.Wilson = &w
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *Metric) UnmarshalJSON(b []byte) error {
	var in struct {
		Value  jsonNum         `json:"value"`
		Wilson json.RawMessage `json:"wilson"`
		Boot   []jsonNum       `json:"boot"`
	}
	in.Value = jsonNum(math.NaN())
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("decode metric: %w", err)
	}
	*m = undefined(in.Wilson != nil)
	m.Value = float64(in.Value)
	if len(in.Boot) == 2 {
		m.Boot = [2]float64{float64(in.Boot[0]), float64(in.Boot[1])}
	}
	if in.Wilson != nil {
		var w []jsonNum
		if err := json.Unmarshal(in.Wilson, &w); err != nil {
			return fmt.Errorf("decode metric wilson: %w", err)
		}
		if len(w) == 2 {
			m.Wilson = [2]float64{float64(w[0]), float64(w[1])}
		}
	}
	return nil
}

// Row holds the metrics of one judge under one condition in one stratum.
type Row struct {
	Judge     string `json:"judge"`
	Condition string `json:"condition"`
	// Stratum is {} for the overall row, else one key (category, source,
	// hardness, task or agent) and its value, e.g. {"category":
	// "F-UNCOMMITTED"}.
	Stratum map[string]string `json:"stratum"`

	NEpisodes int `json:"n_episodes"` // episodes with ground truth that the judge judged
	NPos      int `json:"n_pos"`      // GT passes counted (after the uncertain policy)
	NNeg      int `json:"n_neg"`      // GT failures counted (after the uncertain policy)
	TP        int `json:"tp"`
	FP        int `json:"fp"`
	TN        int `json:"tn"`
	FN        int `json:"fn"`
	// NUncertain counts episodes whose majority verdict is uncertain; with
	// policy exclude they are not in NPos and NNeg.
	NUncertain  int `json:"n_uncertain"`
	NRuns       int `json:"n_runs"`
	NParseError int `json:"n_parse_error"`
	NTasks      int `json:"n_tasks"` // tasks with episodes in this row (bootstrap clusters)
	// NEligible counts episodes with at least two valid runs; NAgree those
	// of them whose valid runs all agree (self_consistency = NAgree/NEligible).
	NEligible int `json:"n_eligible"`
	NAgree    int `json:"n_agree"`

	FPR              Metric `json:"fpr"`
	FDR              Metric `json:"fdr"`
	TPR              Metric `json:"tpr"`
	JudgeSuccessRate Metric `json:"judge_success_rate"`
	GTSuccessRate    Metric `json:"gt_success_rate"`
	Inflation        Metric `json:"inflation"`
	Kappa            Metric `json:"kappa"`
	SelfConsistency  Metric `json:"self_consistency"`
	FleissKappa      Metric `json:"fleiss_kappa"`
	UncertainRate    Metric `json:"uncertain_rate"`
	ParseErrorRate   Metric `json:"parse_error_rate"`
	// Accuracy is the agreement with the reference, (TP+TN)/n: the headline
	// figure of judge-vs-human studies, beside Kappa.
	Accuracy Metric `json:"accuracy"`
	// VsRest tests a stratum row's FPR against the rest of its judge ×
	// condition (Options.Adjust set; absent on overall rows and strata
	// without GT failures on both sides).
	VsRest *RestTest `json:"vs_rest,omitempty"`
}

// StratumKey returns the stratum's dimension and value, or "", "" for the
// overall row.
func (r Row) StratumKey() (dim, value string) {
	for k, v := range r.Stratum {
		return k, v
	}
	return "", ""
}

// Params records the options a report was computed with.
type Params struct {
	Judges          []string `json:"judges"`     // judges reported
	Conditions      []string `json:"conditions"` // conditions reported
	By              []string `json:"by"`
	Source          string   `json:"source"`
	UncertainPolicy string   `json:"uncertain_policy"`
	Alpha           float64  `json:"alpha"`
	Bootstrap       int      `json:"bootstrap"`
	Seed            uint64   `json:"seed"`
	Threshold       *float64 `json:"threshold"`
	Tasks           int      `json:"tasks"` // bootstrap clusters (tasks) in the report
	GT              string   `json:"gt"`    // the reference: verifier, human or any
	// Adjust and Q are the strata tests' family control and level (only
	// with --adjust).
	Adjust string  `json:"adjust,omitempty"`
	Q      float64 `json:"q,omitempty"`
}

// Reference describes the human pass/fail judgments of the lake (ground
// truth with source human), whatever Params.GT: a human reference is the
// majority of an episode's judgments, and a tie gives none.
type Reference struct {
	Episodes       int `json:"episodes"`        // episodes with human judgments
	Annotators     int `json:"annotators"`      // distinct annotators
	Judgments      int `json:"judgments"`       // pass/fail judgments
	MultiAnnotated int `json:"multi_annotated"` // episodes judged by two or more annotators
	Unanimous      int `json:"unanimous"`       // of those, all judgments agree
	Ties           int `json:"ties"`            // episodes whose judgments tie: no human reference
	// FleissKappa is Fleiss' κ between annotators over the multi-annotated
	// episodes (null when fewer than one or all judgments agree).
	FleissKappa jsonNum `json:"fleiss_kappa"`
}

// Report is the result of Run: rows in a stable order (judge, condition,
// then the overall row and the strata in the order of Options.By).
type Report struct {
	Params    Params    `json:"params"`
	Reference Reference `json:"reference"`
	Rows      []Row     `json:"rows"`
	Warnings  []string  `json:"warnings"`
	// Agreement (Krippendorff's α) and Calibration (Brier, ECE) are
	// filled on request (metrics --agreement, --calibration; Agreements,
	// Calibrations) and absent otherwise.
	Agreement   *Agreement       `json:"agreement,omitempty"`
	Calibration []CalibrationRow `json:"calibration,omitempty"`
}
