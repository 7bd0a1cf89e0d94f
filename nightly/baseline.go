package nightly

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/report"
	"github.com/trustlake/trustlake/stats"
)

// CompareBaseline compares doc, built from src, with the baseline at path:
// a lake (the same report computed there, and paired tests where the
// episodes are the same) or a previous report (its folder or report.json:
// two-sample tests). A path that cannot be read gives a *PathError, a
// file that is not a report a *NotReportError.
func CompareBaseline(ctx context.Context, src *lake.Lake, doc *report.Document, path string, opts Options) error {
	opts = opts.withDefaults()
	if _, err := os.Stat(path); err != nil {
		return &PathError{Err: err}
	}
	var (
		base   *report.Document
		paired = map[string]report.Paired{}
		ref    = &report.BaselineRef{Path: path}
	)
	bl, err := lake.OpenExisting(path, lake.Options{Logger: opts.Logger})
	switch {
	case err == nil:
		bopts := opts
		bopts.LakeDir, bopts.Checklists = path, nil
		if base, err = Build(ctx, bl, bopts); err != nil {
			return fmt.Errorf("baseline %s: %w", path, err)
		}
		if paired, err = pairLakes(ctx, opts, src, bl); err != nil {
			return fmt.Errorf("baseline %s: %w", path, err)
		}
		ref.Kind = "lake"
	case errors.Is(err, lake.ErrNotALake):
		if base, err = ReadReport(path); err != nil {
			return err
		}
		ref.Kind = "report"
	default:
		return err
	}
	ref.ManifestVersion, ref.ManifestSHA256 = base.Provenance.ManifestVersion, base.Provenance.ManifestSHA256
	baseAlpha := opts.Alpha
	if a := base.Summary.Alpha; a.Defined() && a > 0 && a < 1 {
		baseAlpha = float64(a)
	}
	if err := report.Diff(doc, base, paired, report.DiffOptions{Alpha: opts.Alpha, BaseAlpha: baseAlpha, Adjust: opts.Adjust, Q: opts.Q}); err != nil {
		return err
	}
	doc.Provenance.Baseline = ref
	return nil
}

// PathError is a baseline path that cannot be read (missing, or a folder
// that is neither a lake nor holds a report.json).
type PathError struct{ Err error }

func (e *PathError) Error() string { return e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// NotReportError is a baseline file that is not a report.json this
// trustlake reads.
type NotReportError struct{ Msg string }

func (e *NotReportError) Error() string { return e.Msg }

// ReadReport reads a previous report.json (or the one in a folder).
func ReadReport(path string) (*report.Document, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "report.json")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &PathError{Err: err}
	}
	var doc report.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, &NotReportError{Msg: fmt.Sprintf("%s: not a trustlake report.json: %v", path, err)}
	}
	if doc.Format < 1 || doc.Format > report.FormatVersion {
		return nil, &NotReportError{Msg: fmt.Sprintf("%s: format: report format %d, this trustlake reads 1..%d", path, doc.Format, report.FormatVersion)}
	}
	return &doc, nil
}

// episodeVerdict is one episode's majority verdict of one judge × condition.
type episodeVerdict struct {
	task     string
	gtPass   bool
	majority string
}

// majorities reads every (judge, condition, episode) majority of source
// with ground truth and a task.
func majorities(ctx context.Context, opts Options, src *lake.Lake) (map[queries.JudgeCondition]map[string]episodeVerdict, error) {
	s, err := queries.Open(ctx, src, queries.Options{Logger: opts.Logger, Threads: opts.Threads})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	rows, err := s.MetricEpisodeRows(ctx, opts.Threshold)
	if err != nil {
		return nil, err
	}
	out := map[queries.JudgeCondition]map[string]episodeVerdict{}
	for _, r := range rows {
		if !r.HasGT || r.TaskID == "" || r.Source != opts.Source {
			continue
		}
		jc := queries.JudgeCondition{Judge: r.Judge, Condition: r.Condition}
		if out[jc] == nil {
			out[jc] = map[string]episodeVerdict{}
		}
		out[jc][r.EpisodeID] = episodeVerdict{task: r.TaskID, gtPass: r.GTPass, majority: r.Majority}
	}
	return out, nil
}

