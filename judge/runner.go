package judge

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// More sentinel errors of the runner.
var (
	ErrPromptChanged = errors.New("prompt differs from the one these verdicts were made with")
	ErrIncomplete    = errors.New("judge run incomplete")
)

// RunOptions configure Run. Zero values mean the defaults.
type RunOptions struct {
	Judge       string // verdicts.judge
	BackendName string // openai, anthropic, exec, rm-http (recorded in extra)
	Backend     Backend
	Model       string // requested model id
	Temperature float64
	MaxTokens   int // 0 means 400
	Runs        int // runs per (episode, condition); 0 means 3
	Conditions  []JudgeCondition
	Prompt      Prompt          // zero means the built-in rubric
	Episodes    map[string]bool // only these; nil means every episode with a pack

	Concurrency   int           // calls in flight; 0 means 4
	RatePerMinute float64       // request rate cap; 0 means none
	MaxCalls      int64         // budget of backend calls, retries included; 0 means none
	MaxRetries    int           // retries per verdict; 0 means 5, negative means none
	RetryBase     time.Duration // first backoff; 0 means 500ms (doubles, jittered, capped at 30s)
	MaxRetryWait  time.Duration // cap of a Retry-After wait; 0 means MaxRetryWait (10 min)
	Timeout       time.Duration // per call; 0 means 120s
	MaxFailures   int           // stop after this many verdicts in a row failed; 0 means 20
	BatchRows     int           // commit after this many verdicts; 0 means 256
	BatchInterval time.Duration // or after this long; 0 means 2s
	DryRun        bool
	Secrets       Redactor // redacted from every message and stored text, besides the backend's own key

	Progress func(Progress) // called after every verdict or failure, from one goroutine
	Logger   *slog.Logger   // nil discards
}

func (o *RunOptions) applyDefaults() error {
	o.MaxTokens = positiveOr(o.MaxTokens, 400)
	o.Runs = positiveOr(o.Runs, 3)
	if o.Prompt.Text == "" {
		p, err := BuiltinPrompt(DefaultPrompt)
		if err != nil {
			return err
		}
		o.Prompt = p
	}
	o.Concurrency = positiveOr(o.Concurrency, 4)
	o.MaxRetries = max(cmp.Or(o.MaxRetries, 5), 0)
	o.RetryBase = positiveOr(o.RetryBase, 500*time.Millisecond)
	o.MaxRetryWait = min(positiveOr(o.MaxRetryWait, MaxRetryWait), MaxRetryWait)
	o.Timeout = positiveOr(o.Timeout, 120*time.Second)
	o.MaxFailures = positiveOr(o.MaxFailures, 20)
	o.BatchRows = positiveOr(o.BatchRows, 256)
	o.BatchInterval = positiveOr(o.BatchInterval, 2*time.Second)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	o.Secrets = append(append(Redactor(nil), o.Secrets...), backendSecrets(o.Backend)...)
	if o.Judge == "" || len(o.Conditions) == 0 {
		return errors.New("judge run: a judge name and at least one condition are required")
	}
	return nil
}

// Progress is the runner's state, for a progress line.
type Progress struct {
	Done, Total     int64 // verdicts obtained (this run) and planned
	Failed, Retries int64
	Elapsed         time.Duration
}

// PlanLine is one judge × condition of a plan.
type PlanLine struct {
	Judge     string `json:"judge"`
	Condition string `json:"condition"`
	Pack      string `json:"pack_condition"`
	Episodes  int    `json:"episodes"`
	Calls     int64  `json:"calls"`   // verdicts still to get
	Skipped   int64  `json:"skipped"` // already in the lake
	Images    int64  `json:"images"`  // images sent over those calls
	Bytes     int64  `json:"bytes"`   // pack bytes over those calls
}

// Summary says what a run did (or, for a dry run, would do).
type Summary struct {
	Plan         []PlanLine    `json:"plan"`
	Planned      int64         `json:"planned"`
	Skipped      int64         `json:"skipped"`
	Verdicts     int64         `json:"verdicts"` // committed by this run
	Calls        int64         `json:"calls"`    // backend calls, retries included
	Retries      int64         `json:"retries"`
	Failed       int64         `json:"failed"` // verdicts given up on after retries
	ParseErrors  int64         `json:"parse_errors"`
	InputTokens  int64         `json:"input_tokens"`
	OutputTokens int64         `json:"output_tokens"`
	Left         int64         `json:"left"` // verdicts still missing; a rerun gets them
	Commits      int64         `json:"commits"`
	Elapsed      time.Duration `json:"elapsed_ns"`
	Stopped      string        `json:"stopped,omitempty"` // why the run stopped early
	PromptSHA256 string        `json:"prompt_sha256"`
	DryRun       bool          `json:"dry_run"`
}

