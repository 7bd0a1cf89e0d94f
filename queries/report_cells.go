package queries

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Cells returns what MetricsCells(opts) returns, computed from the runs
// read once: the same per-episode counts, cell keys, sums and order as
// sql/metrics_cells.sql (TestReportRunsAsSession compares the two).
func (r *ReportRuns) Cells(opts MetricCellOptions) []MetricCell {
	// The cells of the episodes: one per distinct key, the unknown
	// episodes' cell last.
	ids := map[cellKey]int{}
	var keys []cellKey
	cellOf := make([]int, len(r.eps))
	for i := range r.eps {
		ck := r.eps[i].cellKey(opts)
		c, ok := ids[ck]
		if !ok {
			c = len(keys)
			ids[ck] = c
			keys = append(keys, ck)
		}
		cellOf[i] = c
	}
	unknown := len(keys)
	keys = append(keys, cellKey{unknown: true})
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareCellKeys(keys[a], keys[b]) })
	// The cells of every judge × condition that have an episode, counted
	// first so that out is allocated once (its rows are large).
	n, used := 0, make([]bool, len(keys))
	for k := range r.jcs {
		clear(used)
		for i := range r.runs[k] {
			if r.runs[k][i].seen && !used[cellOf[i]] {
				used[cellOf[i]] = true
				n++
			}
		}
		if len(r.unknown[k]) > 0 {
			n++
		}
	}
	out := make([]MetricCell, 0, n)
	jcs := make([]int, len(r.jcs))
	for k := range jcs {
		jcs[k] = k
	}
	slices.SortFunc(jcs, func(a, b int) int {
		return cmp.Or(strings.Compare(r.jcs[a].Judge, r.jcs[b].Judge), strings.Compare(r.jcs[a].Condition, r.jcs[b].Condition))
	})
	cells := make([]cellSums, len(keys))
	for _, k := range jcs {
		clear(cells)
		for i := range r.runs[k] {
			if e := &r.runs[k][i]; e.seen {
				cells[cellOf[i]].add(r, e, opts.Threshold)
			}
		}
		for _, e := range r.unknown[k] {
			cells[unknown].add(r, e, opts.Threshold)
		}
		for _, c := range order {
			if cells[c].Episodes == 0 {
				continue
			}
			m, ck := cells[c].cell(), keys[c]
			m.Judge, m.Condition = r.jcs[k].Judge, r.jcs[k].Condition
			m.TaskID, m.HasTask, m.Source, m.HasGT, m.GTPass, m.Agent, m.Category = ck.task, ck.hasTask, ck.source, ck.gt.valid, ck.gt.v, ck.agent, ck.category
			out = append(out, m)
		}
	}
	return out
}

// cellSums adds up the episodes of one cell of one judge × condition.
type cellSums struct {
	MetricCell
	// pairs[n], per number of valid runs n >= 2: Σ agreeing pairs of
	// runs; the usual n (2, 3) in place, so that a cell of a judge ×
	// condition allocates nothing, and more[n-len(pairs)] beyond.
	pairs [4]int64
	more  []int64
}

func (c *cellSums) add(r *ReportRuns, e *episodeRuns, threshold *float64) {
	s, f, u, unscored := r.counts(e, threshold)
	valid := s + f + u
	c.Episodes++
	switch {
	case s > f && s > u:
		c.MajSuccess++
	case f > s && f > u:
		c.MajFailure++
	default:
		c.MajUncertain++
	}
	if unscored > 0 {
		c.Unscored++
	}
	c.Runs += int(e.runs)
	c.ParseErrors += int(e.parse)
	if valid >= 2 {
		c.Eligible++
		if max(s, f, u) == valid {
			c.Agree++
		}
		agreeing := int64(s*(s-1) + f*(f-1) + u*(u-1))
		if valid < len(c.pairs) {
			c.pairs[valid] += agreeing
		} else {
			j := valid - len(c.pairs)
			if j >= len(c.more) {
				c.more = append(c.more, make([]int64, j+1-len(c.more))...)
			}
			c.more[j] += agreeing
		}
		c.FleissSuccess += s
		c.FleissFailure += f
		c.FleissUncertain += u
	}
}

// cell finishes the sums: as metrics_cells.sql, per number of valid runs
// n the pairs agreeing over n(n−1) in units of 1e-12, rounded, summed as
// integers.
func (c *cellSums) cell() MetricCell {
	var units int64 // integers: the order of the sums does not matter
	share := func(n int, pairs int64) {
		if n >= 2 {
			units += int64(math.Round(1e12 * float64(pairs) / float64(n*(n-1))))
		}
	}
	for n, pairs := range c.pairs {
		share(n, pairs)
	}
	for j, pairs := range c.more {
		share(len(c.pairs)+j, pairs)
	}
	m := c.MetricCell
	m.FleissP = float64(units) / 1e12
	return m
}

// cellKey is the key of a metrics cell: what episode_cells yields for an
// episode (unknown: one without an episode, ground-truth or label row,
// cell 0 in metrics_cells.sql).
type cellKey struct {
	unknown                       bool
	task, source, agent, category string // agent and category "" when NULL or not in the key
	hasTask, hasSource            bool
	gt                            optBool
}

func (e *reportEpisode) cellKey(opts MetricCellOptions) cellKey {
	ck := cellKey{task: e.task, hasTask: e.hasTask, source: e.source, hasSource: e.hasSource, gt: e.reference(opts.GT)}
	if opts.ByAgent {
		ck.agent = e.agent
	}
	if opts.ByCategory {
		ck.category = e.category
	}
	return ck
}

