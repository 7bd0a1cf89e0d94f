package report

import (
	"fmt"
	"math"
	"strings"
)

// reliability draws a reliability diagram: the share of episodes that
// passed (y) against the mean forecast (x) of each non-empty bin, a dot
// whose area grows with the bin's episodes, joined by a line; the
// diagonal is perfect calibration.
func reliability(title string, bins []ReliabilityBin) string {
	most := 1
	for _, bn := range bins {
		most = max(most, bn.N)
	}
	var b strings.Builder
	sq := square(220)
	sq.start(&b, "chart reliability", title)
	var shown []ReliabilityBin
	var path []string
	for _, bn := range bins {
		if bn.N > 0 && bn.MeanP.Defined() && bn.FracY.Defined() {
			shown, path = append(shown, bn), append(path, sq.x(bn.MeanP)+","+sq.y(bn.FracY))
		}
	}
	if len(path) > 1 {
		fmt.Fprintf(&b, `<polyline points="%s" class="curve"/>`, strings.Join(path, " "))
	}
	for _, bn := range shown {
		r := 2 + 5*math.Sqrt(float64(bn.N)/float64(most))
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" class="pt"><title>forecasts %.2f–%.2f: %d episodes, mean forecast %.3f, passed %.3f</title></circle>`,
			sq.x(bn.MeanP), sq.y(bn.FracY), f3(r), float64(bn.Lo), float64(bn.Hi), bn.N, float64(bn.MeanP), float64(bn.FracY))
	}
	sq.end(&b, "forecast P(success)", "share passed")
	return b.String()
}
