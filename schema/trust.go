package schema

import "encoding/json"

// D1 competence outcomes (seed 004): the grader re-run offline on the saved
// outputs either confirms the recorded verdict, contradicts it, upgrades an
// administrative-only failure, or cannot run.
const (
	D1Confirm       = "confirm"
	D1Contradiction = "contradiction"
	D1Upgrade       = "upgrade"
	D1Unverified    = "unverified"
)

// D2 reward-hacking statuses. Unconfirmed means some answer values are not
// grounded in a tool output or in the task's inputs, and no model judge has
// voted on them; untraceable means no trajectory was saved.
const (
	D2Clean       = "clean"
	D2Gamed       = "gamed"
	D2Unconfirmed = "unconfirmed"
	D2Untraceable = "untraceable"
)

// Provenance labels π(x) of one answer value (seed 004, D2).
const (
	ProvDerived    = "DERIVED"
	ProvGiven      = "GIVEN"
	ProvTyped      = "TYPED"
	ProvUngrounded = "UNGROUNDED"
)

// D3 claim kinds extracted from a final message.
const (
	ClaimCorrect    = "correct"    // asserts the result is right, or states a definitive answer
	ClaimCompletion = "completion" // asserts that the requested actions were carried out
	ClaimNone       = "none"
)

// D3 lie severities: hard when the failure is a substantive defect, soft
// when it is a numeric shortfall without damage.
const (
	SeverityHard = "hard"
	SeveritySoft = "soft"
)

// D4 reliability statuses. StableOther means the repeats agree on a grade
// tier other than the recorded one; it is reported separately and is not
// stable for the conjunction.
const (
	D4Stable       = "stable"
	D4StableOther  = "stable_other"
	D4Varied       = "varied"
	D4Insufficient = "insufficient"
)

// Grade tiers used by D4.
const (
	TierPass    = "pass"
	TierPartial = "partial"
	TierFail    = "fail"
)

// Trust is the Trust Layer's audit of one recorded result (table trust,
// partition benchmark=, natural key result_id). The recorded score is copied,
// never changed; Trusted is the strict conjunction of the four dimensions.
type Trust struct {
	ResultID      string  `parquet:"result_id" lake:"key"`
	Benchmark     string  `parquet:"-" lake:"partition=benchmark"`
	TaskID        string  `parquet:"task_id,dict"`
	Agent         string  `parquet:"agent,dict"`
	Trial         int64   `parquet:"trial"`
	RecordedScore float64 `parquet:"recorded_score"`
	RecordedPass  bool    `parquet:"recorded_pass"`

	D1Outcome    string  `parquet:"d1_outcome,dict"`              // D1Confirm, ...
	D1Regraded   *bool   `parquet:"d1_regraded_pass,optional"`    // null when unverified
	D1FailedGate *string `parquet:"d1_failed_gate,optional,dict"` // most severe failed gate type

	D2Status      string `parquet:"d2_status,dict"` // D2Clean, ...
	D2Values      int64  `parquet:"d2_values"`      // answer values traced
	D2Derived     int64  `parquet:"d2_derived"`
	D2Given       int64  `parquet:"d2_given"`
	D2Typed       int64  `parquet:"d2_typed"`
	D2Ungrounded  int64  `parquet:"d2_ungrounded"`
	D2Confessions int64  `parquet:"d2_confessions"`
	D2Policy      string `parquet:"d2_policy,dict"` // how unconfirmed values counted: lenient or strict

	D3Claim    string  `parquet:"d3_claim,dict"` // ClaimCorrect, ClaimCompletion, ClaimNone
	D3Lie      bool    `parquet:"d3_lie"`
	D3Severity *string `parquet:"d3_severity,optional,dict"` // SeverityHard|SeveritySoft when D3Lie

	D4Status        string   `parquet:"d4_status,dict"`               // D4Stable, ...
	D4Tier          string   `parquet:"d4_tier,dict"`                 // tier of the recorded run
	D4RepeatTier    *string  `parquet:"d4_repeat_tier,optional,dict"` // tier the repeats agree on, when stable
	D4Repeats       int64    `parquet:"d4_repeats"`                   // repeats used (infrastructure failures excluded)
	D4InfraExcluded int64    `parquet:"d4_infra_excluded"`
	D4Gap           *float64 `parquet:"d4_gap,optional"` // mean repeat score − recorded score

	Trusted bool   `parquet:"trusted"`
	Reasons string `parquet:"reasons"` // JSON object: per-dimension explanations

	// Audit scope (seed 004 §4.1): per dimension passed, failed or
	// not_checkable (CheckPassed, ...), with the reason when not checkable.
	D1Check       string  `parquet:"d1_check,dict"`
	D1CheckReason *string `parquet:"d1_check_reason,optional,dict"`
	D2Check       string  `parquet:"d2_check,dict"`
	D2CheckReason *string `parquet:"d2_check_reason,optional,dict"`
	D3Check       string  `parquet:"d3_check,dict"`
	D3CheckReason *string `parquet:"d3_check_reason,optional,dict"`
	D4Check       string  `parquet:"d4_check,dict"`
	D4CheckReason *string `parquet:"d4_check_reason,optional,dict"`
	// Dimensions is the conjunction the row was judged under ("D1,D2,D3,D4");
	// Auditable is true for a recorded pass checkable on every one of them.
	Dimensions  string `parquet:"dimensions,dict"`
	Auditable   bool   `parquet:"auditable"`
	InfraPolicy string `parquet:"infra_policy,dict"` // exclude or failure
	Provenance
}

// Check statuses of one Trust Layer dimension for one result.
const (
	CheckPassed       = "passed"
	CheckFailed       = "failed"
	CheckNotCheckable = "not_checkable"
)

// Grader kinds understood by the Trust Layer's D1 (Result.Grader "kind").
const (
	GraderTauBench = "tau-bench" // TauBenchGrader
	GraderOutputs  = "outputs"   // OutputsGrader
)

// TauBenchGrader is Result.Grader for a τ-bench run: what the saved
// trajectory lets D1 recompute. τ-bench's reward is 1 when the final database
// equals the state reached by replaying Actions (only the hash GTDataHash is
// recorded) and every string of Outputs appears in an agent reply.
type TauBenchGrader struct {
	Kind       string       `json:"kind"` // GraderTauBench
	UserID     string       `json:"user_id,omitempty"`
	Outputs    []string     `json:"outputs"`
	Actions    []GoldAction `json:"actions"`   // gold actions of the task (reads and writes)
	RActions   *float64     `json:"r_actions"` // recorded database check, when τ-bench reported it
	ROutputs   *float64     `json:"r_outputs"` // recorded outputs check, when τ-bench reported it
	GTDataHash string       `json:"gt_data_hash,omitempty"`
	Finished   bool         `json:"finished"` // false when the run ended without reward_info (step limit)
}

// GoldAction is one reference tool call of a task.
type GoldAction struct {
	Name   string          `json:"name"`
	Kwargs json.RawMessage `json:"kwargs"`
}

// OutputsGrader is Result.Grader for a benchmark whose grader checks that
// required strings appear in the agent's replies (case-insensitive, commas
// ignored, as τ-bench does). Gates, when given, type the checks for D1.
type OutputsGrader struct {
	Kind    string   `json:"kind"` // GraderOutputs
	Outputs []string `json:"outputs"`
}
