package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// evil is markup that runs script if a page ever inserts it unescaped.
func evil(n int) string { return fmt.Sprintf(`<img src=x onerror=window.__pwned=%d>`, n) }

// rewriteJSON applies edit to the JSON object in file (one object, or one
// per line with lines set).
func rewriteJSON(t *testing.T, file string, lines bool, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	chunks := []string{string(b)}
	if lines {
		chunks = nil
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) != "" {
				chunks = append(chunks, sc.Text())
			}
		}
	}
	for _, c := range chunks {
		var m map[string]any
		if err := json.Unmarshal([]byte(c), &m); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		edit(m)
		nb, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(nb))
	}
	if err := os.WriteFile(file, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hostileNames are the user-controlled strings of the hostile lake.
var hostileNames = struct{ agent, task, judge, episode string }{
	agent: evil(1), task: "task-" + evil(2), judge: "judge-" + evil(3), episode: "ep-" + evil(4),
}

// buildHostileLake makes a lake whose agent, task, judge, episode id,
// instruction, final message, action texts, category, diagnostics and
// judge reasons are all markup.
func buildHostileLake(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	mustRun(t, "gen", "--out", data, "--tasks", "2", "--episodes-per-task", "1", "--screens", "--agents", "sim:agent-strong=1")
	eps, _ := filepath.Glob(filepath.Join(data, "episodes", "*"))
	first := filepath.Base(eps[0])
	rename := func(m map[string]any) {
		if m["episode_id"] == first {
			m["episode_id"] = hostileNames.episode
		}
	}
	for _, ep := range eps {
		rewriteJSON(t, filepath.Join(ep, "meta.json"), false, func(m map[string]any) {
			rename(m)
			m["task_id"] = hostileNames.task
			m["instruction"] = "Do it " + evil(5)
			m["final_message"] = "</pre><script>window.__pwned=6</script>" + evil(6)
			m["agent"].(map[string]any)["name"] = hostileNames.agent
		})
		rewriteJSON(t, filepath.Join(ep, "gt.json"), false, func(m map[string]any) {
			rename(m)
			m["pass"] = false
			m["category"] = "<svg onload=window.__pwned=7>"
			m["diagnostics"] = map[string]any{"why": evil(8)}
		})
		rewriteJSON(t, filepath.Join(ep, "actions.jsonl"), true, func(m map[string]any) {
			if _, ok := m["text"]; ok {
				m["text"] = evil(9)
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join(data, "verdicts", "sim_vlm-a__E*.jsonl"))
	for _, f := range files {
		rewriteJSON(t, f, true, func(m map[string]any) {
			rename(m)
			m["judge"] = hostileNames.judge
			m["evidence"] = "because " + evil(10)
		})
	}
	mustRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(data, "episodes"))
	mustRun(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, files...)...)
	mustRun(t, "--lake", lakeDir, "evidence")
	return lakeDir
}

// TestViewHostileNamesInChromium feeds markup through every page in the
// system Chromium: nothing it holds becomes an element (no img[src=x],
// svg or inline script in the DOM), no script runs (window.__pwned stays
// undefined, no dialog, no exception), and the markup shows as text.
func TestViewHostileNamesInChromium(t *testing.T) {
	lakeDir := buildHostileLake(t)
	v := startView(t, lakeDir, "--review", "--reviewer", "rev-"+evil(11))
	tok := v.csrf(t)
	if code, msg := v.post(t, fmt.Sprintf(`{"episode_id":%q,"category":"F-CLAIM","note":%q}`, hostileNames.episode, "note "+evil(12)),
		map[string]string{"X-CSRF-Token": tok}); code != 201 {
		t.Fatalf("review: %d %s", code, msg)
	}
	b := newBrowser(t, v.url)
	jc := hostileNames.judge + "@E2-lastk"
	ep := "episodes/" + url.PathEscape(hostileNames.episode)
	pages := []string{
		"",
		"episodes",
		"episodes?" + url.Values{"judge": {hostileNames.judge}, "condition": {"E2-lastk"}}.Encode(),
		"episodes?" + url.Values{"judge": {hostileNames.judge}, "condition": {"E2-lastk"}, "vs": {hostileNames.judge + "@E1-final"}, "agent": {hostileNames.agent}}.Encode(),
		ep + "?" + url.Values{"a": {jc}, "b": {hostileNames.judge + "@E1-final"}, "judge": {hostileNames.judge}, "condition": {"E2-lastk"}}.Encode(),
		"review?" + url.Values{"agent": {hostileNames.agent}}.Encode(),
		"episodes?" + url.Values{"outcome": {evil(13)}}.Encode(),
		"episodes?" + url.Values{"vs": {evil(14)}}.Encode(),
	}
	for _, p := range pages {
		b.do(t, chromedp.Navigate(v.url+p), chromedp.WaitReady(chromedp.CSS("main")))
		type state struct {
			Pwned    bool
			Injected int
			Text     string
		}
		st := value(t, b, chromedp.Evaluate[state](`({Pwned: window.__pwned !== undefined,
			Injected: document.querySelectorAll('img[src="x"], svg, script:not([src]), [onerror], [onload]').length,
			Text: document.body.innerText})`))
		if st.Pwned || st.Injected > 0 {
			t.Errorf("/%s: script ran (%v) or markup became elements (%d)", p, st.Pwned, st.Injected)
		}
		if !strings.Contains(st.Text, "<img src=x onerror=window.__pwned=") && !strings.Contains(st.Text, "<svg onload") {
			t.Errorf("/%s: the hostile strings are not shown as text", p)
		}
		if strings.Contains(p, "__pwned%3D13") || strings.Contains(p, "__pwned%3D14") { // refused outcome= and vs=: the page says why, with status 400
			b.check(t, "/"+p, "status of 400 (Bad Request)")
		} else {
			b.check(t, "/"+p)
		}
	}
	b.screenshot(t, "view-hostile-episode.png")
}

// TestViewHostileEpisode serves an episode with a 2 MB final message and
// 10,000 actions whose screenshot is a broken PNG: the API and the page
// answer, cut, each cut said in a notice, and the page stays small.
func TestViewHostileEpisode(t *testing.T) {
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	mustRun(t, "gen", "--out", data, "--tasks", "1", "--episodes-per-task", "1", "--screens", "--agents", "sim:agent-strong=1")
	eps, _ := filepath.Glob(filepath.Join(data, "episodes", "*"))
	ep := eps[0]
	id := filepath.Base(ep)
	if err := os.WriteFile(filepath.Join(ep, "screens", "broken.png"), []byte("\x89PNG\r\n\x1a\nnot really a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	var actions strings.Builder
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&actions, `{"step":%d,"action":"click","screen":"screens/broken.png"}`+"\n", i)
	}
	if err := os.WriteFile(filepath.Join(ep, "actions.jsonl"), []byte(actions.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("all done. ", 200<<10)
	rewriteJSON(t, filepath.Join(ep, "meta.json"), false, func(m map[string]any) {
		m["final_message"] = huge
		m["n_steps"] = 10000
	})
	mustRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(data, "episodes"))
	v := startView(t, lakeDir)
	var d struct {
		NActions int64    `json:"n_actions"`
		Notices  []string `json:"notices"`
		Actions  []struct {
			ScreenURL *string `json:"screen_url"`
		} `json:"actions"`
	}
	if code := v.get(t, "/api/episodes/"+id, &d); code != 200 {
		t.Fatalf("status %d", code)
	}
	urls := 0
	for _, a := range d.Actions {
		if a.ScreenURL != nil {
			urls++
		}
	}
	notices := strings.Join(d.Notices, "\n")
	if d.NActions != 10000 || len(d.Actions) != 1000 || urls != 100 {
		t.Errorf("n_actions %d, %d actions listed, %d screenshots linked: want 10000, 1000, 100", d.NActions, len(d.Actions), urls)
	}
	for _, want := range []string{fmt.Sprintf("final message cut to 65536 of %d bytes", len(huge)), "first 1000 of 10000 actions", "first 100 screenshots"} {
		if !strings.Contains(notices, want) {
			t.Errorf("notices %q lack %q", notices, want)
		}
	}
	code, page, _ := v.raw(t, "/episodes/"+id)
	if code != 200 || len(page) > 2<<20 || !strings.Contains(string(page), "first 1000 of 10000 actions") {
		t.Errorf("page: status %d, %d bytes", code, len(page))
	}
	if code, b, h := v.raw(t, *d.Actions[0].ScreenURL); code != 200 || h.Get("Content-Type") == "text/html; charset=utf-8" || len(b) == 0 {
		t.Errorf("broken screenshot: status %d, type %s", code, h.Get("Content-Type"))
	}
	b := newBrowser(t, v.url)
	b.do(t, chromedp.Navigate(v.url+"episodes/"+id), chromedp.WaitVisible(chromedp.CSS("table.judges")),
		chromedp.Click(chromedp.CSS("details summary")))
	broken := value(t, b, chromedp.Poll[int](`(() => { const im = [...document.querySelectorAll("img.screen")].slice(0, 5);
		return im.length > 0 && im.every(i => i.complete) ? im.filter(i => i.naturalWidth === 0).length : null })()`))
	if broken != 5 {
		t.Errorf("%d of the first 5 broken screenshots show as broken", broken)
	}
	b.screenshot(t, "view-hostile-big.png")
	b.mu.Lock()
	b.problems = nil // a broken image logs a console error: expected here
	b.mu.Unlock()
}
