package queries

import (
	"cmp"
	"math"
	"slices"
)

// CellGroup is one row of sql/metrics_cells.sql: the episodes of one
// judge, condition and cell that have NValid valid runs each, summed.
// FoldCellGroups adds up the groups of a cell into its MetricCell.
type CellGroup struct {
	Judge, Condition string
	Cell             int64  // numbers the cell's task, source, ground truth, agent and category
	TaskID           string // "" when the lake has no episode row (then Source is "" too)
	HasTask          bool
	Source           string
	HasSource        bool
	HasGT, GTPass    bool
	Agent, Category  string

	NValid                             int // valid runs per episode
	Episodes, MajSuccess, MajFailure   int
	Unscored, Runs, ParseErrors, Agree int
	PairsAgree                         int // Σ over episodes and verdicts of n(n−1): agreeing ordered pairs of runs
	Success, Failure, Uncertain        int // valid runs per verdict
}

// FoldCellGroups returns the MetricCells of the groups, ordered by judge,
// condition, task, source and ground truth (missing ones last), agent and
// category. A cell's Fleiss P̄ sum is Σ over its groups with n ≥ 2 valid
// runs of PairsAgree / (n(n−1)), each term rounded to 1e-12 and summed as
// integers, so it is exact whatever the order of the groups.
func FoldCellGroups(groups []CellGroup) []MetricCell {
	var f cellFolder
	for i := range groups {
		g := &groups[i]
		c := f.lookup(g.Judge, g.Condition, g.Cell)
		if c == nil {
			c = f.newCell(g)
		}
		c.add(g)
	}
	return f.result()
}

// cellFolder adds up cell groups into MetricCells: per judge × condition,
// the cells by number; the cells in blocks, so that adding one never copies
// the others.
type cellFolder struct {
	jcs    map[JudgeCondition]int
	names  []JudgeCondition        // per judge × condition, its strings as kept
	cellAt [][]*cellAcc            // per judge × condition, by cell number (dense from 0)
	sparse map[cellNumber]*cellAcc // cells whose number is out of cellAt's range
	last   int                     // the judge × condition of the latest lookup (rows come in runs of one)
	blocks [][]cellAcc
	n      int
}

// cellAcc is a cell being added up.
type cellAcc struct {
	MetricCell
	hasSource bool
	units     int64 // Fleiss P̄ sum in units of 1e-12
	jc        int   // index into cellFolder.names
	cell      int64 // CellGroup.Cell
}

const cellBlock = 1024

// lookup returns the cell of judge, condition and cell number, nil when
// there is none yet. The strings are only read.
func (f *cellFolder) lookup(judge, condition string, cell int64) *cellAcc {
	if !f.lastIs(judge, condition) {
		jc, ok := f.jcs[JudgeCondition{judge, condition}]
		if !ok {
			return nil
		}
		f.last = jc
	}
	if at := f.cellAt[f.last]; cell >= 0 && cell < int64(len(at)) {
		return at[cell]
	}
	return f.sparse[cellNumber{f.last, cell}]
}

// lastIs reports whether the latest lookup was of judge and condition
// (f.names[f.last] then holds them as kept).
func (f *cellFolder) lastIs(judge, condition string) bool {
	return f.n > 0 && judge == f.names[f.last].Judge && condition == f.names[f.last].Condition
}

// cellNumber is a judge × condition index and a cell number.
type cellNumber struct {
	jc   int
	cell int64
}

// maxDenseCell bounds the cell numbers kept in slices.
const maxDenseCell = 1 << 22

