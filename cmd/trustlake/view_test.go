package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html"
	"io"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trustlake/trustlake/metrics"
)

// buildViewLake makes a small lake with screenshots and evidence packs:
// gen --screens, ingest episodes and verdicts, evidence. It returns the
// lake and the generated data folder.
func buildViewLake(t *testing.T) (lakeDir, data string) {
	t.Helper()
	dir := t.TempDir()
	lakeDir, data = filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	mustRun(t, "gen", "--out", data, "--tasks", "12", "--episodes-per-task", "2", "--screens")
	mustRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(data, "episodes"))
	verdicts, _ := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
	mustRun(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, verdicts...)...)
	mustRun(t, "--lake", lakeDir, "evidence")
	return lakeDir, data
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := trustlakeExit(t, args...)
	if code != 0 {
		t.Fatalf("trustlake %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

// viewProc is a `trustlake view` running in this process.
type viewProc struct {
	url    string // http://127.0.0.1:PORT/
	cancel context.CancelFunc
	done   chan int
	mu     sync.Mutex
	stderr bytes.Buffer
}

// startView runs `trustlake --lake DIR view ARGS...` until the test ends
// and returns once it printed its address.
func startView(t *testing.T, lakeDir string, args ...string) *viewProc {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	v := &viewProc{cancel: cancel, done: make(chan int, 1)}
	go func() {
		code := run(ctx, append([]string{"trustlake", "--lake", lakeDir, "view"}, args...), nil, io.Discard, pw)
		pw.Close()
		v.done <- code
	}()
	r := bufio.NewReader(pr)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("trustlake view printed no address: %v (%q)", err, line)
	}
	const prefix = "trustlake view: "
	if !strings.HasPrefix(line, prefix) || !strings.HasPrefix(line, prefix+"http://127.0.0.1:") {
		t.Fatalf("first stderr line %q: want %shttp://127.0.0.1:PORT/", line, prefix)
	}
	v.url = strings.TrimSpace(strings.TrimPrefix(line, prefix))
	go func() {
		b, _ := io.ReadAll(r)
		v.mu.Lock()
		v.stderr.Write(b)
		v.mu.Unlock()
	}()
	t.Cleanup(func() { v.stop(t) })
	return v
}

// stop ends the server as SIGINT does and returns its exit code.
func (v *viewProc) stop(t *testing.T) int {
	v.cancel()
	select {
	case code := <-v.done:
		v.done <- code
		return code
	case <-time.After(60 * time.Second):
		t.Fatal("trustlake view did not stop within a minute")
	}
	return -1
}

// get fetches path and decodes its JSON into out; it returns the status.
func (v *viewProc) get(t *testing.T, path string, out any) int {
	t.Helper()
	resp, err := http.Get(v.url + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == 200 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("GET %s: %v\n%s", path, err, b)
		}
	}
	return resp.StatusCode
}

