package judge

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// redirector answers every judge call with a redirect to target.
func redirector(t *testing.T, code int, target string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, code)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A redirected judge call is an error: never followed (a 301/302/303 would
// turn the POST into a GET without the pack and record that reply), and the
// key never reaches the redirect's target, on another port of the same host
// or on another host.
func TestRedirectIsRefused(t *testing.T) {
	for _, format := range []string{"openai", "anthropic"} {
		for _, code := range []int{301, 302, 303, 307, 308} {
			for _, host := range []string{"127.0.0.1", "localhost"} {
				t.Run(fmt.Sprintf("%s/%d/%s", format, code, host), func(t *testing.T) {
					target := newFakeAPI(t, format) // would answer with a verdict
					port := target.srv.URL[strings.LastIndex(target.srv.URL, ":"):]
					from := redirector(t, code, "http://"+host+port)
					h := HTTPOptions{BaseURL: from.URL, APIKey: testKey, Client: NewHTTPClient(1)}
					var b Backend = &OpenAI{h}
					if format == "anthropic" {
						b = &Anthropic{h}
					}
					l := testLake(t, []*Source{oneEpisodeLake(t)}, []string{E1Final})
					sum, err := Run(t.Context(), l, RunOptions{Judge: "j", Model: "m", Runs: 2, Conditions: []JudgeCondition{{E1Final, E1Final}},
						Backend: b, Concurrency: 1, RetryBase: 1})
					var ie *IncompleteError
					if !errors.As(err, &ie) || !strings.Contains(err.Error(), "redirect") || !strings.Contains(err.Error(), "refused") {
						t.Errorf("got %v, want an incomplete run stopped by the redirect", err)
					}
					if sum.Verdicts != 0 || sum.Calls != 1 || len(verdictRows(t, l)) != 0 {
						t.Errorf("summary %+v: want one call and no verdict", sum)
					}
					if n := len(target.requests()); n != 0 {
						t.Errorf("the redirect's target got %d request(s) (headers %v)", n, target.requests()[0].header)
					}
				})
			}
		}
	}
	// The backend on its own (as trust's labeller calls it) refuses too, with
	// the default client.
	target := newFakeAPI(t, "openai")
	from := redirector(t, 307, target.srv.URL)
	_, err := (&OpenAI{HTTPOptions{BaseURL: from.URL, APIKey: testKey}}).Call(t.Context(), bareRequest())
	if !IsRedirect(err) || len(target.requests()) != 0 {
		t.Errorf("default client: %v, %d request(s) at the target", err, len(target.requests()))
	}
}
