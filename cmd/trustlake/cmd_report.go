package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/nightly"
	"github.com/trustlake/trustlake/render"
	"github.com/trustlake/trustlake/report"
	"github.com/trustlake/trustlake/trust"
)

// reportOptions are the flags of trustlake report.
type reportOptions struct {
	globalOptions
	nightly                nightly.Options
	gates                  []report.Gate
	out, baseline, viewURL string // --view-url: the HTML links its counts there
}

func reportCommand() *cli.Command {
	var flags []cli.Flag
	for _, f := range metricFlags() {
		switch f.Names()[0] {
		case "json":
		case "threads": // a core is left to the statistics beside the statements
			flags = append(flags, &cli.IntFlag{Name: "threads", Usage: "DuckDB threads (0: one per core but one)"})
		default:
			flags = append(flags, f)
		}
	}
	return &cli.Command{
		Name:      "report",
		Usage:     "nightly report: report.json, report.md and a self-contained report.html; baseline diff; gates",
		ArgsUsage: " ",
		Description: "Computes every section the lake has data for — judges against ground truth with\n" +
			"Wilson and task-bootstrap intervals, FPR by category, hardness and source, claim\n" +
			"sway, reward-model ROC and cross-fitted thresholds, the Trust Layer, verifier and\n" +
			"data health, provenance — and writes DIR/report.json, report.md and report.html\n" +
			"(inline SVG charts, no script, nothing fetched). The lake is only read.\n\n" +
			"--baseline takes a previous report (its DIR or report.json: unpaired tests from\n" +
			"both reports' task-cluster bootstrap intervals) or a lake DIR (the same episodes\n" +
			"are paired: z with the task-clustered SE of the paired difference). The tested\n" +
			"figures form one family: --adjust bh (default: Benjamini-Hochberg at --q), holm\n" +
			"(family-wise error at --q) or none; significant and regression use the adjusted p.\n\n" +
			"--fail-on EXPR (repeatable) is a gate over the report's figures, e.g.\n" +
			"  'fpr{judge=\"vlm:x\",condition=\"E2-lastk\"}.wilson_hi > 0.10'\n" +
			"  'trusted_rate.value < 0.2'   'regressions > 0'\n" +
			"Figures: " + strings.Join(report.FigureNames(), ", ") + ".\n" +
			"Fields: value (default), wilson_lo, wilson_hi, boot_lo, boot_hi, k, n, baseline,\n" +
			"delta, p, p_adjusted, significant, regression. A gate fails when any figure it selects\n" +
			"satisfies the comparison; --checklist JUDGE@COND fails when the checklist fails.\n" +
			"The files are written in every case; exit 4 says a gate failed.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the report into `DIR` (created; required)"},
			&cli.StringFlag{Name: "baseline", Usage: "compare with a previous report (`DIR` or report.json) or a lake DIR"},
			&cli.GenericFlag{Name: "fail-on", Value: &exprList{}, Usage: "gate `EXPR` over report.json's figures (repeatable)"},
			&cli.StringSliceFlag{Name: "checklist", Usage: "add the training-signal checklist of `JUDGE@COND`; fail when it fails (repeatable)"},
			&cli.StringFlag{Name: "title", Value: "trustlake report", Usage: "report title"},
			&cli.StringFlag{Name: "source", Value: "natural", Usage: "episode source of the headline rows"},
			&cli.Float64Flag{Name: "fpr-target", Value: 0.05, Usage: "reward models' cross-fitted threshold, and the checklists' FPR target"},
			&cli.IntFlag{Name: "folds", Value: 5, Usage: "cross-fitting folds (split by task) for reward models"},
			&cli.StringFlag{Name: "d2-unconfirmed", Value: trust.PolicyLenient, Usage: "Trust Layer D2 policy: lenient or strict"},
			&cli.IntFlag{Name: "repeats", Value: 5, Usage: "Trust Layer D4: at most `N` other trials per result"},
			adjustFlag(), qFlag(),
			&cli.IntFlag{Name: "bins", Value: 10, Usage: "calibration: `N` equal-width and N equal-mass bins"},
			&cli.StringFlag{Name: "view-url", Usage: "link the HTML's counts to a running `trustlake view` at `URL` (e.g. http://127.0.0.1:8080/)"},
		}, flags...),
		Action: cmdline.NoArgs("trustlake report --out DIR", func(c *cli.Context) error {
			if c.String("out") == "" {
				return usageHint("trustlake report --out DIR", "report: --out DIR is required")
			}
			mc, err := metricCommonOpts(c)
			if err != nil {
				return err
			}
			g := globals(c)
			no := nightly.Options{Title: c.String("title"), LakeDir: g.lakeDir, Version: version, Source: c.String("source"),
				UncertainPolicy: mc.policy, Alpha: mc.alpha, Resamples: mc.resamples, Seed: mc.seed, Threshold: mc.threshold,
				Threads: mc.threads, FPRTarget: c.Float64("fpr-target"), Folds: c.Int("folds"),
				D2Policy: c.String("d2-unconfirmed"), Repeats: c.Int("repeats"), Adjust: c.String("adjust"),
				Q: c.Float64("q"), Bins: c.Int("bins"), Logger: g.logger()}
			if no.Bins < 1 {
				return usageErrorf("--bins %d: must be positive", no.Bins)
			}
			if err := checkAdjust(no.Adjust, no.Q); err != nil {
				return err
			}
			no.Audit = func(ctx context.Context, src *lake.Lake) (trust.Report, error) {
				audit, err := trust.CheckOptions(trust.Options{D2Policy: no.D2Policy, Repeats: no.Repeats,
					Alpha: no.Alpha, Resamples: no.Resamples, Seed: no.Seed}, "")
				if err != nil {
					return trust.Report{}, err
				}
				rep, _, err := auditLake(ctx, src, trustOptions{globalOptions: g, audit: audit})
				return rep, err
			}
			opts := reportOptions{globalOptions: g, out: c.String("out"), baseline: c.String("baseline"),
				viewURL: c.String("view-url")}
			for _, e := range c.Generic("fail-on").(*exprList).exprs {
				g, err := report.ParseGate(e)
				if err != nil {
					return usageHint("trustlake report --help (lists the figures and fields)", "%v", err)
				}
				opts.gates = append(opts.gates, g)
			}
			for _, s := range c.StringSlice("checklist") {
				jc, err := parseJudgeCondition(s)
				if err != nil {
					return err
				}
				no.Checklists = append(no.Checklists, jc)
			}
			opts.nightly = no
			return runReport(c.Context, opts, c.App.Writer)
		}),
	}
}

