package judge

import (
	"fmt"
	"io"
)

// WriteSummaryText prints a run's summary (or its plan, for a dry run).
func WriteSummaryText(w io.Writer, name string, s Summary) {
	if s.DryRun {
		fmt.Fprintf(w, "plan for judge %s (prompt sha256 %s), nothing called:\n", name, s.PromptSHA256[:12])
		fmt.Fprintf(w, "  %-22s %-10s %8s %8s %8s %10s\n", "condition", "pack", "episodes", "calls", "images", "MB")
		for _, p := range s.Plan {
			fmt.Fprintf(w, "  %-22s %-10s %8d %8d %8d %10.1f\n", p.Condition, p.Pack, p.Episodes, p.Calls, p.Images, float64(p.Bytes)/1e6)
		}
		fmt.Fprintf(w, "  %d calls, %d already in the lake\n", s.Planned, s.Skipped)
		return
	}
	fmt.Fprintf(w, "judge %s: %d verdicts committed in %d batches (%d already in the lake), %d calls, %d retries, %d failed, %d parse errors, tokens %d in / %d out, %.1fs\n",
		name, s.Verdicts, s.Commits, s.Skipped, s.Calls, s.Retries, s.Failed, s.ParseErrors, s.InputTokens, s.OutputTokens, s.Elapsed.Seconds())
}
