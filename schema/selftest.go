package schema

import (
	"time"
)

// SelfTest is one fixture of one task's verifier run through `trustlake
// tasks check --record`: the evidence that a verifier was tested on pass
// and fail states and answered the same twice (seed §3.2). Not
// partitioned; natural key (verifier_sha256, fixture).
type SelfTest struct {
	TaskID         string     `parquet:"task_id,dict"`
	VerifierSHA256 string     `parquet:"verifier_sha256,dict" lake:"key"`
	Fixture        string     `parquet:"fixture" lake:"key"` // "pass/done", "fail/not_saved"
	WantPass       bool       `parquet:"want_pass"`
	WantCategory   *string    `parquet:"want_category,optional,dict"`
	GotPass        bool       `parquet:"got_pass"`
	GotCategory    *string    `parquet:"got_category,optional,dict"`
	Deterministic  bool       `parquet:"deterministic"`
	OK             bool       `parquet:"ok"`
	Error          *string    `parquet:"error,optional"`
	Sandbox        string     `parquet:"sandbox,dict"`                                         // docker, bwrap or none (in process)
	RanAt          *time.Time `parquet:"ran_at,optional,timestamp(microsecond)" lake:"nohash"` // re-running an unchanged self-test is a no-op
	Provenance
}

// Validate checks a self-test row; it returns a *FieldError or nil.
func (s *SelfTest) Validate() error {
	return collect(checkID("task_id", s.TaskID), checkID("verifier_sha256", s.VerifierSHA256), checkID("fixture", s.Fixture))
}
