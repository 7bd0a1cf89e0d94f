package metrics

import (
	"cmp"
	"context"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// AgreementEngine reads the Krippendorff coincidences (queries.Session).
type AgreementEngine interface {
	AgreementRuns(ctx context.Context, threshold *float64, source string) ([]queries.AgreementCell, error)
	AgreementJudges(ctx context.Context, threshold *float64, source string) ([]queries.AgreementCell, error)
	AgreementHuman(ctx context.Context) ([]queries.AgreementCell, error)
}

var _ AgreementEngine = (*queries.Session)(nil)

// Agreement is nominal Krippendorff's α (values success, failure,
// uncertain; pass and fail for humans) between the runs of each judge ×
// condition, between the judges under each condition, and between human
// annotators, each with its task-cluster bootstrap interval. Missing values
// (parse errors, a judge without a valid run, an annotator who did not
// judge an episode) are allowed. Fleiss' κ stays in Row.FleissKappa and
// Reference.FleissKappa.
type Agreement struct {
	Runs   []AlphaRow `json:"runs"`
	Judges []AlphaRow `json:"judges"`
	Human  *AlphaRow  `json:"human"` // null without episodes judged by two or more annotators
}

// AlphaRow is one α: Units are the pairable units (episodes with two or
// more values), Tasks the bootstrap clusters, Coders the most judges one
// episode had (between judges only).
type AlphaRow struct {
	Judge     string `json:"judge,omitempty"`
	Condition string `json:"condition,omitempty"`
	Units     int    `json:"units"`
	Tasks     int    `json:"tasks"`
	Coders    int    `json:"coders,omitempty"`
	Alpha     Metric `json:"alpha"`
}

// ExtraOptions configure Agreements and Calibrations; zero values mean the
// defaults of Options.
type ExtraOptions struct {
	Source    string   // "" means natural
	Threshold *float64 // reward models count with a threshold only (agreement)
	Alpha     float64
	Resamples int
	Seed      uint64
	Bins      int // calibration bins; 0 means 10
}

func (o ExtraOptions) withDefaults() ExtraOptions {
	o.Source = cmp.Or(o.Source, schema.SourceNatural)
	o.Alpha = cmp.Or(o.Alpha, 0.05)
	o.Resamples = cmp.Or(o.Resamples, 2000)
	o.Seed = cmp.Or(o.Seed, DefaultSeed)
	o.Bins = cmp.Or(o.Bins, 10)
	return o
}

func (o ExtraOptions) boot() stats.BootstrapOptions {
	return stats.BootstrapOptions{Resamples: o.Resamples, Alpha: o.Alpha, Seed: o.Seed}
}

// Agreements computes Agreement over the episodes of opts.Source. Its
// three statements run first, the bootstraps after them: a caller that
// shares the engine gets it back before the statistics.
func Agreements(ctx context.Context, s AgreementEngine, opts ExtraOptions) (Agreement, error) {
	opts = opts.withDefaults()
	out := Agreement{Runs: []AlphaRow{}, Judges: []AlphaRow{}}
	runs, err := s.AgreementRuns(ctx, opts.Threshold, opts.Source)
	if err != nil {
		return out, err
	}
	judges, err := s.AgreementJudges(ctx, opts.Threshold, opts.Source)
	if err != nil {
		return out, err
	}
	human, err := s.AgreementHuman(ctx)
	if err != nil {
		return out, err
	}
	for _, g := range groupCells(runs, func(c queries.AgreementCell) [2]string { return [2]string{c.Judge, c.Condition} }) {
		row, err := alphaRow(g, opts)
		if err != nil {
			return out, err
		}
		row.Judge, row.Condition = g[0].Judge, g[0].Condition
		out.Runs = append(out.Runs, row)
	}
	for _, g := range groupCells(judges, func(c queries.AgreementCell) [2]string { return [2]string{"", c.Condition} }) {
		row, err := alphaRow(g, opts)
		if err != nil {
			return out, err
		}
		row.Condition = g[0].Condition
		for _, c := range g {
			row.Coders = max(row.Coders, c.Judges)
		}
		out.Judges = append(out.Judges, row)
	}
	if len(human) > 0 {
		row, err := alphaRow(human, opts)
		if err != nil {
			return out, err
		}
		out.Human = &row
	}
	return out, ctx.Err()
}

// groupCells splits cells (ordered by their key) into runs of one key.
func groupCells(cells []queries.AgreementCell, key func(queries.AgreementCell) [2]string) [][]queries.AgreementCell {
	var out [][]queries.AgreementCell
	for i, c := range cells {
		if i == 0 || key(c) != key(cells[i-1]) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], c)
	}
	return out
}

// alphaRow computes α of one group of per-task cells with its interval.
func alphaRow(cells []queries.AgreementCell, opts ExtraOptions) (AlphaRow, error) {
	ids := make([]string, len(cells))
	per := make([]stats.Coincidences, len(cells))
	row := AlphaRow{Tasks: len(cells)}
	for i, c := range cells {
		ids[i] = c.TaskID
		m := stats.NewCoincidences(3)
		// O holds o_ss, o_ff, o_uu, o_sf, o_su, o_fu: the symmetric matrix.
		m.O[0], m.O[4], m.O[8] = c.O[0], c.O[1], c.O[2]
		m.O[1], m.O[3] = c.O[3], c.O[3]
		m.O[2], m.O[6] = c.O[4], c.O[4]
		m.O[5], m.O[7] = c.O[5], c.O[5]
		m.Units = c.Units
		per[i] = m
		row.Units += c.Units
	}
	iv, err := stats.ClusterAlpha(ids, per, opts.boot())
	if err != nil {
		return row, err
	}
	row.Alpha = bootMetric(iv)
	return row, nil
}
