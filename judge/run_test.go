package judge

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trustlake/trustlake/lake"
)

func manyEpisodes(t *testing.T, n int) []*Source {
	root := t.TempDir()
	var out []*Source
	for i := 0; i < n; i++ {
		out = append(out, screenEpisode(t, root, fmt.Sprintf("ep%02d", i), 3, 16, 12))
	}
	return out
}

func keysOnce(t *testing.T, l *lake.Lake, want int) {
	t.Helper()
	seen := map[string]int{}
	for _, v := range verdictRows(t, l) {
		seen[fmt.Sprintf("%s/%s/%s/%d", v.EpisodeID, v.Judge, v.Condition, v.Run)]++
	}
	if len(seen) != want {
		t.Errorf("%d distinct verdict keys, want %d", len(seen), want)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s: %d rows", k, n)
		}
	}
}

func TestBudgetThenResume(t *testing.T) {
	api := newFakeAPI(t, "openai")
	l := testLake(t, manyEpisodes(t, 6), []string{E1Final, E2LastK})
	o := RunOptions{Judge: "vlm", Model: "m", Runs: 3, Conditions: []JudgeCondition{{E1Final, E1Final}, {E2LastK, E2LastK}},
		Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL}}, MaxCalls: 10, BatchRows: 4}
	sum, err := Run(t.Context(), l, o)
	var ie *IncompleteError
	if !errors.As(err, &ie) || ie.Left != 26 || sum.Verdicts != 10 || sum.Calls != 10 || !strings.Contains(err.Error(), "26 call(s) left") {
		t.Fatalf("first run: %v %+v", err, sum)
	}
	keysOnce(t, l, 10)
	o.MaxCalls = 0
	sum, err = Run(t.Context(), l, o)
	if err != nil || sum.Skipped != 10 || sum.Verdicts != 26 || len(api.requests()) != 36 {
		t.Fatalf("resume: %v %+v (%d requests)", err, sum, len(api.requests()))
	}
	keysOnce(t, l, 36)
	// Nothing left: a third run calls nothing.
	if sum, err = Run(t.Context(), l, o); err != nil || sum.Planned != 0 || len(api.requests()) != 36 {
		t.Fatalf("third run: %v %+v", err, sum)
	}
}

func TestFailingBackendCommitsWhatItGot(t *testing.T) {
	api := newFakeAPI(t, "openai")
	api.fault = func(n int, w http.ResponseWriter) bool {
		if n < 5 {
			return false
		}
		status(500, "")(w)
		return true
	}
	l := testLake(t, manyEpisodes(t, 10), []string{E1Final})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "vlm", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
		Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL}}, Concurrency: 1, MaxRetries: 2, RetryBase: time.Millisecond, MaxFailures: 3})
	var ie *IncompleteError
	if !errors.As(err, &ie) || ie.Left != 5 || !strings.Contains(err.Error(), "backend keeps failing") || !strings.Contains(err.Error(), "HTTP 500") {
		t.Fatalf("got %v %+v", err, sum)
	}
	if sum.Verdicts != 5 || sum.Failed != 3 || sum.Retries != 6 {
		t.Errorf("summary %+v", sum)
	}
	keysOnce(t, l, 5)
}

func TestAPIKeyNeverLeaks(t *testing.T) {
	api := newFakeAPI(t, "openai")
	api.fault = func(n int, w http.ResponseWriter) bool { // a server that echoes the credentials
		w.WriteHeader(401)
		fmt.Fprintf(w, `{"error": "bad key %s"}`, testKey)
		return true
	}
	l := testLake(t, manyEpisodes(t, 2), []string{E1Final})
	_, err := Run(t.Context(), l, RunOptions{Judge: "vlm", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
		Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL, APIKey: testKey}}})
	if err == nil || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "credentials") {
		t.Fatalf("got %v", err)
	}
	filepath.WalkDir(l.Root(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), testKey) {
				t.Errorf("%s holds the API key", p)
			}
		}
		return nil
	})
}

