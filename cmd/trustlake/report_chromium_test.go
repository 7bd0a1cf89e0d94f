package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trustlake/trustlake/render"
)

// TestReportInChromium opens report.html in the system Chromium (through
// chromedp, newBrowser) and checks that it loads with no console message,
// exception or request other than the file itself, that every expected
// chart is there, that the tables read as text, and saves a full-page PNG
// screenshot into the test's artifact folder (go test -artifacts keeps it).
func TestReportInChromium(t *testing.T) {
	r := buildReportLake(t)
	pageURL := (&url.URL{Scheme: "file", Path: filepath.Join(r.out, "report.html")}).String()
	b := newBrowser(t, pageURL)
	b.do(t, chromedp.Navigate(pageURL), chromedp.WaitReady(chromedp.CSS("#summary")))
	time.Sleep(300 * time.Millisecond) // events that arrive right after the load (late requests, errors)
	b.check(t, "report.html")
	d := r.doc
	dims := map[string]bool{}
	for _, st := range d.Strata {
		dims[st.By] = true
	}
	// FPR forest, strata, claim sway, ROC each, reliability each, funnel and D4
	want := 1 + len(dims) + 1 + len(d.RewardModels) + len(d.Calibration) + 2
	if len(d.Calibration) == 0 {
		t.Fatal("the report has no calibration rows")
	}
	if charts := value(t, b, chromedp.Evaluate[int](`document.querySelectorAll('svg.chart').length`)); charts != want {
		t.Errorf("%d charts rendered, want %d", charts, want)
	}
	// charts with a laid-out box (not collapsed)
	if drawn := value(t, b, chromedp.Evaluate[int](`[...document.querySelectorAll('svg.chart')].filter(e => e.getBoundingClientRect().width > 200 && e.getBoundingClientRect().height > 50).length`)); drawn != want {
		t.Errorf("%d charts laid out with a visible size, want %d", drawn, want)
	}
	if rows := value(t, b, chromedp.Evaluate[int](`document.querySelectorAll('#judges table tr').length`)); rows != len(d.Judges)+1 {
		t.Errorf("judges table has %d rows, want %d", rows, len(d.Judges)+1)
	}
	text := value(t, b, chromedp.Evaluate[string](`document.querySelector('#judges table').innerText`))
	if j := d.Judges[0]; !strings.Contains(text, j.Judge) || !strings.Contains(text, j.Condition) || !strings.Contains(text, render.Num(float64(j.FPR.Value))) {
		t.Errorf("the judges table does not read %s %s %s:\n%.300s", j.Judge, j.Condition, render.Num(float64(j.FPR.Value)), text)
	}
	// One reliability diagram per calibration row, each with a dot per
	// non-empty bin; the calibration and agreement tables read their rows.
	dots := value(t, b, chromedp.Evaluate[[]int](`[...document.querySelectorAll('#calibration svg.reliability')].map(e => e.querySelectorAll('circle').length)`))
	if len(dots) != len(d.Calibration) {
		t.Errorf("%d reliability diagrams, want %d", len(dots), len(d.Calibration))
	}
	for i, n := range dots {
		want := 0
		for _, bin := range d.Calibration[i].Reliability {
			if bin.N > 0 {
				want++
			}
		}
		if n != want || n == 0 {
			t.Errorf("reliability diagram %d: %d dots, want %d", i, n, want)
		}
	}
	text = value(t, b, chromedp.Evaluate[string](`document.querySelector('#calibration table').innerText`))
	if c := d.Calibration[0]; !strings.Contains(text, c.Judge) || !strings.Contains(text, render.Num(float64(c.Brier.Value))) {
		t.Errorf("the calibration table does not read %s Brier %s:\n%.300s", c.Judge, render.Num(float64(c.Brier.Value)), text)
	}
	alphaRows := value(t, b, chromedp.Evaluate[int](`document.querySelectorAll('#agreement table tr').length`))
	if a := d.Agreement; a == nil || alphaRows != len(a.Runs)+len(a.Judges)+1 {
		t.Errorf("agreement table has %d rows, want one per α and a header: %+v", alphaRows, a)
	}
	// The corrected rates table has a row per pooled and per-agent rate;
	// the D4 table reads the varied rate's bootstrap interval.
	cr := d.CorrectedRates
	if cr == nil || len(cr.Rows) == 0 {
		t.Fatalf("the report has no corrected rates: %+v", cr)
	}
	rateRows := value(t, b, chromedp.Evaluate[int](`document.querySelectorAll('#corrected-rates table tr').length`))
	if rateRows != len(cr.Rows)+len(cr.ByAgent)+1 {
		t.Errorf("corrected rates table has %d rows, want %d and a header", rateRows, len(cr.Rows)+len(cr.ByAgent))
	}
	text = value(t, b, chromedp.Evaluate[string](`document.querySelector('#corrected-rates table').innerText`))
	if r := cr.Rows[0]; !strings.Contains(text, r.Judge) || !strings.Contains(text, render.Num(float64(r.GTOnly.Value))) {
		t.Errorf("the corrected rates table does not read %s ground truth only %s:\n%.300s", r.Judge, render.Num(float64(r.GTOnly.Value)), text)
	}
	text = value(t, b, chromedp.Evaluate[string](`document.querySelector('#trust table:last-of-type').innerText`))
	if iv := d.Trust.Total.D4.VariedRateBoot; !iv.Defined() || !strings.Contains(text, "{"+render.Num(float64(iv[0]))+", "+render.Num(float64(iv[1]))+"}") {
		t.Errorf("the D4 table does not read the varied rate interval %v:\n%.400s", iv, text)
	}
	if summary := value(t, b, chromedp.Evaluate[string](`document.getElementById('summary').innerText`)); summary != d.Summary.Line {
		t.Errorf("summary %q, want %q", summary, d.Summary.Line)
	}
	png := value(t, b, chromedp.FullScreenshot(100))
	if len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("screenshot: %d bytes", len(png))
	}
	out := filepath.Join(t.ArtifactDir(), "report.png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(png))
}
