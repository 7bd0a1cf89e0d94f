package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// WriteMarkdown writes the report as Markdown: the same sections and
// figures as the HTML, as tables.
func WriteMarkdown(w io.Writer, d *Document) error {
	ew := &errWriter{w: w}
	p := ew.printf
	p("# %s\n\n", d.Title)
	p("**%s**\n\n", d.Summary.Line)
	base := d.Provenance.Baseline != nil
	if len(d.Judges) > 0 {
		p("## Judges against ground truth\n\n")
		p("Majority of runs per episode, %s episodes; value [Wilson] {task-cluster bootstrap}.\n\n", d.Provenance.Params["source"])
		ew.head(base, "| judge | condition | n | neg | FPR | FDR | TPR | inflation | κ | self-consistency |", " FPR change |",
			"|---|---|--:|--:|---|---|---|---|---|---|")
		for _, r := range d.Judges {
			ew.changeRow(base, r.FPR, r.Judge, r.Condition, itoa(r.NEpisodes), itoa(r.NNeg), est(r.FPR), est(r.FDR),
				est(r.TPR), est(r.Inflation), est(r.Kappa), est(r.SelfConsistency))
		}
		p("\n")
	}
	if len(d.Strata) > 0 {
		p("## FPR by stratum\n\nEach dimension on its own; sources never mixed.\n\n")
		ew.head(base, "| judge | condition | by | stratum | neg | fp | FPR |", " change |", "|---|---|---|---|--:|--:|---|")
		for _, s := range d.Strata {
			ew.changeRow(base, s.FPR, s.Judge, s.Condition, s.By, s.Value, itoa(s.NNeg), itoa(s.FP), est(s.FPR))
		}
		p("\n")
	}
	if len(d.ClaimSway) > 0 {
		p("## Claim sway\n\nFPR with the agent's final message minus FPR without it, paired on the same GT failures.\n\n")
		p("| judge | pairs | b | c | McNemar p | FPR claim | FPR base | sway |\n|---|--:|--:|--:|--:|---|---|---|\n")
		for _, s := range d.ClaimSway {
			sig := ""
			if s.Significant {
				sig = " **significant**"
			}
			ew.row(s.Judge, itoa(s.NPairs), itoa(s.B), itoa(s.C), pString(s.McNemarP)+sig, est(s.FPRClaim), est(s.FPRBase), est(s.Sway))
		}
		p("\n")
	}
	if len(d.RewardModels) > 0 {
		p("## Reward models\n\nThreshold chosen by cross-fitting with folds split by task; rates on the held-out folds.\n\n")
		p("| judge | condition | FPR target | threshold | held-out FPR | held-out TPR | ROC AUC |\n|---|---|--:|--:|---|---|---|\n")
		for _, r := range d.RewardModels {
			ew.row(r.Judge, r.Condition, num(r.TargetFPR), num(r.Threshold), est(r.HeldOutFPR), est(r.HeldOutTPR), est(r.AUC))
		}
		p("\n")
	}
	writeRatesMarkdown(ew, d)
	writeCalibrationMarkdown(p, d)
	if t := d.Trust; t != nil {
		p("## Trust Layer\n\n")
		for _, n := range t.Notices {
			p("> Notice: %s\n\n", n)
		}
		p("Dimensions %s (infrastructure failures: %s). Scope: %s\n\n", strings.Join(t.Dimensions, ","), t.InfraPolicy, t.Scope)
		p("Recorded passes left after each dimension (strict conjunction; D2 policy %s):\n\n", t.D2Policy)
		var st []string
		for _, s := range t.Funnel {
			st = append(st, fmt.Sprintf("%s %d", s.Name, s.Passes))
		}
		p("%s\n\n", strings.Join(st, " → "))
		p("| benchmark | agent | results | recorded passes | −D1 | −D2 | −D3 | −D4 | trusted | trusted rate [Wilson] | varied | ρ |\n")
		p("|---|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|\n")
		agents := append(slices.Clone(t.Agents), t.Total)
		for _, a := range agents {
			ew.row(a.Benchmark, a.Agent, itoa(a.Results), itoa(a.RecordedPasses), itoa(a.RemovedD1), itoa(a.RemovedD2), itoa(a.RemovedD3),
				itoa(a.RemovedD4), itoa(a.Trusted), est(a.TrustedRate)+" "+chg(a.TrustedRate), itoa(a.D4.Varied), num(a.D4.Rho))
		}
		p("\n### D4 reliability\n\nTasks with two or more valid trials; varied rate and pass^k {task-cluster bootstrap}; pass^k on the tasks with at least K trials.\n\n")
		p("| benchmark | agent | tasks | varied rate | pass^k tasks | pass^k |\n|---|---|--:|---|--:|---|\n")
		for _, a := range agents {
			ew.row(a.Benchmark, a.Agent, itoa(a.D4.Tasks), num(a.D4.VariedRate)+ivString(a.D4.VariedRateBoot, "{", "}"), itoa(a.D4.PassKTasks), passHatK(a.D4))
		}
		p("\n")
	}
	writeHealthMarkdown(ew, d)
	if len(d.Checklists) > 0 {
		p("## Checklists: usable as a training signal\n\n")
		for _, c := range d.Checklists {
			p("### %s@%s: %s\n\n| item | status | figure | reason |\n|---|---|---|---|\n", md(c.Judge), md(c.Condition), passWord(c.Pass))
			for _, it := range c.Items {
				ew.row(it.Title, it.Status, it.Figure, it.Reason)
			}
			p("\n")
		}
	}
	if len(d.Gates) > 0 {
		p("## Gates\n\n| expression | result | fired by |\n|---|---|---|\n")
		for _, g := range d.Gates {
			ew.row(codeSpan(g.Expr), map[bool]string{true: "FAILED", false: "ok"}[g.Failed], strings.Join(g.Fired, "; "))
		}
		p("\n")
	}
	for _, w := range d.Warnings {
		p("- warning: %s\n", md(w))
	}
	pv := d.Provenance
	p("\n## Provenance\n\ntrustlake %s · lake manifest version %d, sha256 %s · seed %d · generated %s\n",
		pv.Version, pv.ManifestVersion, pv.ManifestSHA256, pv.Seed, pv.GeneratedAt.Format("2006-01-02 15:04:05Z07:00"))
	if b := pv.Baseline; b != nil {
		p("\nBaseline: %s (%s, manifest version %d)\n", b.Path, b.Kind, b.ManifestVersion)
	}
	return ew.err
}