func (v *viewProc) raw(t *testing.T, path string) (int, []byte, http.Header) {
	t.Helper()
	resp, err := http.Get(v.url + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

type apiEpisodes struct {
	Episodes []struct {
		EpisodeID string  `json:"episode_id"`
		TaskID    string  `json:"task_id"`
		Majority  *string `json:"majority"`
		Category  *string `json:"category"`
	} `json:"episodes"`
	Next *string `json:"next"`
}

// TestViewOverviewIsMetrics checks that /api/overview is byte for byte
// `metrics --json` with the same options, that every count of the
// overview has exactly that many episodes behind its link (through every
// page of the list), and that the server exits 0 when stopped.
func TestViewOverviewIsMetrics(t *testing.T) {
	lakeDir, _ := buildViewLake(t)
	v := startView(t, lakeDir)
	for _, opts := range []struct{ gt, source, uncertain string }{
		{"verifier", "natural", "failure"}, {"any", "perturbed", "success"}, {"verifier", "natural", "exclude"},
	} {
		want := mustRun(t, "--lake", lakeDir, "metrics", "--json", "--gt", opts.gt, "--source", opts.source, "--uncertain-policy", opts.uncertain)
		q := url.Values{"gt": {opts.gt}, "source": {opts.source}, "uncertain": {opts.uncertain}}
		code, got, _ := v.raw(t, "/api/overview?"+q.Encode())
		if code != 200 || string(got) != want {
			t.Fatalf("/api/overview?%s: status %d, differs from metrics --json:\n%s\nwant\n%s", q.Encode(), code, got, want)
		}
		var rep metrics.Report
		if err := json.Unmarshal([]byte(want), &rep); err != nil {
			t.Fatal(err)
		}
		for _, row := range rep.Rows {
			for outcome, n := range map[string]int{"fp": row.FP, "tn": row.TN, "tp": row.TP, "fn": row.FN, "uncertain": row.NUncertain} {
				q := url.Values{"judge": {row.Judge}, "condition": {row.Condition}, "outcome": {outcome}, "gt": {opts.gt},
					"source": {opts.source}, "uncertain": {opts.uncertain}, "limit": {"7"}}
				if got := countPages(t, v, q); got != n {
					t.Errorf("%s@%s %s %v: %d episodes listed, metrics counts %d", row.Judge, row.Condition, outcome, opts, got, n)
				}
			}
		}
	}
	if code := v.stop(t); code != 0 {
		t.Errorf("trustlake view exited %d after the signal, want 0", code)
	}
}

// countPages follows the list's cursors to the end and counts the rows,
// checking that no episode shows twice.
func countPages(t *testing.T, v *viewProc, q url.Values) int {
	t.Helper()
	seen := map[string]bool{}
	for pages := 0; ; pages++ {
		var page apiEpisodes
		if code := v.get(t, "/api/episodes?"+q.Encode(), &page); code != 200 {
			t.Fatalf("/api/episodes?%s: status %d", q.Encode(), code)
		}
		for _, e := range page.Episodes {
			if seen[e.EpisodeID] {
				t.Fatalf("episode %s listed twice", e.EpisodeID)
			}
			seen[e.EpisodeID] = true
		}
		if page.Next == nil {
			return len(seen)
		}
		if pages > 1000 {
			t.Fatal("the list does not end")
		}
		q.Set("cursor", *page.Next)
	}
}

// TestViewEpisodeAndBlobs checks one episode read against `trustlake sql`
// (every run's verdict), that its screenshots and pack images are served by
// hash and hash to it, and that an unrecorded hash or a path is refused.
func TestViewEpisodeAndBlobs(t *testing.T) {
	lakeDir, _ := buildViewLake(t)
	v := startView(t, lakeDir)
	const id = "sim-20261010-t0001-a1-e001"
	var d struct {
		Instruction *string `json:"instruction"`
		Judges      []struct {
			Judge, Condition string
			Runs             []struct {
				Run     int64   `json:"run"`
				Verdict *string `json:"verdict"`
			} `json:"runs"`
		} `json:"judges"`
		Evidence []struct {
			Condition  string `json:"condition"`
			PackSHA256 string `json:"pack_sha256"`
			Pack       *struct {
				Images []struct{ SHA256, URL string } `json:"images"`
			} `json:"pack"`
		} `json:"evidence"`
		Actions []struct {
			ScreenURL *string `json:"screen_url"`
		} `json:"actions"`
	}
	if code := v.get(t, "/api/episodes/"+id, &d); code != 200 {
		t.Fatalf("status %d", code)
	}
	var got []string
	for _, j := range d.Judges {
		for _, r := range j.Runs {
			verdict := "null"
			if r.Verdict != nil {
				verdict = *r.Verdict
			}
			got = append(got, j.Judge+"|"+j.Condition+"|"+itoa(r.Run)+"|"+verdict)
		}
	}
	out := mustRun(t, "--lake", lakeDir, "sql", "--format", "csv",
		"SELECT judge || '|' || condition || '|' || run || '|' || coalesce(verdict, 'null') AS k FROM verdicts WHERE episode_id = '"+id+"' ORDER BY judge, condition, run")
	want := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("episode runs differ from trustlake sql:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d.Instruction == nil || !strings.Contains(*d.Instruction, "spreadsheet") {
		t.Errorf("instruction %v", d.Instruction)
	}
	if len(d.Evidence) != 4 {
		t.Fatalf("%d packs, want 4 conditions", len(d.Evidence))
	}
	var urls []string
	for _, e := range d.Evidence {
		if e.Pack == nil || len(e.Pack.Images) == 0 {
			t.Fatalf("%s: no pack images", e.Condition)
		}
		for _, im := range e.Pack.Images {
			urls = append(urls, im.URL)
		}
		var pack struct {
			SHA256   string `json:"sha256"`
			TaskText string `json:"task_text"`
		}
		if code := v.get(t, "/api/packs/"+e.PackSHA256, &pack); code != 200 || pack.SHA256 != e.PackSHA256 || pack.TaskText == "" {
			t.Errorf("/api/packs/%s: status %d, %+v", e.PackSHA256, code, pack)
		}
	}
	for _, a := range d.Actions {
		if a.ScreenURL != nil {
			urls = append(urls, *a.ScreenURL)
		}
	}
	for _, u := range urls {
		code, b, h := v.raw(t, u)
		if code != 200 || h.Get("Content-Type") != "image/png" || "/blobs/"+sha256Hex(b) != u {
			t.Errorf("%s: status %d, type %s, hash %s", u, code, h.Get("Content-Type"), sha256Hex(b))
		}
	}
	// Previous and next follow the list an episode was opened from.
	var all apiEpisodes
	list := url.Values{"judge": {"sim:vlm-b"}, "condition": {"E2+claim"}, "outcome": {"tn"}, "source": {"natural"}}
	v.get(t, "/api/episodes?"+list.Encode(), &all)
	if len(all.Episodes) < 3 {
		t.Fatalf("%d episodes in the list, want 3 or more", len(all.Episodes))
	}
	ids := make([]string, len(all.Episodes))
	for i, e := range all.Episodes {
		ids[i] = e.EpisodeID
	}
	link := regexp.MustCompile(`class="(prev|next)" href="/episodes/([^"?]+)\?`)
	for i, e := range all.Episodes {
		_, page, _ := v.raw(t, "/episodes/"+e.EpisodeID+"?"+list.Encode())
		got := map[string]string{}
		for _, m := range link.FindAllStringSubmatch(string(page), -1) {
			got[m[1]] = m[2]
		}
		if want := neighbourIDs(ids, i); !maps.Equal(got, want) {
			t.Errorf("episode %d of the list: links %v, want %v", i, got, want)
		}
	}
	// A list longer than the server holds links an episode's neighbours
	// through step links, which redirect to the same episodes.
	vs := startView(t, lakeDir, "--max-cached-list", "1")
	step := regexp.MustCompile(`class="(prev|next)" href="(/episodes/[^"]+step=(?:prev|next))"`)
	for i, e := range all.Episodes {
		_, page, _ := vs.raw(t, "/episodes/"+e.EpisodeID+"?"+list.Encode())
		got := map[string]string{}
		for _, m := range step.FindAllStringSubmatch(string(page), -1) {
			code, b, _ := vs.raw(t, html.UnescapeString(m[2]))
			if code == 200 {
				if id := regexp.MustCompile(`<h1>Episode <code>([^<]+)</code>`).FindSubmatch(b); id != nil {
					got[m[1]] = html.UnescapeString(string(id[1]))
				}
			}
		}
		if want := neighbourIDs(ids, i); !maps.Equal(got, want) {
			t.Errorf("episode %d of the long list: step links lead to %v, want %v", i, got, want)
		}
	}
	// A fresh server knows no hash from an episode read: it finds them in the lake.
	v2 := startView(t, lakeDir)
	if code, b, _ := v2.raw(t, urls[0]); code != 200 || "/blobs/"+sha256Hex(b) != urls[0] {
		t.Errorf("fresh server %s: status %d", urls[0], code)
	}
	for _, bad := range []string{"/blobs/" + strings.Repeat("0", 64), "/blobs/..%2F..%2Fetc%2Fpasswd", "/blobs/" + strings.Repeat("A", 64),
		"/api/packs/" + strings.Repeat("1", 64), "/api/episodes/no-such-episode"} {
		if code, _, _ := v.raw(t, bad); code != 404 {
			t.Errorf("GET %s: status %d, want 404", bad, code)
		}
	}
}

// neighbourIDs are the ids of the episodes before and after position i of
// a list, keyed "prev" and "next" (absent at an end).
func neighbourIDs(ids []string, i int) map[string]string {
	want := map[string]string{}
	if i > 0 {
		want["prev"] = ids[i-1]
	}
	if i < len(ids)-1 {
		want["next"] = ids[i+1]
	}
	return want
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestViewPicksUpNewVersion ingests while the server runs: the next
// request reads the new manifest version.
func TestViewPicksUpNewVersion(t *testing.T) {
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	mustRun(t, "gen", "--out", data, "--tasks", "6", "--episodes-per-task", "2")
	mustRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(data, "episodes"))
	first, _ := filepath.Glob(filepath.Join(data, "verdicts", "sim_vlm-a*.jsonl"))
	mustRun(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, first...)...)
	v := startView(t, lakeDir)
	var before, after metrics.Report
	v.get(t, "/api/overview", &before)
	rest, _ := filepath.Glob(filepath.Join(data, "verdicts", "sim_vlm-b*.jsonl"))
	mustRun(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, rest...)...)
	v.get(t, "/api/overview", &after)
	if len(before.Params.Judges) != 1 || len(after.Params.Judges) != 2 {
		t.Errorf("judges before %v, after the ingest %v: want 1 then 2", before.Params.Judges, after.Params.Judges)
	}
}

// TestViewNonLoopbackWarns starts the viewer on every interface: the
// address comes first, then a warning; a Host header naming no loopback
// name nor the --addr is still refused.
func TestViewNonLoopbackWarns(t *testing.T) {
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	mustRun(t, "gen", "--out", data, "--tasks", "2", "--episodes-per-task", "1")
	mustRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(data, "episodes"))
	ctx, cancel := context.WithCancel(t.Context())
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"trustlake", "--lake", lakeDir, "view", "--addr", "0.0.0.0:0"}, nil, io.Discard, &stderr)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "warning") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	lines := strings.Split(stderr.String(), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "trustlake view: http://") || !strings.Contains(lines[1], "not a loopback address") {
		t.Fatalf("stderr %q: want the address, then a warning", stderr.String())
	}
	_, port, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(lines[0], "trustlake view: http://"), "/"), "]:")
	if port == "" {
		_, port, _ = strings.Cut(strings.TrimSuffix(strings.TrimPrefix(lines[0], "trustlake view: http://"), "/"), ":")
	}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:"+port+"/api/session", nil)
	req.Host = "rebound.example:" + port
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("foreign Host on a public address: status %d, want 403", resp.StatusCode)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after the signal, want 0", code)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
