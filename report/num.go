package report

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Num is a float64 that marshals NaN and ±Inf as JSON null and reads null
// back as NaN: undefined figures are null in report.json, never NaN.
type Num float64

// NaN is the undefined Num.
func NaN() Num { return Num(math.NaN()) }

// Defined reports whether n is a finite number.
func (n Num) Defined() bool { return !math.IsNaN(float64(n)) && !math.IsInf(float64(n), 0) }

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	if !n.Defined() {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(n), 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
// (null leaves the NaN in place).
func (n *Num) UnmarshalJSON(b []byte) error {
	*n = NaN()
	return json.Unmarshal(b, (*float64)(n))
}

// Interval is [lo, hi]; it marshals as null when either bound is undefined.
type Interval [2]Num

// NoInterval is the undefined interval.
func NoInterval() Interval { return Interval{NaN(), NaN()} }

// Defined reports whether both bounds are numbers.
func (iv Interval) Defined() bool { return iv[0].Defined() && iv[1].Defined() }

// MarshalJSON implements json.Marshaler.
func (iv Interval) MarshalJSON() ([]byte, error) {
	if !iv.Defined() {
		return []byte("null"), nil
	}
	return json.Marshal([2]Num(iv))
}

// UnmarshalJSON implements json.Unmarshaler.
// (null leaves the undefined interval in place).
func (iv *Interval) UnmarshalJSON(b []byte) error {
	*iv = NoInterval()
	return json.Unmarshal(b, (*[2]Num)(iv))
}

// num renders a value with three decimals, "–" when undefined.
func num(x Num) string {
	if !x.Defined() {
		return "–"
	}
	v := float64(x)
	if math.Abs(v) < 0.0005 {
		v = 0
	}
	return fmt.Sprintf("%.3f", v)
}

func ivString(iv Interval, open, close string) string {
	if !iv.Defined() {
		return ""
	}
	return fmt.Sprintf(" %s%s, %s%s", open, num(iv[0]), num(iv[1]), close)
}

// est renders value [Wilson] {bootstrap}.
func est(e Estimate) string {
	return num(e.Value) + ivString(e.Wilson, "[", "]") + ivString(e.Boot, "{", "}")
}

// testNames are the readable names of the tests.
var testNames = map[string]string{TestPairedCluster: "paired, task-clustered z", TestBootZ: "unpaired, task-bootstrap z", TestClusteredTwoProp: "unpaired, task-clustered two-proportion z",
	TestMcNemar: "paired McNemar", TestTwoProp: "two-proportion z", TestWelch: "Welch z", TestNone: "no test"}

// chg renders a change: "+0.012 (p 0.340, adjusted 0.910, paired, task-clustered z)", marked when
// significant; "" without a baseline.
func chg(e Estimate) string {
	c := e.Change
	if c == nil {
		return ""
	}
	s := "–"
	if c.Delta.Defined() {
		s = fmt.Sprintf("%+.3f", float64(c.Delta))
	}
	if c.Test == TestNone {
		return s + " (no test)"
	}
	s += fmt.Sprintf(" (p %s, adjusted %s, %s)", pString(c.P), pString(c.PAdjusted), testNames[c.Test])
	switch {
	case c.Regression:
		s += " REGRESSION"
	case c.Significant:
		s += " significant"
	}
	return s
}

// chgClass is the CSS class of a change cell.
func chgClass(e Estimate) string {
	switch c := e.Change; {
	case c == nil:
		return ""
	case c.Regression:
		return "reg"
	case c.Significant:
		return "sig"
	}
	return "ns"
}
