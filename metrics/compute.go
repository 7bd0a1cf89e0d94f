package metrics

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
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

// addCell adds a cell of the given task, keeping tasks ascending.
func (a *rowAcc) addCell(task int, c *queries.MetricCell, policy string) {
	k, found := slices.BinarySearch(a.tasks, task)
	if !found {
		a.tasks = slices.Insert(a.tasks, k, task)
		a.tallies = slices.Insert(a.tallies, k, tally{})
	}
	a.tallies[k].addCell(c, policy)
	a.total.addCell(c, policy)
}

// Compute turns the per-task cells of queries.MetricsCells into a report.
// The cells must carry the agent when opts.By has ByAgent and the category
// when it has ByCategory or ByHardness. It fails with ErrNoVerdicts,
// ErrUnknown, ErrScoreOnly, ErrNoGroundTruth or ErrBadOption.
func Compute(cells []queries.MetricCell, opts Options) (Report, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Report{}, err
	}
	if len(cells) == 0 {
		return Report{}, fmt.Errorf("%w: the lake holds no verdicts (trustlake ingest verdicts FILE.jsonl)", ErrNoVerdicts)
	}
	rep := Report{Params: Params{By: nonNil(opts.By), Source: opts.Source, UncertainPolicy: opts.UncertainPolicy,
		Alpha: opts.Alpha, Bootstrap: opts.Resamples, Seed: opts.Seed, Threshold: opts.Threshold, GT: opts.GT},
		Reference: Reference{FleissKappa: jsonNum(math.NaN())}}
	cells, err = selectCells(cells, opts, &rep)
	if err != nil {
		return Report{}, err
	}
	// Sum in a canonical order so that float sums (Fleiss) do not depend
	// on the order of the input.
	slices.SortFunc(cells, compareCells)
	// Tasks of the kept cells are the bootstrap clusters.
	ids := make([]string, len(cells))
	for i, c := range cells {
		ids[i] = c.TaskID
	}
	ids = distinct(ids)
	taskIdx := make(map[string]int, len(ids))
	for i, id := range ids {
		taskIdx[id] = i
	}
	rep.Params.Tasks = len(ids)

	accs := map[rowKey]*rowAcc{}
	acc := func(k rowKey) *rowAcc {
		if accs[k] == nil {
			accs[k] = &rowAcc{key: k}
		}
		return accs[k]
	}
	add := func(k rowKey, task int, c *queries.MetricCell) { acc(k).addCell(task, c, opts.UncertainPolicy) }
	for i := range cells {
		c := &cells[i]
		task := taskIdx[c.TaskID]
		base := rowKey{judge: c.Judge, condition: c.Condition}
		if c.Source == opts.Source {
			add(base, task, c)
		}
		for _, dim := range opts.By {
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
				add(k, task, c)
			}
		}
	}
	// Every selected judge × condition has an overall row, even if empty.
	for _, c := range cells {
		acc(rowKey{judge: c.Judge, condition: c.Condition})
	}
	ordered := slices.Collect(maps.Values(accs))
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
	rep.Rows, rep.Warnings = rows, nonNil(rep.Warnings)
	return rep, nil
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

// compareKeys orders rows by judge, condition, then the overall row (dim
// "", not in by: index -1) and the strata in the order of by.
func compareKeys(a, b rowKey, by []string) int {
	ra, sa := valueRank(a.dim, a.value)
	rb, sb := valueRank(b.dim, b.value)
	return cmp.Or(cmp.Compare(a.judge, b.judge), cmp.Compare(a.condition, b.condition),
		cmp.Compare(slices.Index(by, a.dim), slices.Index(by, b.dim)), cmp.Compare(ra, rb), cmp.Compare(sa, sb))
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

// RestTest compares a stratum's FPR with the FPR of the rest of its
// judge × condition's GT failures (the other values of the same
// dimension: the other categories, hardness classes, tasks or agents of the
// headline source; the other sources for the source dimension), with the
// cluster-robust SE over tasks that both sides share
// (stats.DiffMeansCR1). P is raw; PAdjusted is adjusted over every
// stratum test of the output (Options.Adjust) and Significant is
// PAdjusted ≤ Options.Q.
type RestTest struct {
	FPRRest     float64 `json:"fpr_rest"`
	NNegRest    int     `json:"n_neg_rest"`
	Diff        float64 `json:"diff"` // stratum FPR − rest FPR
	SE          float64 `json:"se"`
	P           float64 `json:"p"`
	PAdjusted   float64 `json:"p_adjusted"`
	Significant bool    `json:"significant"`
}

// testStrata sets the VsRest test of every stratum row with GT failures on
// both sides (accs[i] is rows[i]'s accumulator) and adjusts the family.
func testStrata(accs []*rowAcc, rows []Row, nTasks int, opts Options) error {
	type group struct{ judge, condition, dim string }
	members := map[group][]int{}
	for i, a := range accs {
		if a.key.dim != "" {
			g := group{a.key.judge, a.key.condition, a.key.dim}
			members[g] = append(members[g], i)
		}
	}
	var tested []int
	var raw []float64
	for i, a := range accs {
		if a.key.dim == "" || a.key.value == StratumPass {
			continue
		}
		sumA, nA, sumB, nB := make([]float64, nTasks), make([]float64, nTasks), make([]float64, nTasks), make([]float64, nTasks)
		for _, j := range members[group{a.key.judge, a.key.condition, a.key.dim}] {
			sum, n := sumB, nB
			if j == i {
				sum, n = sumA, nA
			}
			for k, task := range accs[j].tasks {
				t := &accs[j].tallies[k]
				sum[task] += float64(t.fp)
				n[task] += float64(t.fp + t.tn)
			}
		}
		d := stats.DiffMeansCR1(sumA, nA, sumB, nB)
		if math.IsNaN(d.P) {
			continue
		}
		rows[i].VsRest = &RestTest{FPRRest: d.MeanB, NNegRest: int(d.NB), Diff: d.Diff, SE: d.SE, P: d.P}
		tested = append(tested, i)
		raw = append(raw, d.P)
	}
	adj, err := stats.AdjustP(opts.Adjust, raw)
	if err != nil {
		return err
	}
	for k, i := range tested {
		v := rows[i].VsRest
		v.PAdjusted = adj[k]
		v.Significant = adj[k] <= opts.Q
	}
	return nil
}
