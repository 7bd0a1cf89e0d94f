package nightly

import (
	"slices"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/report"
	"github.com/trustlake/trustlake/stats"
)

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
