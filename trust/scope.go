package trust

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// Infrastructure policies: how a result marked with infra_error counts.
// Either way it is never a recorded pass (one rule: infra_error wins over
// a recorded pass, which is reported as a data warning).
const (
	InfraExclude = "exclude" // leaves every count: no recorded pass, no repeat, no pass^k trial
	InfraFailure = "failure" // a failed run (score 0): a D4 repeat in tier fail and a pass^k failure
)

// DimensionNames are the four dimensions in order.
var DimensionNames = [4]string{"D1", "D2", "D3", "D4"}

// Short reasons why a dimension cannot be checked for a result; the scope
// line counts results by these.
const (
	ReasonInfra        = "infrastructure failure"
	ReasonNoRegrade    = "no re-gradable output"
	ReasonNoTrajectory = "no trajectory"
	ReasonNoMessage    = "no final message"
	ReasonFewRepeats   = "too few repeats"
)

// ParseDimensions reads a --dimensions value such as "D3,D4" (case
// insensitive, any order, duplicates ignored) and returns the dimensions in
// order. "" means nil: all that apply.
func ParseDimensions(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		d := strings.ToUpper(strings.TrimSpace(f))
		if !slices.Contains(DimensionNames[:], d) {
			return nil, fmt.Errorf("dimension %q: want a comma-separated list of D1, D2, D3, D4", strings.TrimSpace(f))
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out, nil
}

// check is one dimension's status for one result.
type check struct {
	status string // schema.CheckPassed, schema.CheckFailed, schema.CheckNotCheckable
	reason string // one of the Reason* constants when not checkable
}

func passedIf(ok bool) check {
	if ok {
		return check{status: schema.CheckPassed}
	}
	return check{status: schema.CheckFailed}
}

func notCheckable(reason string) check {
	return check{status: schema.CheckNotCheckable, reason: reason}
}

// checks maps the four dimensions' outcomes to passed | failed |
// not_checkable(reason). A result marked as an infrastructure failure is not
// checkable on any dimension.
func (v *verdict) checks(d2Policy string) [4]check {
	if v.res.Infra != nil {
		nc := notCheckable(ReasonInfra)
		return [4]check{nc, nc, nc, nc}
	}
	var c [4]check
	switch v.d1.outcome {
	case schema.D1Unverified:
		c[0] = notCheckable(ReasonNoRegrade)
	case schema.D1Confirm:
		c[0] = passedIf(!v.res.RecordedPass || (v.d1.regraded != nil && *v.d1.regraded))
	default: // contradiction, upgrade
		c[0] = passedIf(false)
	}
	switch v.d2.status {
	case schema.D2Untraceable:
		c[1] = notCheckable(ReasonNoTrajectory)
	case schema.D2Unconfirmed:
		c[1] = passedIf(d2Policy == PolicyLenient)
	default:
		c[1] = passedIf(v.d2.status == schema.D2Clean)
	}
	if v.d3.noMessage {
		c[2] = notCheckable(ReasonNoMessage)
	} else {
		c[2] = passedIf(!v.d3.lie)
	}
	if v.d4.status == schema.D4Insufficient {
		c[3] = notCheckable(ReasonFewRepeats)
	} else {
		c[3] = passedIf(v.d4.status == schema.D4Stable)
	}
	return c
}

// chooseDimensions returns the conjunction: the requested dimensions, or
// (requested nil) every dimension checkable for at least one recorded pass;
// all four when there is no recorded pass. It also returns one notice per
// dimension on which no recorded pass is checkable.
func chooseDimensions(vs []verdict, requested []string) (dims [4]bool, notices []string) {
	passes := 0
	var checkable [4]int
	reasons := [4]map[string]int{{}, {}, {}, {}}
	for i := range vs {
		v := &vs[i]
		if !v.countedPass() {
			continue
		}
		passes++
		for d, c := range v.check {
			if c.status == schema.CheckNotCheckable {
				reasons[d][c.reason]++
			} else {
				checkable[d]++
			}
		}
	}
	for d, name := range DimensionNames {
		dims[d] = passes == 0 || checkable[d] > 0
		if requested != nil {
			dims[d] = slices.Contains(requested, name)
		}
		if passes == 0 || checkable[d] > 0 {
			continue
		}
		n := fmt.Sprintf("%s: nothing checkable: none of the %d recorded passes can be checked (%s)", name, passes, reasonList(reasons[d]))
		if dims[d] {
			n += "; chosen with --dimensions, so no recorded pass is auditable"
		} else {
			n += "; left out of the conjunction"
		}
		notices = append(notices, n)
	}
	return dims, notices
}

// reasonList formats reason counts as "r1: n1, r2: n2" in a stable order.
func reasonList(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for _, r := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s: %d", r, m[r]))
	}
	return strings.Join(parts, ", ")
}

