package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/stats"
)

// adjustFlag is --adjust: the family control of change and strata tests.
func adjustFlag() cli.Flag {
	return &cli.StringFlag{Name: "adjust", Value: stats.AdjustBH,
		Usage: "multiple testing: bh (Benjamini-Hochberg, false discovery rate), holm (family-wise error) or none (raw p)"}
}

// qFlag is --q: the level of the adjusted tests.
func qFlag() cli.Flag {
	return &cli.Float64Flag{Name: "q", Value: 0.05, Usage: "level of the adjusted tests: FDR under bh, family-wise error under holm, per test under none"}
}

func checkAdjust(method string, q float64) error {
	if !slices.Contains(stats.Adjustments, method) {
		return usageErrorf("--adjust %q: want one of %s", method, strings.Join(stats.Adjustments, ", "))
	}
	if !(q > 0 && q < 1) {
		return usageErrorf("--q %g: must lie in (0, 1)", q)
	}
	return nil
}
