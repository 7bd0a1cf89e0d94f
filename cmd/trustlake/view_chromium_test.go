package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/schema"
)

// browser is a headless system Chromium driven by chromedp, recording
// what a page must never do: throw, write to the console or the log, open
// a dialog, or request anything but the page's own origin.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, allowedPrefix string) *browser {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		testenv.Missing(t, testenv.Chromium, "no chromium on PATH (Debian package chromium; make deps)")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000), chromedp.Flag("disable-quic", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	listen := func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, "exception: "+e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			b.problems = append(b.problems, "console."+string(e.Type)+" called")
		case *cdplog.EventEntryAdded:
			b.problems = append(b.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
		case *page.EventJavascriptDialogOpening:
			b.problems = append(b.problems, "dialog: "+e.Message)
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		case *network.EventRequestWillBeSent:
			if !strings.HasPrefix(e.Request.URL, allowedPrefix) && !strings.HasPrefix(e.Request.URL, "data:") {
				b.problems = append(b.problems, "request outside the viewer: "+e.Request.URL)
			}
		}
	}
	if err := chromedp.Listen(ctx, listen); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return b
}

// do runs the steps with a minute's limit; the test fails on an error.
func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls a predicate across page loads (a review reloads the page,
// which ends a poll running in it) for up to a minute.
func (b *browser) waitFor(t *testing.T, predicate string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Poll[bool](predicate))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %v", predicate, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// value runs one action that returns a value.
func value[T any](t *testing.T, b *browser, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// check fails the test for every problem recorded since the last check,
// except those containing one of the expected strings.
func (b *browser) check(t *testing.T, where string, expected ...string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
next:
	for _, p := range b.problems {
		for _, e := range expected {
			if strings.Contains(p, e) {
				continue next
			}
		}
		t.Errorf("%s: %s", where, p)
	}
	b.problems = nil
}

// screenshot saves a full-page PNG into the test's artifact folder (go
// test -artifacts keeps it) and, when TRUSTLAKE_VIEW_SHOTS names a
// folder, there too.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	png := value(t, b, chromedp.FullScreenshot(100))
	for _, dir := range []string{t.ArtifactDir(), os.Getenv("TRUSTLAKE_VIEW_SHOTS")} {
		if dir == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestViewInChromium walks the viewer as a user would in the system
// Chromium: the overview, a judge's FP count (the list has that many
// episodes), the first episode (every screenshot loaded; the verdicts
// shown are trustlake sql's), then a category set with one key in
// --review mode, which metrics --json then counts.
func TestViewInChromium(t *testing.T) {
	lakeDir, _ := buildViewLake(t)
	v := startView(t, lakeDir, "--review", "--reviewer", "chromium")
	b := newBrowser(t, v.url)
	const judge, cond = "sim:vlm-a", "E2-lastk"
	fpOf := func() map[string]int {
		var rep metrics.Report
		out := mustRun(t, "--lake", lakeDir, "metrics", "--json", "--by", "category", "--judge", judge, "--condition", cond)
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		m := map[string]int{}
		for _, r := range rep.Rows {
			m[r.Stratum["category"]] = r.FP // "" is the overall row
		}
		return m
	}
	before := fpOf()

	fpLink := chromedp.Search(fmt.Sprintf(`//tr[td[1]=%q and td[2]=%q]//a[contains(@class,"fp")]`, judge, cond))
	b.do(t, chromedp.Navigate(v.url), chromedp.WaitVisible(chromedp.CSS("table.overview")))
	if fpText := value(t, b, chromedp.Text(fpLink)); fpText != fmt.Sprint(before[""]) || before[""] == 0 {
		t.Fatalf("overview FP of %s@%s: %q, metrics --json: %d", judge, cond, fpText, before[""])
	}
	b.screenshot(t, "view-overview.png")
	b.do(t, chromedp.Click(fpLink), chromedp.WaitVisible(chromedp.CSS("table.episodes")))
	loc := value(t, b, chromedp.Location())
	rows := value(t, b, chromedp.Evaluate[int](`document.querySelectorAll("table.episodes a.episode").length`))
	if rows != before[""] || !strings.Contains(loc, "outcome=fp") {
		t.Errorf("FP list %s: %d episodes, want %d", loc, rows, before[""])
	}
	b.screenshot(t, "view-episodes.png")
	id := value(t, b, chromedp.Text(chromedp.CSS("table.episodes a.episode")))
	b.do(t, chromedp.Click(chromedp.CSS("table.episodes a.episode")), chromedp.WaitVisible(chromedp.CSS("table.judges")))
	type loaded struct{ Total, Loaded int }
	shots := value(t, b, chromedp.Poll[loaded](`(() => { const im = [...document.querySelectorAll("img.shot")];
		return im.length > 0 && im.every(i => i.complete) ? {Total: im.length, Loaded: im.filter(i => i.naturalWidth > 0).length} : null })()`))
	if shots.Total == 0 || shots.Loaded != shots.Total {
		t.Errorf("episode %s: %d of %d screenshots loaded", id, shots.Loaded, shots.Total)
	}
	shown := value(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.judges > tbody > tr[data-judge]")].flatMap(tr =>
		[...tr.querySelectorAll("table.runs tbody tr")].map(r => tr.dataset.judge + "|" + tr.dataset.condition + "|" +
			r.cells[0].textContent + "|" + (r.cells[1].textContent || "null")))`))
	out := mustRun(t, "--lake", lakeDir, "sql", "--format", "csv",
		"SELECT judge || '|' || condition || '|' || run || '|' || coalesce(verdict, 'null') AS k FROM verdicts WHERE episode_id = '"+id+"' ORDER BY judge, condition, run")
	if want := strings.Split(strings.TrimSpace(out), "\n")[1:]; strings.Join(shown, "\n") != strings.Join(want, "\n") {
		t.Errorf("verdicts shown on %s:\n%s\ntrustlake sql:\n%s", id, strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	b.screenshot(t, "view-episode-full.png")
	// Two conditions of one judge side by side: the picture of docs/viewer.md.
	side := v.url + "episodes/" + id + "?a=" + url.QueryEscape(judge+"@E2-lastk") + "&b=" + url.QueryEscape(judge+"@E2+claim")
	b.do(t, chromedp.Navigate(side), chromedp.WaitVisible(chromedp.CSS(".side img.shot")))
	b.waitFor(t, `[...document.querySelectorAll(".side img.shot")].every(i => i.complete && i.naturalWidth > 0)`)
	top := value(t, b, chromedp.CaptureScreenshot())
	for _, dir := range []string{t.ArtifactDir(), os.Getenv("TRUSTLAKE_VIEW_SHOTS")} {
		if dir != "" {
			if err := os.WriteFile(filepath.Join(dir, "view-episode.png"), top, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	current := value(t, b, chromedp.Text(chromedp.CSS("#category")))
	key, cat := "6", schema.CatSideEffect
	if strings.Contains(current, cat) {
		key, cat = "7", schema.CatClaim
	}
	was := strings.Fields(current)[0]
	b.do(t, chromedp.KeyEvent(key))
	b.waitFor(t, fmt.Sprintf(`!!document.querySelector("#category") && document.querySelector("#category").textContent.startsWith(%q)`, cat))
	after := fpOf()
	if after[cat] != before[cat]+1 || after[was] != before[was]-1 || after[""] != before[""] {
		t.Errorf("metrics FP by category after key %s on %s (%s -> %s): %v, before %v", key, id, was, cat, after, before)
	}
	history := value(t, b, chromedp.Text(chromedp.CSS("table.reviews tbody")))
	if !strings.Contains(history, "chromium") || !strings.Contains(history, was+" → "+cat) {
		t.Errorf("review history shown: %q", history)
	}
	b.check(t, "viewer pages")
}
