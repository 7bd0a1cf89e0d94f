package nightly

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/report"
)

// rateSection fills the corrected success rates through metrics.Rate, the
// entry point of trustlake rate, with the report's source, uncertain
// policy, threshold, level, resamples and seed: the rows pooling every
// agent, and one row per agent when the lake has more than one. A lake
// without judged episodes has no section (the judge metrics warn); one
// with score-only judges alone gets the section's warnings.
func rateSection(ctx context.Context, opts Options, e *engine, doc *report.Document) error {
	ro := metrics.RateOptions{Source: opts.Source, UncertainPolicy: opts.UncertainPolicy, Threshold: opts.Threshold,
		Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed, Stop: ctx.Done()}
	cells := &rateCells{e: e}
	pooled, err := metrics.Rate(ctx, cells, ro)
	switch {
	case errors.Is(err, metrics.ErrNoVerdicts):
		return nil
	case err != nil && !errors.Is(err, metrics.ErrScoreOnly):
		return err
	}
	sec := &report.CorrectedRates{GT: pooled.Options.GT, Prediction: pooled.Prediction, Assumption: metrics.RateAssumption,
		MixAlarmP: report.Num(metrics.MixAlarmP), Rows: convert(pooled.Rows, rateRow), ByAgent: []report.RateRow{},
		Warnings: append([]string{}, pooled.Warnings...)}
	if err == nil && cells.agents() > 1 {
		ro.ByAgent = true
		byAgent, err := metrics.Rate(ctx, cells, ro)
		if err != nil {
			return err
		}
		sec.ByAgent = convert(byAgent.Rows, rateRow)
		for _, w := range byAgent.Warnings {
			if !slices.Contains(sec.Warnings, w) {
				sec.Warnings = append(sec.Warnings, w)
			}
		}
	}
	doc.CorrectedRates = sec
	return nil
}

// rateCells reads the rate cells in one statement (taking the session in
// turn) and gives every metrics.Rate call its own copy: the pooled and the
// per-agent rows come from one statement.
type rateCells struct {
	e     *engine
	mu    sync.Mutex
	read  bool
	cells []queries.RateCell
}

var _ metrics.RateEngine = (*rateCells)(nil)

func (r *rateCells) RateCells(ctx context.Context, opts queries.RateCellOptions) ([]queries.RateCell, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.read {
		cells, err := onKept(ctx, r.e, func() ([]queries.RateCell, error) { return r.e.sess.RateCells(ctx, opts) })
		if err != nil {
			return nil, err
		}
		r.cells, r.read = cells, true
	}
	return slices.Clone(r.cells), nil
}

// agents counts the distinct agents of the cells read.
func (r *rateCells) agents() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	for _, c := range r.cells {
		seen[c.Agent] = true
	}
	return len(seen)
}

func rateRow(r metrics.RateRow) report.RateRow {
	row := report.RateRow{Agent: r.Agent, Judge: r.Judge, Condition: r.Condition, NLabelled: r.Labelled, NUnlabelled: r.Unlabelled,
		NLeftOut: r.LeftOut, NTasks: r.Tasks, JudgeOnly: rateEstimate(r.JudgeOnly), GTOnly: rateEstimate(r.GTOnly),
		PPI: rateEstimate(r.PPI), PPITuned: rateEstimate(r.PPITuned), EffectiveLabels: report.Num(r.EffectiveLabels),
		TaskMix: mixTest(r.TaskMix)}
	if r.AgentMix != nil {
		m := mixTest(*r.AgentMix)
		row.AgentMix = &m
	}
	return row
}

func rateEstimate(e metrics.RateEstimate) report.RateEstimate {
	out := report.RateEstimate{Value: report.Num(e.Value), CI: interval(e.CI), Boot: interval(e.Boot)}
	if e.HasLambda {
		l := report.Num(e.Lambda)
		out.Lambda = &l
	}
	return out
}

func mixTest(m metrics.MixTest) report.MixTest {
	return report.MixTest{TV: report.Num(m.TV), ChiSquare: report.Num(m.ChiSquare), DF: m.DF, P: report.Num(m.P)}
}