// pairLakes pairs each judge × condition of the two lakes whose episodes
// (with ground truth, of the headline source) are the same on both sides
// with the same ground truth; others are left to two-sample tests.
func pairLakes(ctx context.Context, opts Options, cur, base *lake.Lake) (map[string]report.Paired, error) {
	a, err := majorities(ctx, opts, cur)
	if err != nil {
		return nil, err
	}
	b, err := majorities(ctx, opts, base)
	if err != nil {
		return nil, err
	}
	out := map[string]report.Paired{}
	for _, jc := range slices.SortedFunc(maps.Keys(a), func(x, y queries.JudgeCondition) int {
		return strings.Compare(x.String(), y.String())
	}) {
		ea, eb := a[jc], b[jc]
		if len(ea) == 0 || len(ea) != len(eb) {
			continue
		}
		type key struct {
			task   string
			gt     bool
			aM, bM string
		}
		counts := map[key]int{}
		same := true
		for id, va := range ea {
			vb, ok := eb[id]
			if !ok || vb.gtPass != va.gtPass || vb.task != va.task {
				same = false
				break
			}
			counts[key{va.task, va.gtPass, va.majority, vb.majority}]++
		}
		if !same {
			continue
		}
		var pairs []queries.MetricPair
		for k, n := range counts {
			pairs = append(pairs, queries.MetricPair{TaskID: k.task, GTPass: k.gt, AMajority: k.aM, BMajority: k.bM, N: n})
		}
		slices.SortFunc(pairs, func(x, y queries.MetricPair) int {
			return strings.Compare(fmt.Sprint(x.TaskID, x.GTPass, x.AMajority, x.BMajority), fmt.Sprint(y.TaskID, y.GTPass, y.AMajority, y.BMajority))
		})
		neg, pos, err := metrics.ComparePairs(pairs, metrics.CompareOptions{Source: opts.Source, UncertainPolicy: opts.UncertainPolicy,
			Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed})
		if err != nil {
			return nil, err
		}
		sn, sp, sa := pairedSides(pairs, opts.UncertainPolicy)
		sn.CI, sp.CI = interval(neg.Diff.Boot), interval(pos.Diff.Boot)
		out[jc.String()] = report.Paired{Neg: sn, Pos: sp, All: sa}
	}
	return out, nil
}

// pairedSides fills the discordant counts and the cluster-robust SE of the
// paired acceptance-rate difference (now − baseline) on the GT failures,
// the GT passes and all episodes: per task the sum of the episodes'
// differences (accepted now − accepted then), stats.MeanCR1 over tasks.
// A majority uncertain counts as the uncertain policy says; under exclude
// the pair is left out, as metrics.ComparePairs does.
func pairedSides(pairs []queries.MetricPair, policy string) (neg, pos, all report.PairedSide) {
	var ids []string
	for _, p := range pairs {
		ids = append(ids, p.TaskID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	type sums struct{ d, n []float64 }
	mk := func() sums { return sums{make([]float64, len(ids)), make([]float64, len(ids))} }
	sn, sp, sa := mk(), mk(), mk()
	for _, p := range pairs {
		a, okA := metrics.Accepts(p.AMajority, policy)
		b, okB := metrics.Accepts(p.BMajority, policy)
		if !okA || !okB {
			continue
		}
		side, s := &neg, sn
		if p.GTPass {
			side, s = &pos, sp
		}
		i, _ := slices.BinarySearch(ids, p.TaskID)
		d := 0.0
		switch {
		case a && !b:
			side.B += p.N
			all.B += p.N
			d = 1
		case b && !a:
			side.C += p.N
			all.C += p.N
			d = -1
		}
		side.N += p.N
		all.N += p.N
		for _, x := range []sums{s, sa} {
			x.d[i] += d * float64(p.N)
			x.n[i] += float64(p.N)
		}
	}
	neg.SE, pos.SE, all.SE = stats.MeanCR1(sn.d, sn.n).SE, stats.MeanCR1(sp.d, sp.n).SE, stats.MeanCR1(sa.d, sa.n).SE
	all.CI = report.NoInterval()
	return neg, pos, all
}
