package tasks

import (
	"cmp"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/trustlake/trustlake/render"
)

// The readable (non --json) output of tasks check, verify and perturb.

// WriteSelfTestText prints one line per fixture and the count that failed.
func WriteSelfTestText(w io.Writer, res []FixtureResult) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tFIXTURE\tWANT\tGOT\tOK\tERROR")
	bad := 0
	for _, x := range res {
		got := "-"
		if x.Err == "" || x.Deterministic && x.GotPass != x.WantPass || x.GotCategory != "" {
			got = verdictText(x.GotPass, x.GotCategory)
		}
		if !x.OK {
			bad++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\n", x.TaskID, x.Fixture, verdictText(x.WantPass, x.WantCategory), got, x.OK, render.Clip(x.Err, 120))
	}
	tw.Flush()
	fmt.Fprintf(w, "%d fixture(s), %d failed\n", len(res), bad)
}

// WriteVerifyText prints one line per episode, the labelled count and how
// strong the determinism check of runs runs per episode is.
func WriteVerifyText(w io.Writer, res []VerifyResult, runs int) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EPISODE\tTASK\tSTATUS\tVERDICT\tERROR")
	labeled := 0
	for _, x := range res {
		verdict := "-"
		if x.Pass != nil {
			verdict = verdictText(*x.Pass, x.Category)
		}
		if x.Labeled() {
			labeled++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", x.EpisodeID, x.TaskID, x.Status, verdict, render.Clip(x.Err, 120))
	}
	tw.Flush()
	fmt.Fprintf(w, "%d episode(s): %d labelled, %d without a label\n", len(res), labeled, len(res)-labeled)
	fmt.Fprintf(w, "determinism: %d runs per episode; a coin-flip verifier goes unnoticed on one episode with probability %.3g, on n episodes with %.3g^n (--runs raises it)\n",
		runs, UnnoticedCoinFlip(runs), UnnoticedCoinFlip(runs))
}

// WritePerturbText prints one line per perturbation and the counts by status.
func WritePerturbText(w io.Writer, res []PerturbResult) {
	counts := map[string]int{}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PARENT\tPERTURBATION\tSTATUS\tCATEGORY\tEPISODE\tNOTE")
	for _, x := range res {
		counts[x.Status]++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cmp.Or(x.ParentID, "-"), cmp.Or(x.Perturbation, "-"),
			x.Status, cmp.Or(x.Category, "-"), cmp.Or(x.Dir, "-"), render.Clip(x.Err, 100))
	}
	tw.Flush()
	fmt.Fprintf(w, "caught %d, survived %d, skipped %d, errors %d\n", counts[PerturbCaught], counts[PerturbSurvived], counts[PerturbSkipped],
		counts[PerturbError]+counts[PerturbVerifierError]+counts[PerturbNondet])
}

func verdictText(pass bool, category string) string {
	if pass {
		return "pass"
	}
	if category == "" {
		return "fail"
	}
	return "fail " + category
}
