package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Charts are inline SVG drawn here: fixed geometry, text in the reader's
// own sans-serif font, no scripts, nothing loaded from anywhere. Each
// chart is one <svg class="chart"> element, so a test can count them.

const (
	chartW     = 760
	labelW     = 300
	rowH       = 18
	axisH      = 28
	plotRightM = 20
)

// forestRow is one line of a forest plot: a point with a Wilson whisker
// and, drawn thinner below it, a bootstrap whisker.
type forestRow struct {
	Label    string
	Value    Num
	Wilson   Interval
	Boot     Interval
	Bad      bool // drawn in the regression colour
	Group    bool // a group heading line without a point
	Note     string
	Baseline Num // the baseline value, drawn as a hollow mark
}

func f3(x float64) string { return fmt.Sprintf("%.1f", x) }

// forest draws rows on an x axis from lo to hi (a reference line at ref
// when ref lies inside).
func forest(title string, rows []forestRow, lo, hi, ref float64) string {
	h := axisH + rowH*len(rows) + 24
	plotW := float64(chartW - labelW - plotRightM)
	x := func(v float64) float64 {
		v = math.Max(lo, math.Min(hi, v))
		return float64(labelW) + (v-lo)/(hi-lo)*plotW
	}
	var b strings.Builder
	svgStart(&b, "chart", chartW, h, title)
	// Axis with ticks every 0.1 (or fifths of the span).
	top, bottom := 20.0, float64(20+rowH*len(rows))
	step := (hi - lo) / 5
	if hi-lo == 1 {
		step = 0.1
	}
	for t := lo; t <= hi+1e-9; t += step {
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="grid"/>`, f3(x(t)), f3(top), f3(x(t)), f3(bottom))
		fmt.Fprintf(&b, `<text x="%s" y="%s" class="tick" text-anchor="middle">%.1f</text>`, f3(x(t)), f3(bottom+14), t)
	}
	if ref > lo && ref < hi {
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="ref"/>`, f3(x(ref)), f3(top), f3(x(ref)), f3(bottom))
	}
	for i, r := range rows {
		y := top + float64(i)*rowH + rowH/2
		cls := "lbl"
		if r.Group {
			cls = "grp"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%s" class="%s" text-anchor="end">%s</text>`, labelW-8, f3(y+4), cls, html.EscapeString(r.Label))
		if r.Group {
			continue
		}
		mark := "pt"
		if r.Bad {
			mark = "pt bad"
		}
		if r.Wilson.Defined() {
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="wh"/>`, f3(x(float64(r.Wilson[0]))), f3(y-2), f3(x(float64(r.Wilson[1]))), f3(y-2))
		}
		if r.Boot.Defined() {
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="bt"/>`, f3(x(float64(r.Boot[0]))), f3(y+3), f3(x(float64(r.Boot[1]))), f3(y+3))
		}
		if r.Baseline.Defined() {
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3.5" class="base"/>`, f3(x(float64(r.Baseline))), f3(y))
		}
		if r.Value.Defined() {
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3.5" class="%s"><title>%s</title></circle>`, f3(x(float64(r.Value))), f3(y), mark,
				html.EscapeString(fmt.Sprintf("%s: %.3f %s", r.Label, float64(r.Value), r.Note)))
		} else {
			fmt.Fprintf(&b, `<text x="%s" y="%s" class="tick">undefined</text>`, f3(x(lo)+4), f3(y+4))
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="legend">● value  ━ Wilson  ─ task bootstrap  ○ baseline</text>`, labelW, h-2)
	b.WriteString(`</svg>`)
	return b.String()
}

// bars draws horizontal bars of the stages' counts (the Trust Layer funnel).
func bars(title string, stages []Stage) string {
	h := 20 + rowH*len(stages) + 10
	maxV := 1
	for _, s := range stages {
		maxV = max(maxV, s.Passes)
	}
	plotW := float64(chartW - labelW - plotRightM - 60)
	var b strings.Builder
	svgStart(&b, "chart", chartW, h, title)
	for i, s := range stages {
		y := 14 + float64(i*rowH)
		w := plotW * float64(s.Passes) / float64(maxV)
		fmt.Fprintf(&b, `<text x="%d" y="%s" class="lbl" text-anchor="end">%s</text>`, labelW-8, f3(y+12), html.EscapeString(s.Name))
		fmt.Fprintf(&b, `<rect x="%d" y="%s" width="%s" height="%d" class="bar"/>`, labelW, f3(y+2), f3(w), rowH-5)
		fmt.Fprintf(&b, `<text x="%s" y="%s" class="tick">%d</text>`, f3(float64(labelW)+w+5), f3(y+12), s.Passes)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// stacked draws one 100% stacked bar of the D4 tiers per agent.
func stacked(title string, agents []TrustAgent) string {
	names := []string{"stable", "stable at another tier", "varied", "insufficient"}
	h := 20 + rowH*len(agents) + 24
	plotW := float64(chartW - labelW - plotRightM)
	var b strings.Builder
	svgStart(&b, "chart", chartW, h, title)
	for i, a := range agents {
		parts := []int{a.D4.Stable, a.D4.StableOther, a.D4.Varied, a.D4.Insufficient}
		y := 14 + float64(i*rowH)
		fmt.Fprintf(&b, `<text x="%d" y="%s" class="lbl" text-anchor="end">%s</text>`,
			labelW-8, f3(y+12), html.EscapeString(a.Benchmark+" / "+a.Agent))
		total := 0
		for _, v := range parts {
			total += v
		}
		if total == 0 {
			continue
		}
		x := float64(labelW)
		for j, v := range parts {
			w := plotW * float64(v) / float64(total)
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%d" class="s%d"><title>%s: %d</title></rect>`,
				f3(x), f3(y+2), f3(w), rowH-5, j, html.EscapeString(names[j]), v)
			x += w
		}
	}
	var leg []string
	for j, n := range names {
		leg = append(leg, fmt.Sprintf(`<tspan class="s%dt">■</tspan> %s`, j, html.EscapeString(n)))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="legend">%s</text>`, labelW, h-4, strings.Join(leg, "  "))
	b.WriteString(`</svg>`)
	return b.String()
}

// roc draws a ROC curve with the diagonal and the chosen operating point.
func roc(title string, pts []ROCPoint, op ROCPoint) string {
	var b strings.Builder
	sq := square(260)
	sq.start(&b, "chart", title)
	var path []string
	for _, p := range pts {
		path = append(path, sq.x(p.FPR)+","+sq.y(p.TPR))
	}
	fmt.Fprintf(&b, `<polyline points="%s" class="curve"/>`, strings.Join(path, " "))
	if op.FPR.Defined() && op.TPR.Defined() {
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="4" class="pt bad"><title>held-out FPR %.3f, TPR %.3f</title></circle>`,
			sq.x(op.FPR), sq.y(op.TPR), float64(op.FPR), float64(op.TPR))
	}
	sq.end(&b, "false-positive rate", "true-positive rate")
	return b.String()
}