// newCell adds the cell of group g (its key fields) and returns it. g's
// strings are kept.
func (f *cellFolder) newCell(g *CellGroup) *cellAcc {
	if f.jcs == nil {
		f.jcs = map[JudgeCondition]int{}
	}
	jck := JudgeCondition{g.Judge, g.Condition}
	jc, ok := f.jcs[jck]
	if !ok {
		jc = len(f.cellAt)
		f.jcs[jck] = jc
		f.names = append(f.names, jck)
		f.cellAt = append(f.cellAt, nil)
	}
	if f.n%cellBlock == 0 {
		f.blocks = append(f.blocks, make([]cellAcc, cellBlock))
	}
	c := &f.blocks[f.n/cellBlock][f.n%cellBlock]
	f.n++
	c.MetricCell = MetricCell{Judge: g.Judge, Condition: g.Condition, TaskID: g.TaskID, HasTask: g.HasTask,
		Source: g.Source, HasGT: g.HasGT, GTPass: g.GTPass, Agent: g.Agent, Category: g.Category}
	c.hasSource, c.jc, c.cell = g.HasSource, jc, g.Cell
	switch at := f.cellAt[jc]; {
	case g.Cell >= 0 && g.Cell < int64(len(at)):
		at[g.Cell] = c
	case g.Cell >= 0 && g.Cell < maxDenseCell:
		at = slices.Grow(at, int(g.Cell)+1-len(at))[:g.Cell+1]
		at[g.Cell] = c
		f.cellAt[jc] = at
	default:
		if f.sparse == nil {
			f.sparse = map[cellNumber]*cellAcc{}
		}
		f.sparse[cellNumber{jc, g.Cell}] = c
	}
	f.last = jc
	return c
}

// add adds the counts of group g.
func (c *cellAcc) add(g *CellGroup) {
	c.Episodes += g.Episodes
	c.MajSuccess += g.MajSuccess
	c.MajFailure += g.MajFailure
	c.MajUncertain += g.Episodes - g.MajSuccess - g.MajFailure
	c.Unscored += g.Unscored
	c.Runs += g.Runs
	c.ParseErrors += g.ParseErrors
	if g.NValid >= 2 {
		c.Eligible += g.Episodes
		c.Agree += g.Agree
		c.units += int64(math.Round(1e12 * float64(g.PairsAgree) / float64(g.NValid*(g.NValid-1))))
		c.FleissSuccess += g.Success
		c.FleissFailure += g.Failure
		c.FleissUncertain += g.Uncertain
	}
}

// result returns the cells in order (compareCellAccs). DuckDB numbers the
// cells in that order within a judge × condition (dense_rank, NULLs last;
// 0 for episodes without a cell, last), so sorting by judge × condition and
// number is enough there, which a pass checks; otherwise (Spark puts NULLs
// first) the cells are sorted by their keys.
func (f *cellFolder) result() []MetricCell {
	rank := make([]int, len(f.names))
	byName := make([]int, len(f.names))
	for i := range byName {
		byName[i] = i
	}
	slices.SortFunc(byName, func(a, b int) int {
		return cmp.Or(cmp.Compare(f.names[a].Judge, f.names[b].Judge), cmp.Compare(f.names[a].Condition, f.names[b].Condition))
	})
	for r, jc := range byName {
		rank[jc] = r
	}
	number := func(c *cellAcc) int64 {
		if c.cell == 0 {
			return math.MaxInt64
		}
		return c.cell
	}
	order := make([]*cellAcc, 0, f.n)
	for i := range f.n {
		c := &f.blocks[i/cellBlock][i%cellBlock]
		c.FleissP = float64(c.units) / 1e12
		order = append(order, c)
	}
	slices.SortFunc(order, func(x, y *cellAcc) int {
		return cmp.Or(cmp.Compare(rank[x.jc], rank[y.jc]), cmp.Compare(number(x), number(y)))
	})
	for i := 1; i < len(order); i++ {
		if compareCellAccs(order[i-1], order[i]) >= 0 {
			slices.SortFunc(order, compareCellAccs)
			break
		}
	}
	out := make([]MetricCell, len(order))
	for i, c := range order {
		out[i] = c.MetricCell
	}
	return out
}

// compareCellAccs orders cells by judge, condition, task, source and ground
// truth (missing last), agent and category.
func compareCellAccs(x, y *cellAcc) int {
	return cmp.Or(cmp.Compare(x.Judge, y.Judge), cmp.Compare(x.Condition, y.Condition),
		compareNullable(x.HasTask, y.HasTask, x.TaskID, y.TaskID),
		compareNullable(x.hasSource, y.hasSource, x.Source, y.Source),
		compareNullable(x.HasGT, y.HasGT, boolRank(x.GTPass), boolRank(y.GTPass)),
		cmp.Compare(x.Agent, y.Agent), cmp.Compare(x.Category, y.Category))
}

// compareNullable compares two values of which either may be missing
// (has false); missing ones come last.
func compareNullable[T cmp.Ordered](hasA, hasB bool, a, b T) int {
	switch {
	case hasA && hasB:
		return cmp.Compare(a, b)
	case hasA:
		return -1
	case hasB:
		return 1
	}
	return 0
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
