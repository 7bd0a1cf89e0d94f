package judge

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Run gets the missing verdicts of one judge on the lake's evidence packs:
// Concurrency calls in flight, at most RatePerMinute, each retried with
// jittered backoff (honouring Retry-After). Verdicts are committed in
// atomic lake batches as they arrive, so a killed run loses at most the
// calls in flight and a rerun skips what is committed. When verdicts are
// left (budget spent, backend failing) it returns the summary and an
// *IncompleteError.
func Run(ctx context.Context, l *lake.Lake, opts RunOptions) (Summary, error) {
	if err := opts.applyDefaults(); err != nil {
		return Summary{}, err
	}
	jobs, sum, err := plan(l, &opts)
	if err != nil || opts.DryRun {
		return sum, err
	}
	r := &runner{o: &opts, l: l, store: NewStore(l), sum: &sum, start: time.Now(), cache: map[string]*Request{},
		lim: newLimiter(opts.RatePerMinute), results: make(chan schema.Verdict, 2*opts.Concurrency+opts.BatchRows)} // room for a batch: calls go on while one commits
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	commitErr := make(chan error, 1)
	go func() { commitErr <- r.commitLoop(ctx, stop) }()
	parallel(runCtx, opts.Concurrency, len(jobs), func(i int) { r.do(ctx, runCtx, stop, jobs[i]) })
	close(r.results)
	cerr := <-commitErr
	sum.Elapsed = time.Since(r.start)
	sum.Calls, sum.Retries, sum.Failed = r.calls.Load(), r.retries.Load(), r.failed.Load()
	sum.Left = sum.Planned - sum.Verdicts
	switch {
	case cerr != nil:
		return sum, cerr
	case ctx.Err() != nil:
		return sum, ctx.Err()
	case sum.Left > 0:
		reason := "stopped"
		if c := context.Cause(runCtx); c != nil && !errors.Is(c, context.Canceled) {
			reason = c.Error()
		} else if sum.Failed > 0 {
			reason = fmt.Sprintf("%d call(s) failed after retries (last: %v)", sum.Failed, r.lastErr.Load())
		}
		sum.Stopped = reason
		return sum, &IncompleteError{Left: sum.Left, Reason: reason}
	}
	return sum, nil
}

type runner struct {
	o       *RunOptions
	l       *lake.Lake
	store   *Store
	sum     *Summary // written by the commit loop only
	start   time.Time
	lim     *limiter
	results chan schema.Verdict

	calls, retries, failed atomic.Int64
	consecutive            atomic.Int64
	lastErr                atomic.Value

	cacheMu sync.Mutex
	cache   map[string]*Request // by pack sha256
	order   []string            // cache keys, oldest first
}

// request returns the (read-only) request for a pack: read, checked and
// rendered once, then shared by the runs of that pack while it stays in a
// small cache (jobs come pack by pack, runs inner).
func (r *runner) request(sha string) (*Request, error) {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	if req, ok := r.cache[sha]; ok {
		return req, nil
	}
	data, err := r.store.Get(sha)
	if err != nil {
		return nil, err
	}
	pack, err := DecodePack(data)
	if err != nil {
		return nil, err
	}
	o := r.o
	req := &Request{Pack: pack, PackJSON: data, PackSHA256: sha, Prompt: o.Prompt.Render(pack),
		PromptSHA256: o.Prompt.SHA256, Model: o.Model, Temperature: o.Temperature, MaxTokens: o.MaxTokens}
	if len(r.order) >= 4*o.Concurrency+4 {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[sha] = req
	r.order = append(r.order, sha)
	return req, nil
}

// errBudget stops dispatch when --max-calls is spent.
var errBudget = errors.New("--max-calls budget spent")

// do gets one verdict, or gives up after retries. Calls run under ctx (an
// interrupt cancels them); a stopped run (runCtx done: budget spent,
// backend failing) starts no new call but lets calls in flight finish and
// keeps their verdicts.
func (r *runner) do(ctx, runCtx context.Context, stop context.CancelCauseFunc, j job) {
	o := r.o
	req, err := r.request(j.ev.PackSHA256)
	if err != nil {
		stop(fmt.Errorf("episode %s (%s): %w", j.ev.EpisodeID, j.cond.Pack, err))
		return
	}
	for attempt := 0; ; attempt++ {
		if err := r.lim.wait(runCtx); err != nil {
			return
		}
		if n := r.calls.Add(1); o.MaxCalls > 0 && n > o.MaxCalls {
			r.calls.Add(-1)
			stop(errBudget)
			return
		}
		start := time.Now()
		cctx, cancel := context.WithTimeout(ctx, o.Timeout)
		reply, err := o.Backend.Call(cctx, req)
		cancel()
		reply, err = o.Secrets.redactReply(reply), o.Secrets.RedactErr(err)
		if err == nil {
			r.consecutive.Store(0)
			r.emit(ctx, j, req, reply, start, time.Since(start))
			return
		}
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = &CallError{Retryable: true, Msg: fmt.Sprintf("no reply within %s", o.Timeout)}
		}
		r.lastErr.Store(err.Error())
		var ce *CallError
		retryable := errors.As(err, &ce) && ce.Retryable
		if ce != nil && (ce.Status == 401 || ce.Status == 403) {
			stop(fmt.Errorf("backend refused the credentials: %v", err))
			return
		}
		if IsRedirect(err) {
			r.failed.Add(1)
			stop(fmt.Errorf("backend redirected the call: %v", err))
			return
		}
		if !retryable || attempt >= o.MaxRetries {
			o.Logger.Warn("judge call failed", "episode", j.ev.EpisodeID, "condition", j.cond.Name, "run", j.run, "error", err)
			r.failed.Add(1)
			if r.consecutive.Add(1) >= int64(o.MaxFailures) {
				stop(fmt.Errorf("backend keeps failing: %d verdicts in a row failed (last: %v)", o.MaxFailures, err))
			}
			r.progress()
			return
		}
		r.retries.Add(1)
		wait := backoff(o.RetryBase, attempt)
		if ra := ce.RetryAfter; ra > 0 {
			if ra > o.MaxRetryWait {
				o.Logger.Warn("Retry-After capped", "asked", ra, "waiting", o.MaxRetryWait)
				ra = o.MaxRetryWait
			}
			wait = max(wait, ra)
			r.lim.pause(ra)
		}
		if sleep(runCtx, wait) != nil {
			r.failed.Add(1)
			return
		}
	}
}

