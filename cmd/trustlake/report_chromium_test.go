package main

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trustlake/trustlake/internal/testenv"
)

// TestReportInChromium opens report.html in a real headless Chromium and
// checks that it loads with no console error and no request other than the
// file itself, that every expected chart is there, that the tables read
// as text, and saves a full-page PNG screenshot into the test's artifact
// folder (go test -artifacts keeps it).
func TestReportInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		testenv.Missing(t, testenv.Chromium, "no chromium on PATH (Debian package chromium; make deps)")
	}
	r := buildReportLake(t)
	page := filepath.Join(r.out, "report.html")
	c, err := startCDP(t.Context(), bin, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	var target struct{ TargetID string }
	if err := c.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var att struct{ SessionID string }
	if err := c.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		t.Fatal(err)
	}
	s := att.SessionID
	for _, m := range []string{"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"} {
		if err := c.call(s, m, map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	pageURL := (&url.URL{Scheme: "file", Path: page}).String()
	if err := c.call(s, "Page.navigate", map[string]any{"url": pageURL}, nil); err != nil {
		t.Fatal(err)
	}
	var problems, requests []string
	deadline := time.After(30 * time.Second)
wait:
	for {
		select {
		case ev := <-c.events:
			if ev.SessionID != s {
				continue
			}
			switch ev.Method {
			case "Page.loadEventFired":
				break wait
			case "Network.requestWillBeSent":
				var p struct{ Request struct{ URL string } }
				json.Unmarshal(ev.Params, &p)
				if p.Request.URL != pageURL {
					requests = append(requests, p.Request.URL)
				}
			case "Runtime.exceptionThrown", "Runtime.consoleAPICalled", "Log.entryAdded":
				problems = append(problems, ev.Method+": "+string(ev.Params))
			}
		case <-deadline:
			t.Fatalf("report.html did not load in 30s; chromium said:\n%s", c.stderr.String())
		}
	}
	// Events that arrive right after the load (late requests, errors).
	time.Sleep(300 * time.Millisecond)
	for len(c.events) > 0 {
		ev := <-c.events
		if ev.SessionID == s && ev.Method == "Network.requestWillBeSent" {
			requests = append(requests, string(ev.Params))
		}
		if ev.SessionID == s && (ev.Method == "Runtime.exceptionThrown" || ev.Method == "Log.entryAdded" || ev.Method == "Runtime.consoleAPICalled") {
			problems = append(problems, ev.Method+": "+string(ev.Params))
		}
	}
	if len(problems) > 0 {
		t.Errorf("console messages or errors: %v", problems)
	}
	if len(requests) > 0 {
		t.Errorf("the page made requests besides itself: %v", requests)
	}
	eval := func(expr string, out any) {
		t.Helper()
		var res struct {
			Result struct{ Value json.RawMessage }
		}
		if err := c.call(s, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			t.Fatalf("%s: %v (%s)", expr, err, res.Result.Value)
		}
	}
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
	var charts int
	eval(`document.querySelectorAll('svg.chart').length`, &charts)
	if charts != want {
		t.Errorf("%d charts rendered, want %d", charts, want)
	}
	var drawn int // charts with a laid-out box (not collapsed)
	eval(`[...document.querySelectorAll('svg.chart')].filter(e => e.getBoundingClientRect().width > 200 && e.getBoundingClientRect().height > 50).length`, &drawn)
	if drawn != want {
		t.Errorf("%d charts laid out with a visible size, want %d", drawn, want)
	}
	var rows int
	eval(`document.querySelectorAll('#judges table tr').length`, &rows)
	if rows != len(d.Judges)+1 {
		t.Errorf("judges table has %d rows, want %d", rows, len(d.Judges)+1)
	}
	var text string
	eval(`document.querySelector('#judges table').innerText`, &text)
	if j := d.Judges[0]; !strings.Contains(text, j.Judge) || !strings.Contains(text, j.Condition) || !strings.Contains(text, num(float64(j.FPR.Value))) {
		t.Errorf("the judges table does not read %s %s %s:\n%.300s", j.Judge, j.Condition, num(float64(j.FPR.Value)), text)
	}
	// One reliability diagram per calibration row, each with a dot per
	// non-empty bin; the calibration and agreement tables read their rows.
	var dots []int
	eval(`[...document.querySelectorAll('#calibration svg.reliability')].map(e => e.querySelectorAll('circle').length)`, &dots)
	if len(dots) != len(d.Calibration) {
		t.Errorf("%d reliability diagrams, want %d", len(dots), len(d.Calibration))
	}
	for i, n := range dots {
		want := 0
		for _, b := range d.Calibration[i].Reliability {
			if b.N > 0 {
				want++
			}
		}
		if n != want || n == 0 {
			t.Errorf("reliability diagram %d: %d dots, want %d", i, n, want)
		}
	}
	eval(`document.querySelector('#calibration table').innerText`, &text)
	if c := d.Calibration[0]; !strings.Contains(text, c.Judge) || !strings.Contains(text, num(float64(c.Brier.Value))) {
		t.Errorf("the calibration table does not read %s Brier %s:\n%.300s", c.Judge, num(float64(c.Brier.Value)), text)
	}
	var alphaRows int
	eval(`document.querySelectorAll('#agreement table tr').length`, &alphaRows)
	if a := d.Agreement; a == nil || alphaRows != len(a.Runs)+len(a.Judges)+1 {
		t.Errorf("agreement table has %d rows, want one per α and a header: %+v", alphaRows, a)
	}
	// The corrected rates table has a row per pooled and per-agent rate;
	// the D4 table reads the varied rate's bootstrap interval.
	cr := d.CorrectedRates
	if cr == nil || len(cr.Rows) == 0 {
		t.Fatalf("the report has no corrected rates: %+v", cr)
	}
	var rateRows int
	eval(`document.querySelectorAll('#corrected-rates table tr').length`, &rateRows)
	if rateRows != len(cr.Rows)+len(cr.ByAgent)+1 {
		t.Errorf("corrected rates table has %d rows, want %d and a header", rateRows, len(cr.Rows)+len(cr.ByAgent))
	}
	eval(`document.querySelector('#corrected-rates table').innerText`, &text)
	if r := cr.Rows[0]; !strings.Contains(text, r.Judge) || !strings.Contains(text, num(float64(r.GTOnly.Value))) {
		t.Errorf("the corrected rates table does not read %s ground truth only %s:\n%.300s", r.Judge, num(float64(r.GTOnly.Value)), text)
	}
	eval(`document.querySelector('#trust table:last-of-type').innerText`, &text)
	if iv := d.Trust.Total.D4.VariedRateBoot; !iv.Defined() || !strings.Contains(text, "{"+num(float64(iv[0]))+", "+num(float64(iv[1]))+"}") {
		t.Errorf("the D4 table does not read the varied rate interval %v:\n%.400s", iv, text)
	}
	var summary string
	eval(`document.getElementById('summary').innerText`, &summary)
	if summary != d.Summary.Line {
		t.Errorf("summary %q, want %q", summary, d.Summary.Line)
	}
	var shot struct{ Data string }
	if err := c.call(s, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot); err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("screenshot: %d bytes, %v", len(png), err)
	}
	out := filepath.Join(t.ArtifactDir(), "report.png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(png))
}
