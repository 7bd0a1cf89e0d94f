package queries

import (
	"github.com/trustlake/trustlake/lake"
)

// runSums are the runs of one (judge, condition, episode) as the
// per_episode part of sql/metrics_cells.sql counts them.
type runSums struct {
	runs, parse, success, failure, unc, unscored int
}

// rowSums counts row i of c: a score-only run is success at a score >=
// *thr, else failure, and unscored when thr is nil (as DuckDB compares
// doubles: atLeast).
func rowSums(c *lake.RunCountColumns, i int, thr *float64) runSums {
	r := runSums{runs: int(c.Runs[i]), parse: int(c.Parse[i]), success: int(c.Success[i]), failure: int(c.Failure[i]), unc: int(c.Uncer[i])}
	for k := range 3 {
		score, ok := c.Score(k, i)
		switch {
		case !ok:
		case thr == nil:
			r.unscored++
		case atLeast(score, *thr):
			r.success++
		default:
			r.failure++
		}
	}
	return r
}

func (r *runSums) add(o runSums) {
	r.runs += o.runs
	r.parse += o.parse
	r.success += o.success
	r.failure += o.failure
	r.unc += o.unc
	r.unscored += o.unscored
}

// denseValid bounds the valid runs per episode whose groups are kept in a
// slice (more go to a map).
const denseValid = 8

// groupSums sums episodes per cell and valid runs (by_valid in
// sql/metrics_cells.sql).
type groupSums struct {
	at     []int32 // cell*denseValid + valid → 1 + index into groups
	sparse map[[2]int]int
	groups []CellGroup
}

func (g *groupSums) add(cell int32, r runSums) {
	valid := r.success + r.failure + r.unc
	var x *CellGroup
	if valid >= 0 && valid < denseValid {
		slot := &g.at[int(cell)*denseValid+valid]
		if *slot == 0 {
			g.groups = append(g.groups, CellGroup{Cell: int64(cell), NValid: valid})
			*slot = int32(len(g.groups))
		}
		x = &g.groups[*slot-1]
	} else {
		k := [2]int{int(cell), valid}
		i, ok := g.sparse[k]
		if !ok {
			if g.sparse == nil {
				g.sparse = map[[2]int]int{}
			}
			g.groups = append(g.groups, CellGroup{Cell: int64(cell), NValid: valid})
			i = len(g.groups) - 1
			g.sparse[k] = i
		}
		x = &g.groups[i]
	}
	s, f, u := r.success, r.failure, r.unc
	x.Episodes++
	if s > f && s > u {
		x.MajSuccess++
	}
	if f > s && f > u {
		x.MajFailure++
	}
	if r.unscored > 0 {
		x.Unscored++
	}
	x.Runs += r.runs
	x.ParseErrors += r.parse
	if max(s, f, u) == valid {
		x.Agree++
	}
	x.PairsAgree += s*(s-1) + f*(f-1) + u*(u-1)
	x.Success += s
	x.Failure += f
	x.Uncertain += u
}

// addEpisode adds an episode's sums to each of its cells (ref as
// episodeCellSet.cellOf).
func (g *groupSums) addEpisode(ref int32, r runSums, ec *episodeCellSet) {
	if ref >= 0 {
		g.add(ref, r)
		return
	}
	for _, c := range ec.multi[-ref-1] {
		g.add(c, r)
	}
}

// sumJudgeCondition returns the groups of one judge × condition from the
// run counts of its files. Each row is one episode unless sumRows: then
// the rows of an episode id are summed first (several files, or an
// episode continued on further rows).
func sumJudgeCondition(judge, condition string, files []*lake.RunCountColumns, sumRows bool, thr *float64, ec *episodeCellSet, rc *rowCells) []CellGroup {
	g := groupSums{at: make([]int32, len(ec.keys)*denseValid)}
	if !sumRows {
		for _, c := range files {
			cells := rc.of(c, ec)
			for i := range cells {
				g.addEpisode(cells[i], rowSums(c, i, thr), ec)
			}
		}
	} else {
		type episode struct {
			ref  int32
			sums runSums
		}
		slot := map[string]int{}
		var eps []episode
		for _, c := range files {
			cells := rc.of(c, ec)
			for i := range cells {
				id := c.ID(i)
				k, ok := slot[string(id)]
				if !ok {
					k = len(eps)
					slot[string(id)] = k
					eps = append(eps, episode{ref: cells[i]})
				}
				eps[k].sums.add(rowSums(c, i, thr))
			}
		}
		for _, e := range eps {
			g.addEpisode(e.ref, e.sums, ec)
		}
	}
	for i := range g.groups {
		x := &g.groups[i]
		k := &ec.keys[x.Cell]
		x.Judge, x.Condition = judge, condition
		x.TaskID, x.HasTask, x.Source, x.HasSource = k.TaskID, k.HasTask, k.Source, k.HasSource
		x.HasGT, x.GTPass, x.Agent, x.Category = k.HasGT, k.GTPass, k.Agent, k.Category
	}
	return g.groups
}