func TestPromptVariantNeedsItsOwnCondition(t *testing.T) {
	l := testLake(t, manyEpisodes(t, 2), []string{E2Claim})
	ex := &Exec{Command: `echo '{"verdict": "success"}'`}
	base := RunOptions{Judge: "j", Runs: 1, Backend: ex, Conditions: []JudgeCondition{{E2Claim, E2Claim}}}
	if _, err := Run(t.Context(), l, base); err != nil {
		t.Fatal(err)
	}
	variant, _ := BuiltinPrompt(NoClaimRulePrompt)
	o := base
	o.Prompt, o.Runs = variant, 2
	if _, err := Run(t.Context(), l, o); !errors.Is(err, ErrPromptChanged) {
		t.Fatalf("variant under the default's condition: %v", err)
	}
	o.Conditions = []JudgeCondition{{"E2+claim-noclaimrule", E2Claim}}
	if sum, err := Run(t.Context(), l, o); err != nil || sum.Verdicts != 4 {
		t.Fatalf("variant under its own name: %v %+v", err, sum)
	}
	for _, v := range verdictRows(t, l) {
		want := base.Prompt.SHA256
		if v.Condition != E2Claim {
			want = variant.SHA256
		}
		if base.Prompt.SHA256 == "" {
			p, _ := BuiltinPrompt(DefaultPrompt)
			if v.Condition == E2Claim {
				want = p.SHA256
			}
		}
		if *v.PromptSHA256 != want {
			t.Errorf("%s: prompt %s, want %s", v.Condition, *v.PromptSHA256, want)
		}
	}
}

func TestConcurrencyAndRateBounds(t *testing.T) {
	var inflight, peak atomic.Int64
	api := newFakeAPI(t, "openai")
	api.fault = func(n int, w http.ResponseWriter) bool {
		if c := inflight.Add(1); c > peak.Load() {
			peak.Store(c)
		}
		time.Sleep(30 * time.Millisecond)
		inflight.Add(-1)
		return false
	}
	l := testLake(t, manyEpisodes(t, 12), []string{E1Final})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "vlm", Model: "m", Runs: 2, Conditions: []JudgeCondition{{E1Final, E1Final}},
		Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL}}, Concurrency: 3})
	if err != nil || sum.Verdicts != 24 {
		t.Fatal(err, sum)
	}
	if p := peak.Load(); p > 3 || p < 2 {
		t.Errorf("peak in flight %d, want 2..3 with --concurrency 3", p)
	}
	// 600 requests/min: the limiter spaces four requests over at least
	// three intervals (sleeps never end early, so this cannot flake).
	lim := newLimiter(600)
	start := time.Now()
	for i := 0; i < 4; i++ {
		if err := lim.wait(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("4 requests in %s at 600/min", d)
	}
	// A Retry-After pause holds back the next request.
	lim.pause(200 * time.Millisecond)
	start = time.Now()
	lim.wait(t.Context())
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("request %s after a 200ms pause", d)
	}
}

func TestDryRunCallsNothing(t *testing.T) {
	api := newFakeAPI(t, "openai")
	l := testLake(t, manyEpisodes(t, 3), []string{E1Final, E3Full})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "vlm", Model: "m", Runs: 3, DryRun: true,
		Conditions: []JudgeCondition{{E1Final, E1Final}, {E3Full, E3Full}}, Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL}}})
	if err != nil || len(api.requests()) != 0 || len(verdictRows(t, l)) != 0 {
		t.Fatal(err, len(api.requests()))
	}
	if sum.Planned != 18 || sum.Plan[0].Images != 9 || sum.Plan[1].Images != 27 || sum.Plan[1].Bytes <= sum.Plan[0].Bytes {
		t.Errorf("plan %+v", sum.Plan)
	}
}

func TestNoPacks(t *testing.T) {
	l := testLake(t, manyEpisodes(t, 1), []string{E1Final})
	_, err := Run(t.Context(), l, RunOptions{Judge: "j", Backend: &Exec{Command: "true"}, Conditions: []JudgeCondition{{E3Full, E3Full}}})
	if !errors.Is(err, ErrNoPack) || !strings.Contains(err.Error(), "trustlake evidence --conditions E3-full") {
		t.Errorf("got %v", err)
	}
}