func runReport(ctx context.Context, opts reportOptions, stdout io.Writer) error {
	src, err := opts.openLakeRead()
	if err != nil {
		return err
	}
	doc, err := nightly.Build(ctx, src, opts.nightly)
	if err != nil {
		return metricsError(err)
	}
	if opts.baseline != "" {
		if err := nightly.CompareBaseline(ctx, src, doc, opts.baseline, opts.nightly); err != nil {
			return baselineError(err)
		}
	}
	doc.ViewURL = opts.viewURL
	failed, err := report.ApplyGates(doc, opts.gates)
	var nf *report.ErrNoFigure
	if errors.As(err, &nf) {
		return usageHint("trustlake report --help (lists the figures); check the labels against report.json", "%v", err)
	}
	if err != nil {
		return err
	}
	if err := writeReport(opts.out, doc); err != nil {
		return err
	}
	html := filepath.Join(opts.out, "report.html")
	fmt.Fprintf(stdout, "%s\n", doc.Summary.Line)
	for _, g := range doc.Gates {
		state := "ok"
		if g.Failed {
			state = "FAILED: " + strings.Join(g.Fired, "; ")
		}
		fmt.Fprintf(stdout, "gate %s: %s\n", g.Expr, state)
	}
	fmt.Fprintf(stdout, "report: %s (also report.json, report.md)\n", html)
	printWarnings(opts.stderr, doc.Warnings)
	if len(failed) > 0 {
		return &summaryError{exitCheckFailed, fmt.Sprintf("report: %d gate(s) failed: %s",
			len(failed), strings.Join(failed, "; "))}
	}
	return nil
}

// baselineError maps the baseline's errors to exit codes: a path that is
// not a baseline is a usage error, a file that is not a report rejected
// input.
func baselineError(err error) error {
	var (
		pe *nightly.PathError
		ne *nightly.NotReportError
	)
	switch {
	case errors.As(err, &pe):
		return usageHint("trustlake report --baseline PREVIOUS_REPORT_DIR (or its report.json, or a lake DIR)", "--baseline: %v", pe.Err)
	case errors.As(err, &ne):
		return &summaryError{exitRejected, ne.Msg}
	}
	return metricsError(err)
}

// writeReport writes report.json, report.md and report.html into dir,
// each through a temporary file renamed into place.
func writeReport(dir string, doc *report.Document) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create report folder: %w", err)
	}
	// The three renderings read doc only: each on its own goroutine.
	var bufs [3]bytes.Buffer
	var wg sync.WaitGroup
	var errs [3]error
	wg.Go(func() {
		if err := render.JSON(&bufs[0], doc); err != nil {
			errs[0] = fmt.Errorf("encode report.json: %w", err)
		}
	})
	wg.Go(func() { errs[1] = report.WriteMarkdown(&bufs[1], doc) })
	wg.Go(func() { errs[2] = report.WriteHTML(&bufs[2], doc) })
	wg.Wait()
	if err := cmp.Or(errs[:]...); err != nil {
		return err
	}
	for i, name := range []string{"report.json", "report.md", "report.html"} {
		if err := writeFileAtomic(filepath.Join(dir, name), bufs[i].Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func writeFileAtomic(name string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// exprList collects a repeatable flag whose values may contain commas
// (a StringSliceFlag would split gate expressions at them).
type exprList struct{ exprs []string }

func (l *exprList) Set(v string) error {
	l.exprs = append(l.exprs, v)
	return nil
}

func (l *exprList) String() string { return strings.Join(l.exprs, " ") }
