package metrics

import "errors"

// Errors of bad input: a cmd maps them to usage errors.
var (
	// ErrBadOption is an invalid option value.
	ErrBadOption = errors.New("bad option")
	// ErrUnknown is a judge or condition the lake does not hold; the
	// message lists what exists.
	ErrUnknown = errors.New("unknown judge or condition")
	// ErrNoVerdicts means the lake holds no verdicts.
	ErrNoVerdicts = errors.New("no verdicts")
	// ErrNoGroundTruth means no judged episode has ground truth, so no
	// metric can be computed.
	ErrNoGroundTruth = errors.New("no ground truth")
	// ErrScoreOnly means a score-only judge (reward model) was asked for
	// without a threshold.
	ErrScoreOnly = errors.New("score-only judge needs a threshold")
)
