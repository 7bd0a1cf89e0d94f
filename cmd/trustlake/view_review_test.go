package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/report"
)

// post sends a review body with the given headers and returns the status
// and body.
func (v *viewProc) post(t *testing.T, body string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, v.url+"api/reviews", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, val := range headers {
		if k == "Host" {
			req.Host = val
			continue
		}
		req.Header.Set(k, val)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (v *viewProc) csrf(t *testing.T) string {
	t.Helper()
	var s struct {
		Review   bool   `json:"review"`
		Reviewer string `json:"reviewer"`
		CSRF     string `json:"csrf"`
	}
	v.get(t, "/api/session", &s)
	return s.CSRF
}

// TestViewSecurity checks the refusals: POST on a read-only server, POST
// without or with a wrong CSRF token, a foreign Host (DNS rebinding) on
// any request, a foreign Origin, an oversized body, an invalid category;
// that no CORS header is ever sent and every page carries the content
// policy; and that nothing was committed by the refused requests.
func TestViewSecurity(t *testing.T) {
	lakeDir, _ := buildViewLake(t)
	const id = "sim-20261010-t0001-a1-e001"
	body := `{"episode_id":"` + id + `","category":"F-CLAIM","pass":null,"note":null}`

	ro := startView(t, lakeDir)
	if code, _ := ro.post(t, body, map[string]string{"X-CSRF-Token": "x"}); code != 403 {
		t.Errorf("read-only POST: status %d, want 403", code)
	}
	if tok := ro.csrf(t); tok != "" {
		t.Errorf("a read-only session hands out a CSRF token")
	}

	rw := startView(t, lakeDir, "--review", "--reviewer", "tester")
	tok := rw.csrf(t)
	if len(tok) != 64 {
		t.Fatalf("csrf token %q", tok)
	}
	for name, c := range map[string]struct {
		headers map[string]string
		body    string
		want    int
	}{
		"no token":       {map[string]string{}, body, 403},
		"wrong token":    {map[string]string{"X-CSRF-Token": strings.Repeat("0", 64)}, body, 403},
		"foreign host":   {map[string]string{"X-CSRF-Token": tok, "Host": "evil.example:80"}, body, 403},
		"foreign origin": {map[string]string{"X-CSRF-Token": tok, "Origin": "http://evil.example"}, body, 403},
		"cross-site":     {map[string]string{"X-CSRF-Token": tok, "Sec-Fetch-Site": "cross-site"}, body, 403},
		"huge body":      {map[string]string{"X-CSRF-Token": tok}, `{"episode_id":"` + id + `","note":"` + strings.Repeat("a", 100<<10) + `"}`, 413},
		"bad category":   {map[string]string{"X-CSRF-Token": tok}, `{"episode_id":"` + id + `","category":"F-NOPE"}`, 400},
		"empty review":   {map[string]string{"X-CSRF-Token": tok}, `{"episode_id":"` + id + `"}`, 400},
		"unknown field":  {map[string]string{"X-CSRF-Token": tok}, `{"episode_id":"` + id + `","pass":true,"admin":1}`, 400},
		"no episode":     {map[string]string{"X-CSRF-Token": tok}, `{"episode_id":"nope","pass":true}`, 404},
	} {
		if code, msg := rw.post(t, c.body, c.headers); code != c.want {
			t.Errorf("%s: status %d (%s), want %d", name, code, msg, c.want)
		}
	}
	out := mustRun(t, "--lake", lakeDir, "sql", "--format", "csv", "SELECT count(*) AS n FROM reviews")
	if strings.TrimSpace(out) != "n\n0" {
		t.Errorf("refused requests committed reviews: %q", out)
	}
	for _, path := range []string{"/", "/episodes", "/episodes/" + id, "/review", "/api/overview", "/api/session"} {
		req, _ := http.NewRequest(http.MethodGet, rw.url+strings.TrimPrefix(path, "/"), nil)
		req.Header.Set("Origin", "http://evil.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for k := range resp.Header {
			if strings.HasPrefix(strings.ToLower(k), "access-control-") {
				t.Errorf("%s sends %s", path, k)
			}
		}
		if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("%s: content policy %q", path, resp.Header.Get("Content-Security-Policy"))
		}
		req.Host = "attacker.example"
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 {
			t.Errorf("GET %s with Host attacker.example: status %d, want 403", path, resp.StatusCode)
		}
	}
}

// TestViewReviewFeedsMetrics records reviews through the API, two
// reviewers at once, and checks what every other command sees: the
// category stratum of metrics moves the episode (review > verifier), a
// human pass/fail is the human reference of --gt human, the newest value
// wins, and export returns the whole history with who and the previous
// values.
func TestViewReviewFeedsMetrics(t *testing.T) {
	lakeDir, _ := buildViewLake(t)
	v := startView(t, lakeDir, "--review", "--reviewer", "alice")
	w := startView(t, lakeDir, "--review", "--reviewer", "bob") // a second process on the same lake
	var list apiEpisodes
	v.get(t, "/api/episodes?judge=sim:vlm-a&condition=E2-lastk&outcome=fp&source=natural", &list)
	if len(list.Episodes) < 3 {
		t.Fatalf("need 3 false positives, have %d", len(list.Episodes))
	}
	ep := list.Episodes[0]
	byCat := func(gt string) map[string]int {
		out := mustRun(t, "--lake", lakeDir, "metrics", "--json", "--by", "category", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--gt", gt)
		var rep metrics.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		m := map[string]int{}
		for _, r := range rep.Rows {
			if c, ok := r.Stratum["category"]; ok {
				m[c] = r.FP
			} else {
				m["all"], m["n"] = r.FP, r.NEpisodes
			}
		}
		return m
	}
	before := byCat("verifier")
	queue := func() map[string]bool {
		var q struct {
			Episodes []struct {
				EpisodeID string  `json:"episode_id"`
				Hardness  *string `json:"hardness"`
				Reviewed  bool    `json:"reviewed"`
			} `json:"episodes"`
		}
		v.get(t, "/api/episodes?reviewed=no&hardness=hard&accepted=any&limit=500", &q)
		ids := map[string]bool{}
		for _, e := range q.Episodes {
			if e.Reviewed || e.Hardness == nil || *e.Hardness != "hard" {
				t.Errorf("queue row %+v: want an unreviewed hard negative", e)
			}
			ids[e.EpisodeID] = true
		}
		return ids
	}
	if len(queue()) == 0 {
		t.Fatal("the review queue is empty")
	}
	tokV, tokW := v.csrf(t), w.csrf(t)
	post := func(p *viewProc, tok, body string) {
		if code, msg := p.post(t, body, map[string]string{"X-CSRF-Token": tok}); code != 201 {
			t.Fatalf("review %s: status %d: %s", body, code, msg)
		}
	}
	post(v, tokV, fmt.Sprintf(`{"episode_id":%q,"category":"F-SIDEEFFECT"}`, ep.EpisodeID))
	after := byCat("verifier")
	was := *ep.Category
	if after[was] != before[was]-1 || after["F-SIDEEFFECT"] != before["F-SIDEEFFECT"]+1 || after["all"] != before["all"] {
		t.Errorf("metrics by category after the review: %v, before %v (episode %s moved from %s to F-SIDEEFFECT)", after, before, ep.EpisodeID, was)
	}
	// The report reads the same effective category.
	rdir := filepath.Join(t.TempDir(), "report")
	mustRun(t, "--lake", lakeDir, "report", "--out", rdir)
	var doc report.Document
	rb, err := os.ReadFile(filepath.Join(rdir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rb, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, st := range doc.Strata {
		if st.Judge == "sim:vlm-a" && st.Condition == "E2-lastk" && st.By == "category" && st.Value == "F-SIDEEFFECT" {
			found = true
			if st.FP != after["F-SIDEEFFECT"] {
				t.Errorf("report: F-SIDEEFFECT FP %d, metrics %d", st.FP, after["F-SIDEEFFECT"])
			}
		}
	}
	if !found {
		t.Error("report has no F-SIDEEFFECT stratum for sim:vlm-a@E2-lastk")
	}
	// Two reviewers at once, in two processes: nothing is lost.
	var wg sync.WaitGroup
	for i, e := range list.Episodes[1:3] {
		p, tok := v, tokV
		if i == 1 {
			p, tok = w, tokW
		}
		for _, pass := range []string{"true", "false", "true"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if code, msg := p.post(t, fmt.Sprintf(`{"episode_id":%q,"pass":%s,"note":"n%s"}`, e.EpisodeID, pass, pass), map[string]string{"X-CSRF-Token": tok}); code != 201 {
					t.Errorf("concurrent review: %d %s", code, msg)
				}
			}()
		}
	}
	wg.Wait()
	// The newest pass/fail wins: fail then pass for the first episode.
	post(v, tokV, fmt.Sprintf(`{"episode_id":%q,"pass":false}`, ep.EpisodeID))
	post(w, tokW, fmt.Sprintf(`{"episode_id":%q,"pass":true,"note":"<b>looked again</b>"}`, ep.EpisodeID))
	q := queue()
	for _, e := range list.Episodes[:3] {
		if q[e.EpisodeID] {
			t.Errorf("reviewed episode %s is still in the review queue", e.EpisodeID)
		}
	}
	human := mustRun(t, "--lake", lakeDir, "sql", "--format", "csv", fmt.Sprintf("SELECT pass FROM human_reference WHERE episode_id = '%s'", ep.EpisodeID))
	if strings.TrimSpace(human) != "pass\ntrue" {
		t.Errorf("human reference after fail then pass: %q", human)
	}
	h := byCat("human")
	if h["n"] != 3 {
		t.Errorf("--gt human judges %d episodes, want the 3 reviewed", h["n"])
	}
	out := filepath.Join(t.TempDir(), "reviews.jsonl")
	mustRun(t, "--lake", lakeDir, "export", "--table", "reviews", "--format", "jsonl", "--out", out)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if len(lines) != 1+6+2 {
		t.Fatalf("export has %d reviews, want 9", len(lines))
	}
	var last struct {
		Reviewer, Note string
		PrevPass       *bool `json:"prev_pass"`
		Pass           *bool
		EpisodeID      string `json:"episode_id"`
	}
	for _, l := range lines {
		var r struct {
			EpisodeID    string  `json:"episode_id"`
			Reviewer     string  `json:"reviewer"`
			Category     *string `json:"category"`
			PrevCategory *string `json:"prev_category"`
			Pass         *bool   `json:"pass"`
			PrevPass     *bool   `json:"prev_pass"`
			Note         *string `json:"note"`
		}
		json.Unmarshal(l, &r)
		if r.Category != nil && (r.PrevCategory == nil || *r.PrevCategory != was) {
			t.Errorf("category review: previous %v, want %s", r.PrevCategory, was)
		}
		if r.Note != nil && *r.Note == "<b>looked again</b>" {
			last.Reviewer, last.PrevPass, last.Pass = r.Reviewer, r.PrevPass, r.Pass
		}
	}
	if last.Reviewer != "bob" || last.PrevPass == nil || *last.PrevPass || last.Pass == nil || !*last.Pass {
		t.Errorf("the last review: %+v, want bob, false -> true", last)
	}
}
