package report

import (
	"fmt"
	"math"
)

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