// parallel calls work(0..n-1) from the given number of workers, handing out
// no new index once ctx is done, and returns when the workers are done.
func parallel(ctx context.Context, workers, n int, work func(i int)) {
	feed := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range feed {
				work(i)
			}
		})
	}
	defer wg.Wait()
	defer close(feed)
	for i := range n {
		select {
		case feed <- i:
		case <-ctx.Done():
			return
		}
	}
}

// backoff is the jittered exponential wait before retry attempt+1: a
// uniform draw in [d/2, d] with d = base·2^attempt, capped at 30s.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base << min(attempt, 16)
	if d > 30*time.Second || d <= 0 {
		d = 30 * time.Second
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// emit turns a reply into a verdict row for the commit loop.
func (r *runner) emit(ctx context.Context, j job, req *Request, reply Reply, start time.Time, latency time.Duration) {
	o := r.o
	v := Verdict{Score: reply.Score}
	if reply.Text != "" || reply.Score == nil {
		v = ParseReply(reply.Text)
		if v.Score == nil {
			v.Score = reply.Score
		}
	}
	model := cmp.Or(reply.Model, o.Model) // a hostile model id must not bloat the column
	called := start.UTC()
	extra := map[string]any{"backend": o.BackendName}
	if v.Evidence != "" {
		extra["evidence"] = v.Evidence
	}
	if model != o.Model && o.Model != "" {
		extra["requested_model"] = o.Model
	}
	xb, _ := json.Marshal(extra)
	row := schema.Verdict{EpisodeID: j.ev.EpisodeID, Judge: o.Judge, Condition: j.cond.Name, Run: j.run,
		Score: v.Score, Confidence: v.Confidence, Model: &model, CalledAt: &called, Extra: string(xb),
		PackSHA256: &req.PackSHA256, PromptSHA256: &req.PromptSHA256, LatencyMS: new(latency.Milliseconds()),
		InputTokens: reply.InputTokens, OutputTokens: reply.OutputTokens,
		Provenance: schema.Provenance{SrcFile: "trustlake judge"}}
	if model == "" {
		row.Model = nil
	}
	if v.Verdict != "" {
		row.Verdict = &v.Verdict
	}
	if v.Verdict == schema.VerdictParseError {
		row.Raw = &v.Raw
	}
	select {
	case r.results <- row:
	case <-ctx.Done():
	}
}

func (r *runner) progress() {
	if r.o.Progress == nil {
		return
	}
	select {
	case r.results <- schema.Verdict{}: // an empty row asks the commit loop to redraw
	default:
	}
}

// limiter spaces requests evenly at a rate per minute and holds every
// worker back after a Retry-After. A nil interval means no rate cap.
type limiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

func newLimiter(perMinute float64) *limiter {
	l := &limiter{}
	if perMinute > 0 {
		l.interval = time.Duration(float64(time.Minute) / perMinute)
	}
	return l
}

func (l *limiter) wait(ctx context.Context) error {
	l.mu.Lock()
	now := time.Now()
	at := now
	if l.next.After(now) {
		at = l.next
	}
	if l.interval > 0 {
		l.next = at.Add(l.interval)
	}
	l.mu.Unlock()
	if d := time.Until(at); d > 0 {
		return sleep(ctx, d)
	}
	return ctx.Err()
}

// pause makes every later request wait at least d from now.
func (l *limiter) pause(d time.Duration) {
	l.mu.Lock()
	if until := time.Now().Add(d); until.After(l.next) {
		l.next = until
	}
	l.mu.Unlock()
}
