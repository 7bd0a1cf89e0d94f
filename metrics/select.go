package metrics

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// selectCells applies the judge and condition filters, drops score-only
// judges without a threshold and episodes without task or ground truth
// (with warnings), and fills the report's judge and condition lists. It
// returns the kept cells in a new slice.
func selectCells(cells []queries.MetricCell, opts Options, rep *Report) ([]queries.MetricCell, error) {
	type jcStat struct{ unscored, noTask, noGT int }
	stat := map[queries.JudgeCondition]*jcStat{}
	var all []queries.JudgeCondition
	for i := range cells {
		c := &cells[i]
		jc := queries.JudgeCondition{Judge: c.Judge, Condition: c.Condition}
		s := stat[jc]
		if s == nil {
			s = &jcStat{}
			stat[jc] = s
			all = append(all, jc)
		}
		s.unscored += c.Unscored
		switch {
		case !c.HasTask:
			s.noTask += c.Episodes
		case !c.HasGT:
			s.noGT += c.Episodes
		}
	}
	var judges, conds []string
	for _, jc := range all {
		judges = append(judges, jc.Judge)
		conds = append(conds, jc.Condition)
	}
	judges, conds = distinct(judges), distinct(conds)
	if err := cmp.Or(known(opts.Judges, judges, "judge %q is not in the lake; judges: %s"),
		known(opts.Conditions, conds, "condition %q is not in the lake; conditions: %s")); err != nil {
		return nil, err
	}
	keepJC := func(jc queries.JudgeCondition) bool {
		return (len(opts.Judges) == 0 || slices.Contains(opts.Judges, jc.Judge)) &&
			(len(opts.Conditions) == 0 || slices.Contains(opts.Conditions, jc.Condition))
	}
	jcs := slices.DeleteFunc(all, func(jc queries.JudgeCondition) bool { return !keepJC(jc) })
	if len(jcs) == 0 {
		return nil, fmt.Errorf("%w: no verdicts of judges [%s] under conditions [%s]; the lake has judges %s and conditions %s",
			ErrUnknown, strings.Join(opts.Judges, ", "), strings.Join(opts.Conditions, ", "), strings.Join(judges, ", "), strings.Join(conds, ", "))
	}
	slices.SortFunc(jcs, func(a, b queries.JudgeCondition) int {
		return cmp.Or(cmp.Compare(a.Judge, b.Judge), cmp.Compare(a.Condition, b.Condition))
	})
	skipped := map[queries.JudgeCondition]bool{}
	var scoreOnly, noTask, noGT []string
	for _, jc := range jcs {
		s := stat[jc]
		if s.unscored > 0 {
			skipped[jc] = true
			scoreOnly = append(scoreOnly, jc.String())
		}
		if s.noTask > 0 {
			noTask = append(noTask, fmt.Sprintf("%s: %d", jc, s.noTask))
		}
		if s.noGT > 0 {
			noGT = append(noGT, fmt.Sprintf("%s: %d", jc, s.noGT))
		}
	}
	if len(scoreOnly) > 0 {
		if len(scoreOnly) == len(jcs) {
			return nil, fmt.Errorf("%w: %s carry scores without verdicts (reward models); give --threshold T or use trustlake threshold",
				ErrScoreOnly, strings.Join(scoreOnly, ", "))
		}
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("skipped score-only judge × condition (no --threshold): %s", strings.Join(scoreOnly, ", ")))
	}
	if len(noTask) > 0 {
		rep.Warnings = append(rep.Warnings, "excluded judged episodes missing from the episodes table (no task): "+strings.Join(noTask, "; "))
	}
	if len(noGT) > 0 {
		rep.Warnings = append(rep.Warnings, "excluded judged episodes without ground truth: "+strings.Join(noGT, "; "))
	}
	sources := map[string]int{}
	out := make([]queries.MetricCell, 0, len(cells))
	for _, c := range cells {
		jc := queries.JudgeCondition{Judge: c.Judge, Condition: c.Condition}
		if !keepJC(jc) || skipped[jc] || !c.HasTask || !c.HasGT {
			continue
		}
		out = append(out, c)
		sources[c.Source] += c.Episodes
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: none of the judged episodes has ground truth (ingest gt.json with trustlake ingest episodes, or trustlake ingest sql ground_truth ...)", ErrNoGroundTruth)
	}
	if sources[opts.Source] == 0 {
		var have []string
		for _, s := range schema.Sources {
			if sources[s] > 0 {
				have = append(have, fmt.Sprintf("%s (%d judged episodes)", s, sources[s]))
			}
		}
		return nil, fmt.Errorf("%w: no %s episode with ground truth was judged; sources present: %s (choose one with --source)",
			ErrNoGroundTruth, opts.Source, strings.Join(have, ", "))
	}
	var kept, keptConds []string
	for _, jc := range jcs {
		if !skipped[jc] {
			kept, keptConds = append(kept, jc.Judge), append(keptConds, jc.Condition)
		}
	}
	rep.Params.Judges, rep.Params.Conditions = distinct(kept), distinct(keptConds)
	return out, nil
}

// known fails with ErrUnknown on the first name of asked that have lacks:
// msg formats that name and the list of have.
func known(asked, have []string, msg string) error {
	for _, a := range asked {
		if !slices.Contains(have, a) {
			return fmt.Errorf("%w: "+msg, ErrUnknown, a, strings.Join(have, ", "))
		}
	}
	return nil
}
