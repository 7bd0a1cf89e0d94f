package trust

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// Num is a float that marshals NaN and ±Inf as JSON null.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'f', -1, 64), nil
}

// Rate is a proportion with its Wilson interval [lo, hi].
type Rate struct {
	Value  Num    `json:"value"`
	Wilson [2]Num `json:"wilson"`
}

func rate(k, n int, alpha float64) Rate {
	if n == 0 {
		return Rate{Num(math.NaN()), [2]Num{Num(math.NaN()), Num(math.NaN())}}
	}
	lo, hi := stats.Wilson(k, n, alpha)
	return Rate{Num(float64(k) / float64(n)), [2]Num{Num(lo), Num(hi)}}
}

// Dims counts recorded passes per dimension.
type Dims struct {
	D1 int `json:"d1"`
	D2 int `json:"d2"`
	D3 int `json:"d3"`
	D4 int `json:"d4"`
}

func (d *Dims) add(i int) {
	*[4]*int{&d.D1, &d.D2, &d.D3, &d.D4}[i]++
}

// Ablation counts recorded passes that survive D1 alone, D1 and D4, and all
// four dimensions (paper Table 11).
type Ablation struct {
	D1   int `json:"d1"`
	D1D4 int `json:"d1_d4"`
	All  int `json:"all"`
}

// D1Stats counts D1 outcomes over all results.
type D1Stats struct {
	Confirm       int `json:"confirm"`
	Contradiction int `json:"contradiction"`
	Upgrade       int `json:"upgrade"`
	Unverified    int `json:"unverified"`
}

// D2Stats counts D2 statuses over all results and provenance labels over
// all traced values.
type D2Stats struct {
	Clean       int `json:"clean"`
	Gamed       int `json:"gamed"`
	Unconfirmed int `json:"unconfirmed"`
	Untraceable int `json:"untraceable"`
	Values      int `json:"values"`
	Derived     int `json:"derived"`
	Given       int `json:"given"`
	Typed       int `json:"typed"`
	Ungrounded  int `json:"ungrounded"`
	Confessions int `json:"confessions"`
}

// D3Stats counts claims and lies over all results (paper Table 2).
type D3Stats struct {
	Correct    int `json:"claims_correct"`
	Completion int `json:"claims_completion"`
	None       int `json:"no_claim"`
	Lies       int `json:"lies"`
	Hard       int `json:"hard"`
	Soft       int `json:"soft"`
}

// D4Stats summarises repeat reliability (paper Table 4 and §4.5).
type D4Stats struct {
	Tasks      int `json:"tasks"`       // tasks with at least two valid trials
	VariedRate Num `json:"varied_rate"` // share of those whose trials cross tiers
	// VariedRateBoot is the task-cluster percentile bootstrap interval of
	// VariedRate, null when undefined (fewer than two tasks).
	VariedRateBoot []Num `json:"varied_rate_boot"`
	Sigma2Between  Num   `json:"sigma2_between"`
	Sigma2Within   Num   `json:"sigma2_within"`
	Rho            Num   `json:"rho"`
	// PassHatK is τ-bench's pass^k for k = 1..PassK, every k on one task
	// set: the PassKTasks tasks with at least PassK valid runs;
	// PassKLeftOut tasks have fewer and are left out of every k.
	PassHatK []Num `json:"pass_hat_k"`
	// PassHatKBoot holds the task-cluster bootstrap interval of each
	// PassHatK value ([lo, hi], null when undefined).
	PassHatKBoot [][]Num `json:"pass_hat_k_boot"`
	PassK        int     `json:"pass_k"`
	PassKTasks   int     `json:"pass_k_tasks"`
	PassKLeftOut int     `json:"pass_k_left_out"`
	// Per recorded pass:
	Stable        int `json:"stable"`
	StableOther   int `json:"stable_other"`
	Varied        int `json:"varied"`
	Insufficient  int `json:"insufficient"`
	InfraExcluded int `json:"infra_excluded"`  // results marked with an infrastructure failure (either policy)
	MeanGap       Num `json:"mean_gap"`        // Δ̄ over recorded passes with repeats
	MeanGapVaried Num `json:"mean_gap_varied"` // Δ̄ over varied recorded passes
}

