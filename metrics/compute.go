package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// rowKey identifies a row: a judge, a condition and a stratum (dim "" for
// the overall row).
type rowKey struct {
	judge, condition, dim, value string
}

// rowAcc accumulates a row's tallies per task: tasks (indices into the
// report's sorted task ids) ascending, tallies[k] that of tasks[k].
type rowAcc struct {
	key     rowKey
	total   tally
	tasks   []int
	tallies []tally
}

// addCell adds a cell of the given task. Cells come in task order (Compute
// sorts them), so the task is the last one or a new last one.
func (a *rowAcc) addCell(task int, c *queries.MetricCell, policy string) {
	n := len(a.tasks)
	k, found := n-1, n > 0 && a.tasks[n-1] == task
	if !found && (n == 0 || a.tasks[n-1] < task) {
		k = n
		a.tasks = append(a.tasks, task)
		a.tallies = append(a.tallies, tally{})
	} else if !found {
		if k, found = slices.BinarySearch(a.tasks, task); !found {
			a.tasks = slices.Insert(a.tasks, k, task)
			a.tallies = slices.Insert(a.tallies, k, tally{})
		}
	}
	a.tallies[k].addCell(c, policy)
	a.total.addCell(c, policy)
}

// Compute turns the per-task cells of queries.MetricsCells into a report.
// The cells must carry the agent when opts.By has ByAgent and the category
// when it has ByCategory or ByHardness. It fails with ErrNoVerdicts,
// ErrUnknown, ErrScoreOnly, ErrNoGroundTruth or ErrBadOption.
func Compute(cells []queries.MetricCell, opts Options) (Report, error) {
	return compute(cells, make([]queries.MetricCell, 0, len(cells)), opts)
}

// compute is Compute with the kept cells written into kept: a new slice,
// or cells[:0] for a caller that owns cells and needs them no more (Run;
// with the collector off a copy of every cell is pages touched for
// nothing).
func compute(cells, kept []queries.MetricCell, opts Options) (Report, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Report{}, err
	}
	if len(cells) == 0 {
		return Report{}, fmt.Errorf("%w: the lake holds no verdicts (trustlake ingest verdicts FILE.jsonl)", ErrNoVerdicts)
	}
	rep := Report{Params: Params{By: opts.By, Source: opts.Source, UncertainPolicy: opts.UncertainPolicy,
		Alpha: opts.Alpha, Bootstrap: opts.Resamples, Seed: opts.Seed, Threshold: opts.Threshold, GT: opts.GT},
		Reference: Reference{FleissKappa: jsonNum(math.NaN())}}
	if rep.Params.By == nil {
		rep.Params.By = []string{}
	}
	cells, err = selectCells(cells, kept, opts, &rep)
	if err != nil {
		return Report{}, err
	}
	// Sum in a canonical order so that float sums (Fleiss) do not depend
	// on the order of the input.
	slices.SortFunc(cells, compareCells)
	// Tasks of the kept cells are the bootstrap clusters.
	var ids []string
	seen := map[string]bool{}
	for _, c := range cells {
		if !seen[c.TaskID] {
			seen[c.TaskID] = true
			ids = append(ids, c.TaskID)
		}
	}
	slices.Sort(ids)
	taskIdx := make(map[string]int, len(ids))
	for i, id := range ids {
		taskIdx[id] = i
	}
	rep.Params.Tasks = len(ids)

	accs := map[rowKey]*rowAcc{}
	// Cells come in runs of one judge × condition: within a run, a slot's
	// (overall, then each dimension) rows are found by their value alone.
	slots := make([]map[string]*rowAcc, 1+len(opts.By))
	for i := range slots {
		slots[i] = map[string]*rowAcc{}
	}
	var jc queries.JudgeCondition
	add := func(slot int, k rowKey, task int, c *queries.MetricCell) {
		a := slots[slot][k.value]
		if a == nil {
			if a = accs[k]; a == nil {
				// Room for every task: with the collector off, tallies
				// grown by appends are pages touched for nothing, and
				// room never used is never touched.
				a = &rowAcc{key: k, tasks: make([]int, 0, len(ids)), tallies: make([]tally, 0, len(ids))}
				accs[k] = a
			}
			slots[slot][k.value] = a
		}
		a.addCell(task, c, opts.UncertainPolicy)
	}
	for i := range cells {
		c := &cells[i]
		if i == 0 || c.Judge != jc.Judge || c.Condition != jc.Condition {
			jc = queries.JudgeCondition{Judge: c.Judge, Condition: c.Condition}
			for _, m := range slots {
				clear(m)
			}
		}
		task := taskIdx[c.TaskID]
		base := rowKey{judge: c.Judge, condition: c.Condition}
		if c.Source == opts.Source {
			add(0, base, task, c)
		}
		for d, dim := range opts.By {
			k := base
			k.dim = dim
			switch dim {
			case BySource:
				k.value = c.Source
			case ByCategory:
				k.value = categoryStratum(c)
			case ByHardness:
				k.value = hardnessStratum(c)
			case ByTask:
				k.value = c.TaskID
			case ByAgent:
				k.value = c.Agent
			}
			if dim == BySource || c.Source == opts.Source {
				add(1+d, k, task, c)
			}
		}
	}
	// Every selected judge × condition has an overall row, even if empty.
	for _, c := range cells {
		k := rowKey{judge: c.Judge, condition: c.Condition}
		if accs[k] == nil {
			accs[k] = &rowAcc{key: k}
		}
	}
	ordered := make([]*rowAcc, 0, len(accs))
	for _, a := range accs {
		ordered = append(ordered, a)
	}
	slices.SortFunc(ordered, func(a, b *rowAcc) int { return compareKeys(a.key, b.key, opts.By) })
	rows, err := finishRows(ordered, ids, opts, &rep)
	if err != nil {
		return Report{}, err
	}
	if opts.Adjust != "" {
		rep.Params.Adjust, rep.Params.Q = opts.Adjust, opts.Q
		if err := testStrata(ordered, rows, len(ids), opts); err != nil {
			return Report{}, err
		}
	}
	rep.Rows = rows
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	return rep, nil
}

