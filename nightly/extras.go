package nightly

import (
	"cmp"
	"context"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/report"
)

// extras are the calibration and agreement sections, computed beside the
// judge sections and put into the document after them (fill).
type extras struct {
	cal      []metrics.CalibrationRow
	agr      metrics.Agreement
	warnings []string
}

// extraSections computes the calibration and agreement sections (metrics.
// Calibrations and metrics.Agreements over the headline source), side by
// side: one's statements run while the other computes its bootstrap.
// Errors are returned in the order of a sequential run.
func extraSections(ctx context.Context, opts Options, s *engine) (extras, error) {
	eo := metrics.ExtraOptions{Source: opts.Source, Threshold: opts.Threshold, Alpha: opts.Alpha,
		Resamples: opts.Resamples, Seed: opts.Seed, Bins: opts.Bins}
	var (
		x              extras
		wg             sync.WaitGroup
		calErr, agrErr error
	)
	wg.Go(func() { x.agr, agrErr = metrics.Agreements(ctx, s, eo) })
	x.cal, x.warnings, calErr = metrics.Calibrations(ctx, s, eo)
	wg.Wait()
	return x, cmp.Or(calErr, agrErr)
}

// fill puts the sections into doc, their warnings after the document's.
func (x extras) fill(doc *report.Document) {
	bin := func(b metrics.ReliabilityBin) report.ReliabilityBin {
		return report.ReliabilityBin{Lo: report.Num(b.Lo), Hi: report.Num(b.Hi), N: b.N,
			MeanP: report.Num(float64(b.MeanP)), FracY: report.Num(float64(b.FracY))}
	}
	doc.Calibration = convert(x.cal, func(c metrics.CalibrationRow) report.CalibrationRow {
		return report.CalibrationRow{Judge: c.Judge, Condition: c.Condition, Forecast: c.Forecast, N: c.N, Tasks: c.Tasks, Bins: c.Bins,
			Brier: estimate(c.Brier, 0, 0), ECEWidth: estimate(c.ECEWidth, 0, 0), ECEMass: estimate(c.ECEMass, 0, 0),
			Reliability: convert(c.Reliability, bin)}
	})
	alpha := func(r metrics.AlphaRow) report.AlphaRow {
		return report.AlphaRow{Judge: r.Judge, Condition: r.Condition, Units: r.Units, Tasks: r.Tasks, Coders: r.Coders, Alpha: estimate(r.Alpha, 0, 0)}
	}
	a := &report.Agreement{Runs: convert(x.agr.Runs, alpha), Judges: convert(x.agr.Judges, alpha)}
	if x.agr.Human != nil {
		h := alpha(*x.agr.Human)
		a.Human = &h
	}
	doc.Agreement = a
	doc.Warnings = append(doc.Warnings, x.warnings...)
}

// The statements of the agreement and calibration sections, each with the
// session to itself.

func (e *engine) AgreementRuns(ctx context.Context, threshold *float64, source string) ([]queries.AgreementCell, error) {
	return onKept(ctx, e, func() ([]queries.AgreementCell, error) {
		return e.sess.AgreementRuns(ctx, threshold, source)
	})
}

func (e *engine) AgreementJudges(ctx context.Context, threshold *float64, source string) ([]queries.AgreementCell, error) {
	return onKept(ctx, e, func() ([]queries.AgreementCell, error) {
		return e.sess.AgreementJudges(ctx, threshold, source)
	})
}

// AgreementHuman answers without a statement when Prepare found no human
// reference (sql/human_agreement.sql groups the view human_reference,
// which sql/agreement_human.sql reads): the lake has no human judgments.
func (e *engine) AgreementHuman(ctx context.Context) ([]queries.AgreementCell, error) {
	if e.prepared && len(e.human) == 0 {
		return nil, nil
	}
	return locked(ctx, e, (*queries.Session).AgreementHuman)
}

// CalibrationForecasts runs on the second session when there is one
// (openSecond), beside the other sections' statements.
func (e *engine) CalibrationForecasts(ctx context.Context, source string) ([]queries.Forecasts, error) {
	select {
	case <-e.secondReady:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if e.second != nil {
		e.secondMu.Lock()
		defer e.secondMu.Unlock()
		return e.second.CalibrationForecasts(ctx, source)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.CalibrationForecasts(ctx, source)
}
