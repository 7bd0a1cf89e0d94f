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
	VerifierSHA256 string     `parquet:"verifier_sha256,dict"`
	Fixture        string     `parquet:"fixture"` // "pass/done", "fail/not_saved"
	WantPass       bool       `parquet:"want_pass"`
	WantCategory   *string    `parquet:"want_category,optional,dict"`
	GotPass        bool       `parquet:"got_pass"`
	GotCategory    *string    `parquet:"got_category,optional,dict"`
	Deterministic  bool       `parquet:"deterministic"`
	OK             bool       `parquet:"ok"`
	Error          *string    `parquet:"error,optional"`
	Sandbox        string     `parquet:"sandbox,dict"` // docker, bwrap or none (in process)
	RanAt          *time.Time `parquet:"ran_at,optional,timestamp(microsecond)"`
	Provenance
}

// Key returns the natural key (verifier_sha256, fixture).
func (s *SelfTest) Key() string { return s.VerifierSHA256 + "\x00" + s.Fixture }

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (s *SelfTest) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(s.VerifierSHA256)
	k.str(s.Fixture)
	return k.sum()
}

// Partition returns no values: selftests are not partitioned.
func (s *SelfTest) Partition() []string { return nil }

// SetPartition does nothing: selftests are not partitioned.
func (s *SelfTest) SetPartition([]string) {}

// Hash returns a content hash over every stored field except provenance
// and the time of the run (re-running an unchanged self-test is a no-op).
func (s *SelfTest) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(s.TaskID)
	h.str(s.VerifierSHA256)
	h.str(s.Fixture)
	h.boolean(s.WantPass)
	h.pstr(s.WantCategory)
	h.boolean(s.GotPass)
	h.pstr(s.GotCategory)
	h.boolean(s.Deterministic)
	h.boolean(s.OK)
	h.pstr(s.Error)
	h.str(s.Sandbox)
	return h.sum()
}

// Validate checks a self-test row; it returns a *FieldError or nil.
func (s *SelfTest) Validate() error {
	return first(checkID("task_id", s.TaskID), checkID("verifier_sha256", s.VerifierSHA256), checkID("fixture", s.Fixture))
}