// selectCells applies the judge and condition filters, drops score-only
// judges without a threshold and episodes without task or ground truth
// (with warnings), and fills the report's judge and condition lists. It
// appends the kept cells to out (which may be cells[:0]).
func selectCells(cells, out []queries.MetricCell, opts Options, rep *Report) ([]queries.MetricCell, error) {
	// The judge × conditions of the cells, with their statistics: cells
	// come in runs of one judge × condition, so the map is looked up once
	// a run.
	type jcStat struct{ unscored, noTask, noGT, eps int }
	stat := map[queries.JudgeCondition]*jcStat{}
	var (
		all    []queries.JudgeCondition
		last   *jcStat
		lastJC queries.JudgeCondition
	)
	statOf := func(c *queries.MetricCell) *jcStat {
		if last != nil && c.Judge == lastJC.Judge && c.Condition == lastJC.Condition {
			return last
		}
		lastJC = queries.JudgeCondition{Judge: c.Judge, Condition: c.Condition}
		if last = stat[lastJC]; last == nil {
			last = &jcStat{}
			stat[lastJC] = last
			all = append(all, lastJC)
		}
		return last
	}
	for i := range cells {
		c := &cells[i]
		s := statOf(c)
		s.eps += c.Episodes
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
	slices.Sort(judges)
	judges = slices.Compact(judges)
	slices.Sort(conds)
	conds = slices.Compact(conds)
	for _, j := range opts.Judges {
		if !slices.Contains(judges, j) {
			return nil, fmt.Errorf("%w: judge %q is not in the lake; judges: %s", ErrUnknown, j, strings.Join(judges, ", "))
		}
	}
	for _, c := range opts.Conditions {
		if !slices.Contains(conds, c) {
			return nil, fmt.Errorf("%w: condition %q is not in the lake; conditions: %s", ErrUnknown, c, strings.Join(conds, ", "))
		}
	}
	keepJC := func(jc queries.JudgeCondition) bool {
		return (len(opts.Judges) == 0 || slices.Contains(opts.Judges, jc.Judge)) &&
			(len(opts.Conditions) == 0 || slices.Contains(opts.Conditions, jc.Condition))
	}
	var jcs []queries.JudgeCondition
	for _, jc := range all {
		if keepJC(jc) {
			jcs = append(jcs, jc)
		}
	}
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
	drop, lastJC := true, queries.JudgeCondition{}
	for i := range cells {
		c := &cells[i]
		if i == 0 || c.Judge != lastJC.Judge || c.Condition != lastJC.Condition {
			lastJC = queries.JudgeCondition{Judge: c.Judge, Condition: c.Condition}
			drop = !keepJC(lastJC) || skipped[lastJC]
		}
		if drop || !c.HasTask || !c.HasGT {
			continue
		}
		out = append(out, *c)
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
	for _, jc := range jcs {
		if skipped[jc] {
			continue
		}
		if !slices.Contains(rep.Params.Judges, jc.Judge) {
			rep.Params.Judges = append(rep.Params.Judges, jc.Judge)
		}
		if !slices.Contains(rep.Params.Conditions, jc.Condition) {
			rep.Params.Conditions = append(rep.Params.Conditions, jc.Condition)
		}
	}
	slices.Sort(rep.Params.Conditions)
	return out, nil
}

// categoryStratum is a cell's value in the category stratum.
func categoryStratum(c *queries.MetricCell) string {
	switch {
	case c.GTPass:
		return StratumPass
	case c.Category == "":
		return StratumNone
	}
	return c.Category
}

// hardnessStratum is a cell's value in the hardness stratum.
func hardnessStratum(c *queries.MetricCell) string {
	if c.GTPass {
		return StratumPass
	}
	if h := schema.Hardness(c.Category); h != "" {
		return h
	}
	return StratumNone
}

// valueRank orders stratum values: passes first, known codes in the seed's
// order, other values alphabetically, "(none)" last.
func valueRank(dim, v string) (int, string) {
	if v == StratumPass {
		return 0, ""
	}
	if v == StratumNone {
		return 1000, ""
	}
	var known []string
	switch dim {
	case ByCategory:
		known = schema.Categories
	case ByHardness:
		known = []string{schema.HardnessHard, schema.HardnessObvious, schema.HardnessClaim}
	case BySource:
		known = schema.Sources
	}
	if i := slices.Index(known, v); i >= 0 {
		return 1 + i, ""
	}
	return 100, v
}

func compareKeys(a, b rowKey, by []string) int {
	if c := cmp.Or(cmp.Compare(a.judge, b.judge), cmp.Compare(a.condition, b.condition)); c != 0 {
		return c
	}
	da, db := -1, -1
	if a.dim != "" {
		da = slices.Index(by, a.dim)
	}
	if b.dim != "" {
		db = slices.Index(by, b.dim)
	}
	if da != db {
		return cmp.Compare(da, db)
	}
	ra, sa := valueRank(a.dim, a.value)
	rb, sb := valueRank(b.dim, b.value)
	return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(sa, sb))
}

func compareCells(a, b queries.MetricCell) int {
	return cmp.Or(cmp.Compare(a.Judge, b.Judge), cmp.Compare(a.Condition, b.Condition), cmp.Compare(a.TaskID, b.TaskID),
		cmp.Compare(a.Source, b.Source), compareBool(a.GTPass, b.GTPass), cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Category, b.Category))
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
