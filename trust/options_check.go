package trust

import (
	"cmp"
	"fmt"

	"github.com/trustlake/trustlake/judge"
)

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