// AgentRow is the audit summary of one agent on one benchmark.
//
// RecordedPasses leaves out results marked as infrastructure failures.
// Removed, Trusted, TrustedRate, Ablation and CaughtByOne are computed over
// the auditable passes (Scope.Auditable: checkable on every chosen
// dimension) and count the chosen dimensions only; Checks counts every
// dimension over all recorded passes.
type AgentRow struct {
	Benchmark      string   `json:"benchmark"`
	Agent          string   `json:"agent"`
	Results        int      `json:"results"`
	RecordedPasses int      `json:"recorded_passes"`
	Scope          Scope    `json:"scope"`
	Checks         Checks   `json:"checks"`
	Removed        Dims     `json:"removed"`       // auditable passes failing each chosen dimension
	Trusted        int      `json:"trusted"`       // auditable passes holding every chosen dimension
	TrustedRate    Rate     `json:"trusted_rate"`  // trusted / auditable passes, Wilson interval
	Ablation       Ablation `json:"ablation"`      // Table 11, over auditable passes
	CaughtByOne    Dims     `json:"caught_by_one"` // auditable passes failing exactly this one chosen dimension
	// Funnel counts the auditable passes still standing after D1, D1∧D2,
	// D1∧D2∧D3 and all four dimensions, in that order (a dimension left out
	// of the conjunction removes nothing).
	Funnel [4]int `json:"funnel"`
	// InfraMarkedPasses counts recorded passes marked with infra_error:
	// never counted as passes (a data warning).
	InfraMarkedPasses int     `json:"infra_marked_passes"`
	D1                D1Stats `json:"d1"`
	D2                D2Stats `json:"d2"`
	D3                D3Stats `json:"d3"`
	D4                D4Stats `json:"d4"`
}

// Report is the Trust Layer's result: one row per (benchmark, agent), a
// total over all of them, and the results D1 could not verify.
type Report struct {
	Repeats  int     `json:"repeats"`
	D2Policy string  `json:"d2_policy"`
	Alpha    float64 `json:"alpha"`
	// Bootstrap and Seed are the resamples and seed of the D4 intervals.
	Bootstrap int    `json:"bootstrap"`
	Seed      uint64 `json:"seed"`
	// Dimensions is the conjunction; DimensionsDefault is true when it was
	// not chosen with Options.Dimensions (all that apply).
	Dimensions        []string `json:"dimensions"`
	DimensionsDefault bool     `json:"dimensions_default"`
	InfraPolicy       string   `json:"infra_policy"`
	// Notices say in one line each when a dimension can check nothing.
	Notices []string `json:"notices"`
	// Warnings report suspect data (recorded passes marked infra_error).
	Warnings   []string   `json:"warnings"`
	PerAgent   []AgentRow `json:"per_agent"`
	Total      AgentRow   `json:"total"`
	Unverified []string   `json:"unverified"` // result ids with D1 unverified
	Upgrades   []string   `json:"upgrades"`   // result ids with D1 upgrade
}

func buildReport(vs []verdict, opts Options, dims [4]bool) Report {
	rep := Report{Repeats: opts.Repeats, D2Policy: opts.D2Policy, Alpha: opts.Alpha, Bootstrap: opts.Resamples, Seed: opts.Seed, Unverified: []string{}, Upgrades: []string{},
		Dimensions: dimsList(dims), DimensionsDefault: opts.Dimensions == nil, InfraPolicy: opts.InfraPolicy,
		Notices: []string{}, Warnings: []string{}}
	type ak struct{ benchmark, agent string }
	byAgent := map[ak][]int{}
	all := make([]int, len(vs))
	for i := range vs {
		r := &vs[i].res
		byAgent[ak{r.Benchmark, r.Agent}] = append(byAgent[ak{r.Benchmark, r.Agent}], i)
		all[i] = i
		switch vs[i].d1.outcome {
		case schema.D1Unverified:
			rep.Unverified = append(rep.Unverified, r.ResultID)
		case schema.D1Upgrade:
			rep.Upgrades = append(rep.Upgrades, r.ResultID)
		}
	}
	keys := slices.SortedFunc(maps.Keys(byAgent), func(a, b ak) int {
		return cmp.Or(cmp.Compare(a.benchmark, b.benchmark), cmp.Compare(a.agent, b.agent))
	})
	rep.PerAgent = make([]AgentRow, 0, len(keys))
	for _, k := range keys {
		row := agentRow(vs, byAgent[k], opts, dims)
		row.Benchmark, row.Agent = k.benchmark, k.agent
		rep.PerAgent = append(rep.PerAgent, row)
	}
	rep.Total = agentRow(vs, all, opts, dims)
	rep.Total.Benchmark, rep.Total.Agent = "all", "all"
	if n := rep.Total.InfraMarkedPasses; n > 0 {
		rule := "left out of every count"
		if opts.InfraPolicy == InfraFailure {
			rule = "counted as failed runs (score 0)"
		}
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d recorded passes are marked infra_error: not counted as passes; %s (--infra-policy %s)", n, rule, opts.InfraPolicy))
	}
	return rep
}

