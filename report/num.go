package report

import (
	"encoding/json"
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
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = NaN()
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
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
func (iv *Interval) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*iv = NoInterval()
		return nil
	}
	var v [2]Num
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*iv = Interval(v)
	return nil
}
