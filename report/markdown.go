package report

import (
	"fmt"
	"io"
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
		p("| judge | condition | n | neg | FPR | FDR | TPR | inflation | κ | self-consistency |")
		if base {
			p(" FPR change |")
		}
		p("\n|---|---|--:|--:|---|---|---|---|---|---|")
		if base {
			p("---|")
		}
		p("\n")
		for _, r := range d.Judges {
			p("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |", md(r.Judge), r.Condition, r.NEpisodes, r.NNeg, est(r.FPR), est(r.FDR),
				est(r.TPR), est(r.Inflation), est(r.Kappa), est(r.SelfConsistency))
			if base {
				p(" %s |", chg(r.FPR))
			}
			p("\n")
		}
		p("\n")
	}
	if len(d.Strata) > 0 {
		p("## FPR by stratum\n\nEach dimension on its own; sources never mixed.\n\n| judge | condition | by | stratum | neg | fp | FPR |")
		if base {
			p(" change |")
		}
		p("\n|---|---|---|---|--:|--:|---|")
		if base {
			p("---|")
		}
		p("\n")
		for _, s := range d.Strata {
			p("| %s | %s | %s | %s | %d | %d | %s |", md(s.Judge), s.Condition, s.By, md(s.Value), s.NNeg, s.FP, est(s.FPR))
			if base {
				p(" %s |", chg(s.FPR))
			}
			p("\n")
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
			p("| %s | %d | %d | %d | %s%s | %s | %s | %s |\n", md(s.Judge), s.NPairs, s.B, s.C, pString(s.McNemarP), sig, est(s.FPRClaim), est(s.FPRBase), est(s.Sway))
		}
		p("\n")
	}
	if len(d.RewardModels) > 0 {
		p("## Reward models\n\nThreshold chosen by cross-fitting with folds split by task; rates on the held-out folds.\n\n")
		p("| judge | condition | FPR target | threshold | held-out FPR | held-out TPR | ROC AUC |\n|---|---|--:|--:|---|---|---|\n")
		for _, r := range d.RewardModels {
			p("| %s | %s | %s | %s | %s | %s | %s |\n", md(r.Judge), r.Condition, num(r.TargetFPR), num(r.Threshold), est(r.HeldOutFPR), est(r.HeldOutTPR), est(r.AUC))
		}
		p("\n")
	}
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
		for _, a := range append(append([]TrustAgent{}, t.Agents...), t.Total) {
			p("| %s | %s | %d | %d | %d | %d | %d | %d | %d | %s | %d | %s |\n", md(a.Benchmark), md(a.Agent), a.Results, a.RecordedPasses,
				a.RemovedD1, a.RemovedD2, a.RemovedD3, a.RemovedD4, a.Trusted, est(a.TrustedRate)+" "+chg(a.TrustedRate), a.D4.Varied, num(a.D4.Rho))
		}
		p("\n")
	}
	writeHealthMarkdown(ew, d)
	if len(d.Checklists) > 0 {
		p("## Checklists: usable as a training signal\n\n")
		for _, c := range d.Checklists {
			p("### %s@%s: %s\n\n| item | status | figure | reason |\n|---|---|---|---|\n", md(c.Judge), c.Condition, passWord(c.Pass))
			for _, it := range c.Items {
				p("| %s | %s | %s | %s |\n", md(it.Title), it.Status, md(it.Figure), md(it.Reason))
			}
			p("\n")
		}
	}
	if len(d.Gates) > 0 {
		p("## Gates\n\n| expression | result | fired by |\n|---|---|---|\n")
		for _, g := range d.Gates {
			p("| `%s` | %s | %s |\n", g.Expr, map[bool]string{true: "FAILED", false: "ok"}[g.Failed], md(strings.Join(g.Fired, "; ")))
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
// (one replacer for every cell: each builds its tables on first use).
var mdCell = strings.NewReplacer("|", `\|`, "\n", " ")

// md escapes the characters that would break a Markdown table cell.
func md(s string) string { return mdCell.Replace(s) }

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