func writeHealthMarkdown(ew *errWriter, d *Document) {
	p := ew.printf
	h := d.Health
	v := h.Verifiers
	p("## Verifier and data health\n\n")
	p("- verifiers behind the ground truth: %d, with pass and fail fixtures tested: %d; self-test runs %d, failures %d; nondeterministic verifiers %d\n",
		v.Verifiers, v.Tested, v.SelfTests, v.SelfTestFailures, v.Nondeterministic)
	p("- episodes: %d, without ground truth (verifier error, nondeterministic or never verified): %d\n", v.Episodes, v.WithoutGT)
	p("- lake files (present, manifest sizes; `trustlake lake check` re-hashes): %d files, %d problems%s\n", h.Lake.Files, len(h.Lake.Problems), map[bool]string{true: " (DAMAGED)", false: ""}[h.Lake.Damaged])
	for _, pr := range h.Lake.Problems {
		p("  - %s: %s: %s\n", md(pr.Path), pr.Kind, md(pr.Detail))
	}
	for _, r := range h.NeedsReview {
		p("- category needs review: %s (%d episodes)\n", md(r.Raw), r.Episodes)
	}
	p("\n")
}

func passWord(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

// mdCell escapes the characters that would break a Markdown table cell
// (one replacer for every cell: each builds its tables on first use). GFM
// honours \| inside code spans in a table too.
var mdCell = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")

// md escapes the characters that would break a Markdown table cell or a
// line (headings, list items).
func md(s string) string { return mdCell.Replace(s) }

// head writes a table's header and alignment lines, with the extra column
// when base.
func (e *errWriter) head(base bool, header, extra, align string) {
	if base {
		header, align = header+extra, align+"---|"
	}
	e.printf("%s\n%s\n", header, align)
}

// row writes one table row, every cell through md: no value, whatever its
// column, can shift the columns after it.
func (e *errWriter) row(cells ...string) {
	for i := range cells {
		cells[i] = md(cells[i])
	}
	e.printf("| %s |\n", strings.Join(cells, " | "))
}

// changeRow writes a row of the cells, with e's change as the last cell
// when base.
func (e *errWriter) changeRow(base bool, est Estimate, cells ...string) {
	if base {
		cells = append(cells, chg(est))
	}
	e.row(cells...)
}

func itoa[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

// codeSpan wraps s in a code span whose backtick fence is longer than any
// run of backticks inside s.
func codeSpan(s string) string {
	longest := 0
	for _, run := range strings.FieldsFunc(s, func(r rune) bool { return r != '`' }) {
		longest = max(longest, len(run))
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// writeCalibrationMarkdown writes the calibration and agreement sections.
func writeCalibrationMarkdown(p func(string, ...any), d *Document) {
	if len(d.Calibration) > 0 {
		p("## Calibration\n\nEach judge's probability of success (stated confidence, or a reward model's score) against ground truth; value {task-cluster bootstrap}.\n\n")
		p("| judge | condition | forecast | n | bins | Brier | ECE equal-width | ECE equal-mass |\n|---|---|---|--:|--:|---|---|---|\n")
		for _, c := range d.Calibration {
			p("| %s | %s | %s | %d | %d | %s | %s | %s |\n", md(c.Judge), c.Condition, c.Forecast, c.N, c.Bins, est(c.Brier), est(c.ECEWidth), est(c.ECEMass))
		}
		p("\n")
	}
	if a := d.Agreement; a != nil && (len(a.Runs) > 0 || len(a.Judges) > 0 || a.Human != nil) {
		p("## Agreement: Krippendorff's α\n\nNominal α, missing runs allowed; value {task-cluster bootstrap}.\n\n")
		p("| between | judge | condition | episodes | tasks | α |\n|---|---|---|--:|--:|---|\n")
		for _, r := range a.Runs {
			p("| runs | %s | %s | %d | %d | %s |\n", md(r.Judge), r.Condition, r.Units, r.Tasks, est(r.Alpha))
		}
		for _, r := range a.Judges {
			p("| %d judges |  | %s | %d | %d | %s |\n", r.Coders, r.Condition, r.Units, r.Tasks, est(r.Alpha))
		}
		if h := a.Human; h != nil {
			p("| human annotators |  |  | %d | %d | %s |\n", h.Units, h.Tasks, est(h.Alpha))
		}
		p("\n")
	}
}