// svgStart opens a w × h chart of the given class with its title.
func svgStart(b *strings.Builder, class string, w, h int, title string) {
	fmt.Fprintf(b, `<svg class="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		class, w, h, w, h, html.EscapeString(title))
	fmt.Fprintf(b, `<title>%s</title>`, html.EscapeString(title))
}

// square is the unit square of ROC and reliability charts, drawn this many
// pixels wide inside a 36-pixel margin.
type square int

const squareMargin = 36

func (s square) x(v Num) string { return f3(squareMargin + float64(v)*float64(s)) }
func (s square) y(v Num) string { return f3(squareMargin + float64(s) - float64(v)*float64(s)) }

// start opens the chart with its frame and diagonal.
func (s square) start(b *strings.Builder, class, title string) {
	n, m := int(s), squareMargin
	svgStart(b, class, n+2*m, n+2*m, title)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>`, m, m, n, n)
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="ref"/>`, m, m+n, m+n, m)
}

// end writes the axis labels and ticks and closes the chart.
func (s square) end(b *strings.Builder, xLabel, yLabel string) {
	n, m := int(s), squareMargin
	fmt.Fprintf(b, `<text x="%d" y="%d" class="tick" text-anchor="middle">%s</text>`, m+n/2, n+2*m-6, xLabel)
	fmt.Fprintf(b, `<text x="12" y="%d" class="tick" transform="rotate(-90 12 %d)" text-anchor="middle">%s</text>`, m+n/2, m+n/2, yLabel)
	for _, t := range []Num{0, 0.5, 1} {
		fmt.Fprintf(b, `<text x="%s" y="%d" class="tick" text-anchor="middle">%.1f</text>`, s.x(t), m+n+14, t)
		fmt.Fprintf(b, `<text x="%d" y="%s" class="tick" text-anchor="end">%.1f</text>`, m-4, s.y(t), t)
	}
	b.WriteString(`</svg>`)
}

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
