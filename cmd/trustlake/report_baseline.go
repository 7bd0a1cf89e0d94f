package main

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
)

// applyBaseline compares doc with the baseline: a lake (the same report
// computed there, and paired tests where the episodes are the same) or a
// previous report (its folder or report.json: two-sample tests).
func applyBaseline(ctx context.Context, opts reportOptions, src *lake.Lake, doc *report.Document) error {
	path := opts.baseline
	if _, err := os.Stat(path); err != nil {
		return usageHint("trustlake report --baseline PREVIOUS_REPORT_DIR (or its report.json, or a lake DIR)", "--baseline: %v", err)
	}
	var (
		base   *report.Document
		paired = map[string]report.Paired{}
		ref    = &report.BaselineRef{Path: path}
	)
	bl, err := lake.OpenExisting(path, lake.Options{Logger: opts.logger()})
	switch {
	case err == nil:
		bopts := opts
		bopts.lakeDir, bopts.checklists = path, nil
		if base, err = buildReport(ctx, bopts, bl); err != nil {
			return fmt.Errorf("baseline %s: %w", path, err)
		}
		if paired, err = pairLakes(ctx, opts, src, bl); err != nil {
			return fmt.Errorf("baseline %s: %w", path, err)
		}
		ref.Kind = "lake"
	case errors.Is(err, lake.ErrNotALake):
		if base, err = readReportJSON(path); err != nil {
			return err
		}
		ref.Kind = "report"
	default:
		return err
	}
	ref.ManifestVersion, ref.ManifestSHA256 = base.Provenance.ManifestVersion, base.Provenance.ManifestSHA256
	report.Diff(doc, base, paired, opts.alpha)
	doc.Provenance.Baseline = ref
	return nil
}

// readReportJSON reads a previous report.json (or the one in a folder).
func readReportJSON(path string) (*report.Document, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "report.json")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usageHint("--baseline takes a report folder, its report.json, or a lake folder", "--baseline: %v", err)
	}
	var doc report.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, &rejectedError{summary: fmt.Sprintf("%s: not a trustlake report.json: %v", path, err)}
	}
	if doc.Format < 1 || doc.Format > report.FormatVersion {
		return nil, &rejectedError{summary: fmt.Sprintf("%s: format: report format %d, this trustlake reads 1..%d", path, doc.Format, report.FormatVersion)}
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
func majorities(ctx context.Context, opts reportOptions, src *lake.Lake) (map[queries.JudgeCondition]map[string]episodeVerdict, error) {
	s, err := queries.Open(ctx, src, queries.Options{Logger: opts.logger(), Threads: opts.threads})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	rows, err := s.MetricEpisodeRows(ctx, opts.threshold)
	if err != nil {
		return nil, err
	}
	out := map[queries.JudgeCondition]map[string]episodeVerdict{}
	for _, r := range rows {
		if !r.HasGT || r.TaskID == "" || r.Source != opts.source {
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
func pairLakes(ctx context.Context, opts reportOptions, cur, base *lake.Lake) (map[string]report.Paired, error) {
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
		neg, pos, err := metrics.ComparePairs(pairs, metrics.CompareOptions{Source: opts.source, UncertainPolicy: opts.policy,
			Alpha: opts.alpha, Resamples: opts.resamples, Seed: opts.seed})
		if err != nil {
			return nil, metricsError(err)
		}
		out[jc.String()] = report.Paired{
			Neg: report.PairedSide{B: neg.B, C: neg.C, N: neg.NPairs, CI: report.Interval{report.Num(neg.Diff.Boot[0]), report.Num(neg.Diff.Boot[1])}},
			Pos: report.PairedSide{B: pos.B, C: pos.C, N: pos.NPairs, CI: report.Interval{report.Num(pos.Diff.Boot[0]), report.Num(pos.Diff.Boot[1])}},
		}
	}
	return out, nil
}
