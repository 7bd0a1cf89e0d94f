package trust

import (
	"cmp"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// D2 policies for unconfirmed values (no model judge configured).
const (
	PolicyLenient = "lenient" // unconfirmed counts as clean
	PolicyStrict  = "strict"  // unconfirmed counts as not clean
)

// Record is one recorded result with its saved trajectory.
type Record struct {
	Result  schema.Result
	Actions []schema.Action // in step order; empty when no trajectory was saved
	// Regrade is the grader re-run offline (for lake episodes: the task
	// verifier in the sandbox). nil means D1 recomputes what Result.Grader
	// allows (schema.TauBenchGrader, schema.OutputsGrader), else unverified.
	Regrade *Regrade
}

// Regrade is a grader re-run on saved outputs.
type Regrade struct {
	Err   string   // non-empty when the grader could not run offline
	Pass  bool     // the grader's verdict
	Score *float64 // in [0, 1] when the grader gives partial credit
	Gates []schema.Gate
	// Requested lists gate IDs whose checks the prompt asked for; an
	// administrative gate not listed is an unrequested defect (upgrade rule).
	Requested []string
	// ValuesMatch reports whether the answer values match the reference
	// (upgrade rule); nil means unknown, which forbids an upgrade.
	ValuesMatch *bool
}

// Options configures an Auditor. Zero values mean defaults.
type Options struct {
	Repeats int // D4 repeats used per result; 0 means 5
	// MinRepeats is the fewest other valid trials of the task D4 needs;
	// fewer is insufficient (not checkable). 0 means 1: two valid runs of a
	// task in all can be compared.
	MinRepeats int
	D2Policy   string  // PolicyLenient (default) or PolicyStrict
	Alpha      float64 // Wilson level; 0 means 0.05
	// Dimensions is the conjunction ("D1".."D4", see ParseDimensions); nil
	// means every dimension checkable for at least one recorded pass.
	Dimensions []string
	// InfraPolicy is InfraExclude (default) or InfraFailure.
	InfraPolicy string
	// PassK is the largest k of pass^k; pass^1..pass^PassK are computed on
	// one task set, the tasks with at least PassK valid runs. 0 means, per
	// report row, the largest k that at least half of its tasks reach.
	PassK int
	// Resamples and Seed drive the task-cluster bootstrap of the D4 varied
	// rate and pass^k; 0 means 2000 and DefaultSeed.
	Resamples int
	Seed      uint64
	// ReadOnlyTools lists tool-name prefixes that do not change state; other
	// tools are writes for the τ-bench actions gate. nil means
	// DefaultReadOnlyTools().
	ReadOnlyTools []string
	// Workers audits D1–D3 of that many records in parallel; 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int
}

// DefaultReadOnlyTools returns the name prefixes of τ-bench's read-only
// tools (airline and retail domains).
func DefaultReadOnlyTools() []string {
	return []string{"get_", "search_", "list_", "find_", "calculate", "think", "transfer_to_human_agents"}
}

func (o Options) withDefaults() Options {
	o.Repeats = cmp.Or(max(o.Repeats, 0), 5)
	o.MinRepeats = cmp.Or(max(o.MinRepeats, 0), 1)
	o.InfraPolicy = cmp.Or(o.InfraPolicy, InfraExclude)
	o.D2Policy = cmp.Or(o.D2Policy, PolicyLenient)
	if o.Alpha <= 0 || o.Alpha >= 1 {
		o.Alpha = 0.05
	}
	o.Workers = cmp.Or(max(o.Workers, 0), runtime.GOMAXPROCS(0))
	o.Resamples = cmp.Or(max(o.Resamples, 0), stats.DefaultResamples)
	o.Seed = cmp.Or(o.Seed, DefaultSeed)
	if o.ReadOnlyTools == nil {
		o.ReadOnlyTools = DefaultReadOnlyTools()
	}
	return o
}

// verdict is the audit of one record, before it becomes a schema.Trust row.
// It keeps a stripped copy of the result (no texts, no grader): what D4,
// the conjunction and the report need.
type verdict struct {
	res     schema.Result
	d1      d1Result
	d2      d2Result
	d3      d3Result
	d4      d4Result
	trusted bool
	check   [4]check // per dimension: passed, failed or not checkable
	// auditable: a recorded pass checkable on every chosen dimension.
	auditable bool
}

// Auditor runs the audit on a stream of records. Add audits D1–D3 of one
// record (on Options.Workers goroutines) and keeps only the few result
// fields D4 and the report need, never the trajectory, so memory grows
// with the number of results, not with their trajectories. An Auditor is
// not safe for concurrent use: call Add from one goroutine, then Finish
// once.
type Auditor struct {
	opts  Options
	votes map[VoteKey][]bool
	vs    []*verdict
	jobs  chan job
	wg    sync.WaitGroup
}

type job struct {
	v   *verdict
	rec Record
}

// NewAuditor starts an audit; votes are the model-judge votes on D2
// suspects (nil when no judge is configured).
func NewAuditor(opts Options, votes map[VoteKey][]bool) *Auditor {
	opts = opts.withDefaults()
	a := &Auditor{opts: opts, votes: votes, jobs: make(chan job, 4*opts.Workers)}
	for range opts.Workers {
		a.wg.Go(func() {
			for j := range a.jobs {
				a.auditRecord(j.v, &j.rec)
			}
		})
	}
	return a
}

// Add audits one record's D1–D3. The record (and its actions) must not be
// changed by the caller afterwards until Finish returns.
func (a *Auditor) Add(r Record) {
	v := &verdict{}
	a.vs = append(a.vs, v)
	a.jobs <- job{v, r}
}

// Len returns the number of records added.
func (a *Auditor) Len() int { return len(a.vs) }

func (a *Auditor) auditRecord(v *verdict, r *Record) {
	v.d1 = auditD1(r, a.opts)
	v.d2 = auditD2(r, a.votes, a.opts.ReadOnlyTools)
	v.d3 = auditD3(r, v.d1)
	if v.d1.outcome == schema.D1Upgrade && v.d3.lie {
		// An upgrade needs no confirmed lie; D3 never changes D1 otherwise.
		v.d1.outcome = schema.D1Confirm
		v.d1.reason += "; upgrade refused: the agent claimed success"
	}
	v.d2.suspects = slices.Clip(v.d2.suspects)
	v.res = r.Result
	v.res.FinalMessage, v.res.Instruction, v.res.EpisodeID = nil, nil, nil
	v.res.Grader, v.res.Extra = "", ""
}

// Finish waits for the pending records, runs D4 and the conjunction, and
// returns the report and one schema.Trust row per record in the order they
// were added. The Auditor cannot be used afterwards.
func (a *Auditor) Finish() (Report, []schema.Trust) {
	close(a.jobs)
	a.wg.Wait()
	opts := a.opts
	vs := make([]verdict, len(a.vs))
	for i, v := range a.vs {
		vs[i] = *v
	}
	a.vs = nil
	auditD4(vs, opts)
	for i := range vs {
		vs[i].check = vs[i].checks(opts.D2Policy)
	}
	dims, notices := chooseDimensions(vs, opts.Dimensions)
	rows := make([]schema.Trust, len(vs))
	for i := range vs {
		v := &vs[i]
		v.auditable = v.countedPass()
		v.trusted = v.auditable
		for d, on := range dims {
			if !on {
				continue
			}
			switch v.check[d].status {
			case schema.CheckNotCheckable:
				v.auditable, v.trusted = false, false
			case schema.CheckFailed:
				v.trusted = false
			}
		}
		rows[i] = v.row()
		rows[i].D2Policy = opts.D2Policy
		rows[i].InfraPolicy = opts.InfraPolicy
		rows[i].Dimensions = strings.Join(dimsList(dims), ",")
	}
	rep := buildReport(vs, opts, dims)
	rep.Notices = append(rep.Notices, notices...)
	return rep, rows
}

func (v *verdict) row() schema.Trust {
	res := v.res
	t := schema.Trust{
		ResultID: res.ResultID, Benchmark: res.Benchmark, TaskID: res.TaskID, Agent: res.Agent,
		Trial: res.Trial, RecordedScore: res.RecordedScore, RecordedPass: res.RecordedPass,
		D1Outcome: v.d1.outcome, D1Regraded: v.d1.regraded, D1FailedGate: v.d1.failedGate,
		D2Status: v.d2.status, D2Values: int64(v.d2.values), D2Derived: int64(v.d2.counts[0]),
		D2Given: int64(v.d2.counts[1]), D2Typed: int64(v.d2.counts[2]), D2Ungrounded: int64(v.d2.counts[3]),
		D2Confessions: int64(len(v.d2.confessions)),
		D3Claim:       v.d3.claim, D3Lie: v.d3.lie, D3Severity: v.d3.severity,
		D4Status: v.d4.status, D4Tier: v.d4.tier, D4RepeatTier: v.d4.repeatTier,
		D4Repeats: int64(v.d4.repeats), D4InfraExcluded: int64(v.d4.infra), D4Gap: v.d4.gap,
		Trusted: v.trusted, Auditable: v.auditable,
		Provenance: res.Provenance,
	}
	for d, f := range [4]struct {
		status *string
		reason **string
	}{{&t.D1Check, &t.D1CheckReason}, {&t.D2Check, &t.D2CheckReason}, {&t.D3Check, &t.D3CheckReason}, {&t.D4Check, &t.D4CheckReason}} {
		*f.status = v.check[d].status
		if r := v.check[d].reason; r != "" {
			*f.reason = &r
		}
	}
	b, _ := json.Marshal(struct { // strings and plain structs only
		D1            string            `json:"d1"`
		D1Gates       []GateResult      `json:"d1_gates,omitempty"`
		D2            string            `json:"d2"`
		D2Confessions []string          `json:"d2_confessions,omitempty"`
		D2Suspects    []Suspect         `json:"d2_suspects,omitempty"`
		D2Votes       map[string][]bool `json:"d2_votes,omitempty"`
		D3            string            `json:"d3"`
		D4            string            `json:"d4"`
	}{v.d1.reason, v.d1.gates, v.d2.reason, v.d2.confessions, v.d2.suspects, v.d2.votes, v.d3.reason, v.d4.reason})
	t.Reasons = string(b)
	return t
}

// Suspects lists the D2 questions a model judge should vote on about a
// record: every TYPED or UNGROUNDED answer value and every confession.
func Suspects(r Record, opts Options) []Question {
	d2 := auditD2(&r, nil, opts.withDefaults().ReadOnlyTools)
	instr, final := orZero(r.Result.Instruction), orZero(r.Result.FinalMessage)
	var qs []Question
	for _, s := range d2.suspects {
		qs = append(qs, Question{ResultID: r.Result.ResultID, Instruction: instr, Value: s.Value, Evidence: final})
	}
	for _, c := range d2.confessions {
		qs = append(qs, Question{ResultID: r.Result.ResultID, Instruction: instr, Value: "", Evidence: c})
	}
	return qs
}

// optionError is a usage error (judge.OptionError) without a hint.
func optionError(format string, args ...any) error {
	return &judge.OptionError{Msg: fmt.Sprintf(format, args...)}
}

// CheckOptions checks a command's audit options, named by their flags of
// trustlake trust, and parses dimensions (--dimensions) into them. Zero
// MinRepeats and InfraPolicy (callers such as report that do not set them)
// mean the defaults: one other valid run, infrastructure failures excluded.
func CheckOptions(o Options, dimensions string) (Options, error) {
	if o.D2Policy != PolicyLenient && o.D2Policy != PolicyStrict {
		return o, optionError("trust: --d2-unconfirmed %q: want lenient or strict", o.D2Policy)
	}
	if o.Repeats < 1 {
		return o, optionError("trust: --repeats must be ≥ 1, got %d", o.Repeats)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return o, optionError("trust: --alpha must lie in (0, 1), got %g", o.Alpha)
	}
	o.MinRepeats = cmp.Or(o.MinRepeats, 1)
	o.InfraPolicy = cmp.Or(o.InfraPolicy, InfraExclude)
	if o.MinRepeats < 1 || o.MinRepeats > o.Repeats {
		return o, optionError("trust: --min-repeats must lie in [1, --repeats], got %d", o.MinRepeats)
	}
	if o.InfraPolicy != InfraExclude && o.InfraPolicy != InfraFailure {
		return o, optionError("trust: --infra-policy %q: want exclude or failure", o.InfraPolicy)
	}
	if o.Resamples < 0 {
		return o, optionError("trust: --bootstrap must be ≥ 1, got %d", o.Resamples)
	}
	if o.PassK < 0 {
		return o, optionError("trust: --pass-k must be ≥ 1, got %d", o.PassK)
	}
	dims, err := ParseDimensions(dimensions)
	if err != nil {
		return o, optionError("trust: --dimensions: %v", err)
	}
	o.Dimensions = dims
	return o, nil
}
