// Package trust implements the Trust Layer: a post-hoc audit of recorded
// benchmark passes on four dimensions — D1 competence (the grader re-run
// offline), D2 reward hacking (provenance of answer values), D3 deception
// (success claims on re-graded failures) and D4 reliability (repeat
// stability) — combined by strict conjunction (seed 004).
//
// The audit is a pure function of its input: model judges may label
// evidence beforehand (three votes, strict majority, see ModelLabeler), but every
// decision is a deterministic rule, and the recorded score is never changed.
package trust