// compareCellKeys orders cells as metrics_cells.sql does within a judge
// × condition: task NULLS LAST, source NULLS LAST, ground truth NULLS
// LAST, agent, category (cell 0, unknown, has them all NULL).
func compareCellKeys(a, b cellKey) int {
	return cmp.Or(nullsLast(a.hasTask, b.hasTask, strings.Compare(a.task, b.task)),
		nullsLast(a.hasSource, b.hasSource, strings.Compare(a.source, b.source)),
		nullsLast(a.gt.valid, b.gt.valid, compareBool(a.gt.v, b.gt.v)),
		strings.Compare(a.agent, b.agent), strings.Compare(a.category, b.category), compareBool(a.unknown, b.unknown))
}

// nullsLast compares two nullable values: valid before NULL, else c.
func nullsLast(aValid, bValid bool, c int) int {
	switch {
	case aValid && bValid:
		return c
	case aValid:
		return -1
	case bValid:
		return 1
	}
	return 0
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// Pairs returns what MetricsPairs(a, b, source, threshold, gt) returns,
// computed from the runs read once (sql/metrics_pairs.sql: the episodes of
// source with a task and ground truth that both judged, neither with
// unscored runs, counted per task, ground truth and pair of majorities).
func (r *ReportRuns) Pairs(a, b JudgeCondition, source string, threshold *float64, gt string) []MetricPair {
	ka, kb := slices.Index(r.jcs, a), slices.Index(r.jcs, b)
	if ka < 0 || kb < 0 {
		return nil
	}
	// Counted by (task number, ground truth, majority of a, of b) in one
	// array instead of a map keyed by strings.
	const cells = 2 * 3 * 3
	n := make([]int, cells*len(r.tasks))
	pairs := 0
	for i := range r.eps {
		ea, eb, ep := &r.runs[ka][i], &r.runs[kb][i], &r.eps[i]
		ref := ep.reference(gt)
		if !ea.seen || !eb.seen || !ep.hasSource || ep.source != source || !ep.hasTask || !ref.valid {
			continue
		}
		as, af, au, aun := r.counts(ea, threshold)
		bs, bf, bu, bun := r.counts(eb, threshold)
		if aun > 0 || bun > 0 {
			continue
		}
		c := &n[int(r.taskOf[i])*cells+b2i(ref.v)*9+majorityOf(as, af, au)*3+majorityOf(bs, bf, bu)]
		if *c == 0 {
			pairs++
		}
		(*c)++
	}
	out := make([]MetricPair, 0, pairs)
	for j, c := range n {
		if c > 0 {
			out = append(out, MetricPair{TaskID: r.tasks[j/cells], GTPass: (j%cells)/9 == 1,
				AMajority: majorities[(j%9)/3], BMajority: majorities[j%3], N: c})
		}
	}
	slices.SortFunc(out, func(x, y MetricPair) int {
		return cmp.Or(strings.Compare(x.TaskID, y.TaskID), compareBool(x.GTPass, y.GTPass),
			strings.Compare(x.AMajority, y.AMajority), strings.Compare(x.BMajority, y.BMajority), cmp.Compare(x.N, y.N))
	})
	return out
}

// majorities names metric_episodes' majority verdicts by majorityOf.
var majorities = [3]string{"success", "failure", "uncertain"}

// majorityOf is metric_episodes' majority verdict, as an index of
// majorities.
func majorityOf(s, f, u int) int {
	switch {
	case s > f && s > u:
		return 0
	case f > s && f > u:
		return 1
	}
	return 2
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// JudgeConditions returns what MetricsJudgeConditions(threshold) returns
// (sql/metrics_judge_conditions.sql): every judge × condition with its
// episodes and, without a threshold, those with a score-only run.
func (r *ReportRuns) JudgeConditions(threshold *float64) []JudgeConditionCount {
	out := make([]JudgeConditionCount, len(r.jcs))
	for k, jc := range r.jcs {
		c := JudgeConditionCount{JudgeCondition: jc}
		count := func(e *episodeRuns) {
			c.Episodes++
			if threshold == nil && e.runs-e.parse-e.success-e.failure-e.unc > 0 {
				c.Unscored++
			}
		}
		for i := range r.runs[k] {
			if e := &r.runs[k][i]; e.seen {
				count(e)
			}
		}
		for _, e := range r.unknown[k] {
			count(e)
		}
		out[k] = c
	}
	slices.SortFunc(out, func(a, b JudgeConditionCount) int {
		return cmp.Or(strings.Compare(a.Judge, b.Judge), strings.Compare(a.Condition, b.Condition),
			cmp.Compare(a.Episodes, b.Episodes), cmp.Compare(a.Unscored, b.Unscored))
	})
	return out
}

// NeedsReview returns what ReportNeedsReview returns
// (sql/report_needs_review.sql): the GT failures whose category needs
// review, by raw category ("(none)" when NULL), most episodes first.
func (r *ReportRuns) NeedsReview() []ReviewCount {
	var out []ReviewCount
	for raw, n := range r.review {
		out = append(out, ReviewCount{Raw: raw, Episodes: n})
	}
	slices.SortFunc(out, func(a, b ReviewCount) int {
		return cmp.Or(cmp.Compare(b.Episodes, a.Episodes), strings.Compare(a.Raw, b.Raw))
	})
	return out
}
