package metrics

import (
	"encoding/json"
	"slices"
)

// rateEstimateJSON is {"value", "ci": [lo, hi], "boot": [lo, hi]} with
// "lambda" on ppi_tuned; null for undefined numbers and intervals.
type rateEstimateJSON struct {
	Value  jsonNum   `json:"value"`
	CI     []jsonNum `json:"ci"`
	Boot   []jsonNum `json:"boot"`
	Lambda *jsonNum  `json:"lambda,omitempty"`
}

// MarshalJSON writes {"value", "ci", "boot"} (and "lambda" for PPI++).
func (e RateEstimate) MarshalJSON() ([]byte, error) {
	out := rateEstimateJSON{Value: jsonNum(e.Value), CI: pair(e.CI), Boot: pair(e.Boot)}
	if e.HasLambda {
		out.Lambda = (*jsonNum)(&e.Lambda)
	}
	return json.Marshal(out)
}

// MarshalJSON writes {"tv", "chi2", "df", "p"}, null for undefined numbers.
func (m MixTest) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		TV        jsonNum `json:"tv"`
		ChiSquare jsonNum `json:"chi2"`
		DF        int     `json:"df"`
		P         jsonNum `json:"p"`
	}{jsonNum(m.TV), jsonNum(m.ChiSquare), m.DF, jsonNum(m.P)})
}

// MarshalJSON writes the documented row of trustlake rate --json.
func (r RateRow) MarshalJSON() ([]byte, error) {
	out := struct {
		Agent           string       `json:"agent"`
		Judge           string       `json:"judge"`
		Condition       string       `json:"condition"`
		NLabelled       int          `json:"n_labelled"`
		NUnlabelled     int          `json:"n_unlabelled"`
		NLeftOut        int          `json:"n_left_out"`
		NTasks          int          `json:"n_tasks"`
		JudgeOnly       RateEstimate `json:"judge_only"`
		GTOnly          RateEstimate `json:"gt_only"`
		PPI             RateEstimate `json:"ppi"`
		PPITuned        RateEstimate `json:"ppi_tuned"`
		EffectiveLabels jsonNum      `json:"effective_labels"`
		TaskMix         MixTest      `json:"task_mix"`
		AgentMix        *MixTest     `json:"agent_mix,omitempty"`
	}{r.Agent, r.Judge, r.Condition, r.Labelled, r.Unlabelled, r.LeftOut, r.Tasks,
		r.JudgeOnly, r.GTOnly, r.PPI, r.PPITuned, jsonNum(r.EffectiveLabels), r.TaskMix, r.AgentMix}
	return json.Marshal(out)
}

// rateParams are the "params" of trustlake rate --json.
type rateParams struct {
	Judges          []string `json:"judges"`
	Conditions      []string `json:"conditions"`
	By              []string `json:"by"`
	Source          string   `json:"source"`
	GT              string   `json:"gt"`
	UncertainPolicy string   `json:"uncertain_policy"`
	Prediction      string   `json:"prediction"` // verdict or score
	Threshold       *jsonNum `json:"threshold"`
	Lambda          string   `json:"lambda"`
	Alpha           float64  `json:"alpha"`
	Bootstrap       int      `json:"bootstrap"`
	Seed            uint64   `json:"seed"`
	MixAlarmP       float64  `json:"mix_alarm_p"`
}

// MarshalJSON writes {"params", "assumption", "prediction", "rows",
// "warnings"}.
func (r RateReport) MarshalJSON() ([]byte, error) {
	o := r.Options
	by := []string{}
	if o.ByAgent {
		by = append(by, ByAgent)
	}
	pred := "verdict"
	if o.Score {
		pred = "score"
	}
	return json.Marshal(struct {
		Params     rateParams `json:"params"`
		Assumption string     `json:"assumption"`
		Prediction string     `json:"prediction"`
		Rows       []RateRow  `json:"rows"`
		Warnings   []string   `json:"warnings"`
	}{
		Params: rateParams{nonNil(o.Judges), nonNil(o.Conditions), by, o.Source, o.GT, o.UncertainPolicy, pred,
			(*jsonNum)(o.Threshold), o.Lambda, o.Alpha, o.Resamples, o.Seed, MixAlarmP},
		Assumption: RateAssumption,
		Prediction: r.Prediction,
		Rows:       nonNil(r.Rows),
		Warnings:   nonNil(r.Warnings),
	})
}

// nonNil returns s, or an empty slice (JSON []) for nil.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// distinct returns the distinct values of s, sorted.
func distinct(s []string) []string { return slices.Compact(slices.Sorted(slices.Values(s))) }
