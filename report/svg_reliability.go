package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// reliability draws a reliability diagram: the share of episodes that
// passed (y) against the mean forecast (x) of each non-empty bin, a dot
// whose area grows with the bin's episodes, joined by a line; the
// diagonal is perfect calibration.
func reliability(title string, bins []ReliabilityBin) string {
	const size, m = 220, 36
	w, h := size+2*m, size+2*m
	x := func(v Num) string { return f3(m + float64(v)*size) }
	y := func(v Num) string { return f3(m + size - float64(v)*size) }
	most := 1
	for _, bn := range bins {
		most = max(most, bn.N)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart reliability" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		w, h, w, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>`, m, m, size, size)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="ref"/>`, m, m+size, m+size, m)
	var path []string
	for _, bn := range bins {
		if bn.N > 0 && bn.MeanP.Defined() && bn.FracY.Defined() {
			path = append(path, x(bn.MeanP)+","+y(bn.FracY))
		}
	}
	if len(path) > 1 {
		fmt.Fprintf(&b, `<polyline points="%s" class="curve"/>`, strings.Join(path, " "))
	}
	for _, bn := range bins {
		if bn.N == 0 || !bn.MeanP.Defined() || !bn.FracY.Defined() {
			continue
		}
		r := 2 + 5*math.Sqrt(float64(bn.N)/float64(most))
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" class="pt"><title>forecasts %.2f–%.2f: %d episodes, mean forecast %.3f, passed %.3f</title></circle>`,
			x(bn.MeanP), y(bn.FracY), f3(r), float64(bn.Lo), float64(bn.Hi), bn.N, float64(bn.MeanP), float64(bn.FracY))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick" text-anchor="middle">forecast P(success)</text>`, m+size/2, h-6)
	fmt.Fprintf(&b, `<text x="12" y="%d" class="tick" transform="rotate(-90 12 %d)" text-anchor="middle">share passed</text>`, m+size/2, m+size/2)
	for _, t := range []float64{0, 0.5, 1} {
		fmt.Fprintf(&b, `<text x="%s" y="%d" class="tick" text-anchor="middle">%.1f</text>`, x(Num(t)), m+size+14, t)
		fmt.Fprintf(&b, `<text x="%d" y="%s" class="tick" text-anchor="end">%.1f</text>`, m-4, y(Num(t)), t)
	}
	b.WriteString(`</svg>`)
	return b.String()
}
