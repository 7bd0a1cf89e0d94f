package report

import (
	"slices"
	"strings"
)

// CorrectedRates is the corrected success rates section: per judge ×
// condition the judge-only, ground-truth-only and prediction-powered
// success rates (PPI with λ = 1, PPI++ with λ tuned), the figures of
// `trustlake rate --json` on the same lake and options. Rows pool every
// agent (agent "(all)"); ByAgent holds one row per agent when the lake
// has more than one (`trustlake rate --by agent --json`), else it is
// empty. Assumption states what the estimates rest on; Warnings hold the
// mix warnings (labelled and unlabelled episodes differ in task or agent
// mix) and the judge × conditions left out.
type CorrectedRates struct {
	GT         string    `json:"gt"`
	Prediction string    `json:"prediction"`
	Assumption string    `json:"assumption"`
	MixAlarmP  Num       `json:"mix_alarm_p"`
	Rows       []RateRow `json:"rows"`
	ByAgent    []RateRow `json:"by_agent"`
	Warnings   []string  `json:"warnings"`
}

// RateRow is the corrected success rate of one agent (or "(all)") under
// one judge and condition; its fields are those of a `trustlake rate
// --json` row.
type RateRow struct {
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
	EffectiveLabels Num          `json:"effective_labels"`
	TaskMix         MixTest      `json:"task_mix"`
	AgentMix        *MixTest     `json:"agent_mix,omitempty"`
}

// RateEstimate is one success rate: its value, the normal interval (CI,
// ppi-python's ppi_mean_ci or classical_mean_ci) and the task-cluster
// bootstrap interval; Lambda is PPI++'s tuned λ (ppi_tuned only).
type RateEstimate struct {
	Value  Num      `json:"value"`
	CI     Interval `json:"ci"`
	Boot   Interval `json:"boot"`
	Lambda *Num     `json:"lambda,omitempty"`
}

// MixTest compares the task (or agent) mix of labelled and unlabelled
// episodes: total-variation distance and the χ² test of homogeneity.
type MixTest struct {
	TV        Num `json:"tv"`
	ChiSquare Num `json:"chi2"`
	DF        int `json:"df"`
	P         Num `json:"p"`
}

// rateCell renders value [normal] {bootstrap}.
func rateCell(e RateEstimate) string {
	return num(e.Value) + ivString(e.CI, "[", "]") + ivString(e.Boot, "{", "}")
}

// lambdaString renders PPI++'s λ, "–" when undefined.
func lambdaString(e RateEstimate) string {
	if e.Lambda == nil {
		return "–"
	}
	return num(*e.Lambda)
}

// labelsWorth renders the effective number of labels, "–" when undefined
// or unbounded.
func labelsWorth(n Num) string {
	if !n.Defined() || n > 1e9 {
		return "–"
	}
	return itoa(int64(float64(n) + 0.5))
}

// writeRatesMarkdown writes the corrected success rates section.
func writeRatesMarkdown(ew *errWriter, d *Document) {
	c := d.CorrectedRates
	if c == nil {
		return
	}
	p := ew.printf
	p("## Corrected success rates\n\n")
	p("Judge verdicts on every judged episode, ground truth (%s) on those that have it; value [normal interval] {task-cluster bootstrap}. "+
		"PPI corrects the judge-only rate with the ground truth (λ = 1); PPI++ tunes λ to minimise the variance. "+
		"Labels worth: how many ground-truth labels alone would give PPI++'s standard error.\n\n", md(c.GT))
	p("- prediction: %s\n- assumption: %s\n\n", md(c.Prediction), md(c.Assumption))
	if rows := slices.Concat(c.Rows, c.ByAgent); len(rows) > 0 {
		p("| agent | judge | condition | labelled | unlabelled | judge-only | ground truth only | PPI (λ=1) | PPI++ | λ | labels worth |\n")
		p("|---|---|---|--:|--:|---|---|---|---|--:|--:|\n")
		for _, r := range rows {
			ew.row(r.Agent, r.Judge, r.Condition, itoa(r.NLabelled), itoa(r.NUnlabelled), rateCell(r.JudgeOnly), rateCell(r.GTOnly),
				rateCell(r.PPI), rateCell(r.PPITuned), lambdaString(r.PPITuned), labelsWorth(r.EffectiveLabels))
		}
		p("\n")
	}
	for _, w := range c.Warnings {
		p("- warning: %s\n", md(w))
	}
	if len(c.Warnings) > 0 {
		p("\n")
	}
}

// passHatK renders pass^1..pass^K with their bootstrap intervals.
func passHatK(d D4) string {
	var parts []string
	for k, v := range d.PassHatK {
		s := "pass^" + itoa(k+1) + " " + num(v)
		if k < len(d.PassHatKBoot) {
			s += ivString(d.PassHatKBoot[k], "{", "}")
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, "; ")
}