// countedPass reports whether a result counts as a recorded pass: a
// recorded pass not marked as an infrastructure failure.
func (v *verdict) countedPass() bool { return v.res.RecordedPass && v.res.Infra == nil }

// dimsString names a conjunction: "D1–D4" for all four, else "D1,D3".
func dimsString(dims [4]bool) string {
	switch names := dimsList(dims); len(names) {
	case 4:
		return "D1–D4"
	case 0:
		return "none"
	default:
		return strings.Join(names, ",")
	}
}

// dimsList lists the chosen dimensions.
func dimsList(dims [4]bool) []string {
	out := []string{}
	for d, on := range dims {
		if on {
			out = append(out, DimensionNames[d])
		}
	}
	return out
}

// NotCheckable counts recorded passes that one dimension cannot check for
// one reason.
type NotCheckable struct {
	Dimension string `json:"dimension"`
	Reason    string `json:"reason"`
	N         int    `json:"n"`
}

// Scope says which recorded passes the trusted rate is computed over:
// those checkable on every chosen dimension (seed 004 §4.1).
type Scope struct {
	Dimensions     []string       `json:"dimensions"`
	RecordedPasses int            `json:"recorded_passes"`
	Auditable      int            `json:"auditable"`
	NotCheckable   []NotCheckable `json:"not_checkable"` // chosen dimensions only
	Line           string         `json:"line"`          // the scope in words, as printed
}

// scopeLine renders "auditable on D1–D4: n of N recorded passes; not
// checkable: D1 no re-gradable output (k), D2 no trajectory (m)".
func scopeLine(s Scope, dims [4]bool) string {
	line := fmt.Sprintf("auditable on %s: %d of %d recorded passes", dimsString(dims), s.Auditable, s.RecordedPasses)
	if len(s.NotCheckable) == 0 {
		return line + "; not checkable: none"
	}
	parts := make([]string, len(s.NotCheckable))
	for i, nc := range s.NotCheckable {
		parts[i] = fmt.Sprintf("%s %s (%d)", nc.Dimension, nc.Reason, nc.N)
	}
	return line + "; not checkable: " + strings.Join(parts, ", ")
}

// CheckCounts counts recorded passes per status on one dimension.
type CheckCounts struct {
	Passed       int `json:"passed"`
	Failed       int `json:"failed"`
	NotCheckable int `json:"not_checkable"`
}

// Checks holds CheckCounts per dimension.
type Checks struct {
	D1 CheckCounts `json:"d1"`
	D2 CheckCounts `json:"d2"`
	D3 CheckCounts `json:"d3"`
	D4 CheckCounts `json:"d4"`
}

func (c *Checks) add(d int, status string) {
	cc := [4]*CheckCounts{&c.D1, &c.D2, &c.D3, &c.D4}[d]
	count(status, []string{schema.CheckPassed, schema.CheckFailed}, &cc.Passed, &cc.Failed, &cc.NotCheckable)
}
