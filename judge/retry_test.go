package judge

import (
	"testing"
	"time"
)

// A Retry-After of a billion seconds or a date in year 9999 waits at most
// MaxRetryWait.
func TestRetryAfterIsCapped(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"":                              0,
		"2":                             2 * time.Second,
		"0.5":                           500 * time.Millisecond,
		"1000000000":                    MaxRetryWait,
		"1e400":                         MaxRetryWait,
		"Inf":                           MaxRetryWait,
		"NaN":                           0,
		"-5":                            0,
		"Fri, 31 Dec 9999 23:59:59 GMT": MaxRetryWait,
		"Wed, 02 Dec 2026 12:00:30 GMT": 30 * time.Second,
		"Wed, 02 Dec 2020 12:00:30 GMT": 0,
		"soon":                          0,
	}
	for h, want := range cases {
		if got := retryAfter(h, now); got != want {
			t.Errorf("Retry-After %q: %s, want %s", h, got, want)
		}
	}
}

// Through the runner the wait is capped by MaxRetryWait and the retried
// call counts against the call budget.
func TestRunCapsRetryAfter(t *testing.T) {
	for _, h := range []string{"1000000000", "Fri, 31 Dec 9999 23:59:59 GMT"} {
		api := newFakeAPI(t, "openai")
		api.fault = onFirst(status(429, h))
		l := testLake(t, []*Source{oneEpisodeLake(t)}, []string{E1Final})
		start := time.Now()
		sum, err := Run(t.Context(), l, RunOptions{Judge: "j", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
			Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL}}, RetryBase: time.Millisecond, MaxRetryWait: 300 * time.Millisecond, MaxCalls: 2})
		if took := time.Since(start); err != nil || sum.Verdicts != 1 || sum.Calls != 2 || took > 10*time.Second {
			t.Errorf("Retry-After %q: %v %+v after %s", h, err, sum, took)
		}
		if reqs := api.requests(); len(reqs) == 2 && reqs[1].at.Sub(reqs[0].at) < 250*time.Millisecond {
			t.Errorf("Retry-After %q: retried after %s, before the capped wait", h, reqs[1].at.Sub(reqs[0].at))
		}
	}
}