// IncompleteError says a run ended with verdicts missing; every verdict it
// got is committed. It matches ErrIncomplete.
type IncompleteError struct {
	Left   int64
	Reason string
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("%d call(s) left: %s; verdicts obtained so far are committed, run the same command again to resume", e.Left, e.Reason)
}

// Is makes IncompleteError match ErrIncomplete.
func (e *IncompleteError) Is(target error) bool { return target == ErrIncomplete }

type job struct {
	ev   *schema.Evidence
	cond JudgeCondition
	run  int64
}

type doneKey struct {
	episode, cond string
	run           int64
}

// plan reads the evidence and the judge's verdicts and lists the missing
// verdicts, in (condition, episode, run) order.
func plan(l *lake.Lake, o *RunOptions) ([]job, Summary, error) {
	packConds := map[string]bool{}
	for _, c := range o.Conditions {
		packConds[c.Pack] = true
	}
	evidence := map[string][]*schema.Evidence{}
	err := lake.ReadPartitions[schema.Evidence](l, lake.Evidence, func(v []string) bool { return packConds[v[0]] }, func(rows []schema.Evidence) error {
		for i := range rows {
			r := rows[i]
			if o.Episodes == nil || o.Episodes[r.EpisodeID] {
				evidence[r.Condition] = append(evidence[r.Condition], &r)
			}
		}
		return nil
	})
	if err != nil {
		return nil, Summary{}, err
	}
	names := map[string]bool{}
	for _, c := range o.Conditions {
		names[c.Name] = true
		if len(evidence[c.Pack]) == 0 {
			return nil, Summary{}, fmt.Errorf("%w for condition %s in the lake: run `trustlake evidence --conditions %s` first", ErrNoPack, c.Pack, c.Pack)
		}
		slices.SortFunc(evidence[c.Pack], func(a, b *schema.Evidence) int { return cmp.Compare(a.EpisodeID, b.EpisodeID) })
	}
	done := map[doneKey]bool{}
	var perr error
	err = lake.ReadPartitions[schema.Verdict](l, lake.Verdicts, func(v []string) bool { return v[0] == o.Judge && names[v[1]] }, func(rows []schema.Verdict) error {
		for i := range rows {
			r := &rows[i]
			if perr == nil && (r.PromptSHA256 == nil || *r.PromptSHA256 != o.Prompt.SHA256) {
				was := "no recorded prompt (ingested from a file)"
				if r.PromptSHA256 != nil {
					was = "prompt sha256 " + *r.PromptSHA256
				}
				perr = fmt.Errorf("%w: %s@%s already has verdicts with %s; this prompt (%s) is %s: run a prompt variant under its own condition name (--conditions NAME=%s)",
					ErrPromptChanged, o.Judge, r.Condition, was, o.Prompt.Name, o.Prompt.SHA256, r.Condition)
			}
			done[doneKey{r.EpisodeID, r.Condition, r.Run}] = true
		}
		return nil
	})
	if err != nil {
		return nil, Summary{}, err
	}
	if perr != nil {
		return nil, Summary{}, perr
	}
	var jobs []job
	sum := Summary{PromptSHA256: o.Prompt.SHA256, DryRun: o.DryRun}
	for _, c := range o.Conditions {
		line := PlanLine{Judge: o.Judge, Condition: c.Name, Pack: c.Pack, Episodes: len(evidence[c.Pack])}
		for _, ev := range evidence[c.Pack] {
			for run := int64(1); run <= int64(o.Runs); run++ {
				if done[doneKey{ev.EpisodeID, c.Name, run}] {
					line.Skipped++
					continue
				}
				jobs = append(jobs, job{ev: ev, cond: c, run: run})
				line.Calls++
				line.Images += ev.NImages
				line.Bytes += ev.PackBytes
			}
		}
		sum.Plan = append(sum.Plan, line)
		sum.Planned += line.Calls
		sum.Skipped += line.Skipped
	}
	return jobs, sum, nil
}