func agentRow(vs []verdict, idx []int, opts Options, dims [4]bool) AgentRow {
	var row AgentRow
	ncReasons := [4]map[string]int{{}, {}, {}, {}}
	var gapSum, gapVariedSum float64
	var gapN, gapVariedN int
	for _, i := range idx {
		v := &vs[i]
		res := &v.res
		row.Results++
		count(v.d1.outcome, []string{schema.D1Confirm, schema.D1Contradiction, schema.D1Upgrade},
			&row.D1.Confirm, &row.D1.Contradiction, &row.D1.Upgrade, &row.D1.Unverified)
		count(v.d2.status, []string{schema.D2Clean, schema.D2Gamed, schema.D2Unconfirmed},
			&row.D2.Clean, &row.D2.Gamed, &row.D2.Unconfirmed, &row.D2.Untraceable)
		row.D2.Values += v.d2.values
		row.D2.Derived += v.d2.counts[0]
		row.D2.Given += v.d2.counts[1]
		row.D2.Typed += v.d2.counts[2]
		row.D2.Ungrounded += v.d2.counts[3]
		row.D2.Confessions += len(v.d2.confessions)
		count(v.d3.claim, []string{schema.ClaimCorrect, schema.ClaimCompletion}, &row.D3.Correct, &row.D3.Completion,
			&row.D3.None)
		if v.d3.lie {
			row.D3.Lies++
			count(*v.d3.severity, []string{schema.SeverityHard}, &row.D3.Hard, &row.D3.Soft)
		}
		if res.Infra != nil {
			row.D4.InfraExcluded++
			if res.RecordedPass {
				row.InfraMarkedPasses++
			}
		}
		if !v.countedPass() {
			continue
		}
		row.RecordedPasses++
		for d, c := range v.check {
			row.Checks.add(d, c.status)
			if dims[d] && c.status == schema.CheckNotCheckable {
				ncReasons[d][c.reason]++
			}
		}
		if !v.auditable {
			continue
		}
		row.Scope.Auditable++
		var failed []int
		ok := func(d int) bool { return !dims[d] || v.check[d].status == schema.CheckPassed }
		for d := range v.check {
			if !ok(d) {
				row.Removed.add(d)
				failed = append(failed, d)
			}
		}
		if len(failed) == 1 {
			row.CaughtByOne.add(failed[0])
		}
		if v.trusted {
			row.Trusted++
		}
		for d := range v.check {
			if !ok(d) {
				break
			}
			row.Funnel[d]++
		}
		if ok(0) {
			row.Ablation.D1++
			if ok(3) {
				row.Ablation.D1D4++
			}
		}
		count(v.d4.status, []string{schema.D4Stable, schema.D4StableOther, schema.D4Varied},
			&row.D4.Stable, &row.D4.StableOther, &row.D4.Varied, &row.D4.Insufficient)
		if v.d4.gap != nil && v.d4.status != schema.D4Insufficient {
			gapSum += *v.d4.gap
			gapN++
			if v.d4.status == schema.D4Varied {
				gapVariedSum += *v.d4.gap
				gapVariedN++
			}
		}
	}
	row.Ablation.All = row.Trusted
	row.TrustedRate = rate(row.Trusted, row.Scope.Auditable, opts.Alpha)
	row.D4.MeanGap = mean(gapSum, gapN)
	row.D4.MeanGapVaried = mean(gapVariedSum, gapVariedN)
	row.Scope.Dimensions = dimsList(dims)
	row.Scope.RecordedPasses = row.RecordedPasses
	row.Scope.NotCheckable = []NotCheckable{}
	for d, m := range ncReasons {
		for _, r := range slices.Sorted(maps.Keys(m)) {
			row.Scope.NotCheckable = append(row.Scope.NotCheckable, NotCheckable{Dimension: DimensionNames[d], Reason: r, N: m[r]})
		}
	}
	row.Scope.Line = scopeLine(row.Scope, dims)
	taskStats(&row.D4, vs, idx, opts)
	return row
}

// count adds one to the counter of the key equal to k, or to the last
// counter (one more than keys) when there is none.
func count(k string, keys []string, counters ...*int) {
	if i := slices.Index(keys, k); i >= 0 {
		*counters[i]++
	} else {
		*counters[len(keys)]++
	}
}

func mean(sum float64, n int) Num {
	if n == 0 {
		return Num(math.NaN())
	}
	return Num(sum / float64(n))
}
