package nightly

import (
	"context"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// engine is the session a report computes on. The sections run
// concurrently (metrics, each claim sway, each reward model, health, the
// Trust Layer: one's Go statistics overlap another's SQL), so every
// statement takes the session in turn (a DuckDB session runs one statement
// at a time); the calibration statement has a second session of the same
// snapshot. Prepare reads once what every metrics function starts with
// (row counts, human agreement, the judge × conditions); every other
// figure comes from the session's statements, the ones the commands
// metrics, compare, threshold and checklist run.
type engine struct {
	sess *queries.Session
	mu   sync.Mutex // held while a statement runs on sess

	cellsTaken chan struct{} // closed by openGate
	gateOnce   sync.Once

	// Filled by Prepare, then only read.
	prepared bool
	counts   queries.LakeCounts
	human    []queries.HumanCount
	nHuman   int
	jcs      []queries.JudgeConditionCount // without a threshold

	// The scores of every judge × condition for one source, read by the
	// first MetricsScores call (under mu).
	scoresRead   bool
	scoresSource string
	scoresOK     bool
	scores       map[queries.JudgeCondition][]queries.MetricScore
	scoresRedo   map[queries.JudgeCondition]bool

	// The pairs of every judge for one pairsKey, read by the first
	// MetricsPairs call of a judge with itself (under mu).
	pairsRead bool
	pairsKey  pairsKey
	pairs     map[string][]queries.MetricPair

	// The report's threshold: the per-episode rows of the claim-sway
	// pairs, the corrected rates and the agreement sections, kept by the
	// first of their statements (under mu).
	threshold *float64
	kept      bool

	// second is a session of the same snapshot for the calibration
	// statement, the longest of the report, which then runs beside the
	// others instead of after them (nil: it runs on sess). Set by
	// openSecond, which closes secondReady.
	second      *queries.Session
	secondMu    sync.Mutex // held while a statement runs on second
	secondReady chan struct{}
}

var _ metrics.ScoreEngine = (*engine)(nil)

func newEngine(s *queries.Session, threshold *float64) *engine {
	return &engine{sess: s, cellsTaken: make(chan struct{}), threshold: threshold, secondReady: make(chan struct{})}
}

// openSecond opens the second session (see engine.second), kept only when
// it reads the same manifest version as sess: the report comes from one
// snapshot. The caller closes it (closeSecond).
func (e *engine) openSecond(ctx context.Context, src *lake.Lake, opts queries.Options) {
	defer close(e.secondReady)
	s, err := queries.Open(ctx, src, opts)
	var reason any = err
	if err == nil && s.Version() != e.sess.Version() {
		reason = "the lake changed since the report's snapshot"
		s.Close()
	}
	if reason == nil {
		e.second = s
	} else if opts.Logger != nil {
		opts.Logger.Debug("report: calibration on the one session", "reason", reason)
	}
}

// closeSecond closes the second session, once openSecond is done.
func (e *engine) closeSecond() {
	<-e.secondReady
	if e.second != nil {
		e.second.Close()
	}
}

// keepEpisodes keeps metric_episodes at the report's threshold and the
// verifier's reference in the session, once (under mu): the pairs, rate
// and agreement statements read those rows instead of counting the runs
// and joining the episodes four times. A statement for another threshold
// or reference reads the runs as before.
func (e *engine) keepEpisodes(ctx context.Context) error {
	if e.kept {
		return nil
	}
	e.kept = true
	return e.sess.KeepMetricEpisodes(ctx, e.threshold, queries.GTVerifier)
}

// openGate lets the sections waiting in afterCells start: the metrics
// cells statement has the session (its bootstrap is the longest
// computation of the report, so it goes first), or will never ask for it.
func (e *engine) openGate() { e.gateOnce.Do(func() { close(e.cellsTaken) }) }

// afterCells waits until openGate.
func (e *engine) afterCells(ctx context.Context) error {
	select {
	case <-e.cellsTaken:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Prepare reads the lake-wide lookups once, before the sections start
// (their calls then need no lock).
func (e *engine) Prepare(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	if e.counts, err = e.sess.MetricsLakeCounts(ctx); err != nil {
		return err
	}
	if e.jcs, err = e.sess.MetricsJudgeConditions(ctx, nil); err != nil {
		return err
	}
	if e.human, e.nHuman, err = e.sess.HumanAgreement(ctx); err != nil {
		return err
	}
	e.prepared = true
	return nil
}

func (e *engine) MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error) {
	if e.prepared {
		return e.counts, nil
	}
	return locked(ctx, e, (*queries.Session).MetricsLakeCounts)
}

func (e *engine) HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error) {
	if e.prepared {
		return e.human, e.nHuman, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.HumanAgreement(ctx)
}

// MetricsJudgeConditions answers from one statement for every threshold:
// the judge × conditions and their episodes do not depend on the threshold
// (metric_episodes groups the runs by judge, condition and episode
// whatever it is), and with a threshold no run is left unscored, so the
// answer for any threshold is the one without, its unscored counts zero
// (TestReportEngineJudgeConditions checks it against the session).
func (e *engine) MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error) {
	jcs := e.jcs
	if !e.prepared {
		e.mu.Lock()
		got, err := e.sess.MetricsJudgeConditions(ctx, nil)
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
		jcs = got
	}
	out := slices.Clone(jcs)
	if threshold != nil {
		for i := range out {
			out[i].Unscored = 0
		}
	}
	return out, nil
}

func (e *engine) MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.openGate()
	return e.sess.MetricsCells(ctx, opts)
}

// MetricsPairs answers a judge paired with itself under two conditions
// from one statement for every judge (queries.Session.MetricsPairsJudges,
// read on the first such call with these conditions and options), and any
// other pair from the session's statement.
func (e *engine) MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a.Judge != b.Judge {
		return e.sess.MetricsPairs(ctx, a, b, source, threshold, gt)
	}
	key := pairsKey{a: a.Condition, b: b.Condition, source: source, gt: gt, hasThreshold: threshold != nil}
	if threshold != nil {
		key.threshold = *threshold
	}
	if !e.pairsRead || e.pairsKey != key {
		if err := e.keepEpisodes(ctx); err != nil {
			return nil, err
		}
		pairs, err := e.sess.MetricsPairsJudges(ctx, a.Condition, b.Condition, source, threshold, gt)
		if err != nil {
			return nil, err
		}
		e.pairs, e.pairsKey, e.pairsRead = pairs, key, true
	}
	return slices.Clone(e.pairs[a.Judge]), nil
}

// pairsKey is what a MetricsPairsJudges answer depends on.
type pairsKey struct {
	a, b, source, gt string
	hasThreshold     bool
	threshold        float64
}

// MetricsScores answers from one statement for every judge × condition
// (queries.Session.MetricsScoresCounted, read on the first call for a
// source), and from the session's statement for a judge × condition the
// run counts cannot give.
func (e *engine) MetricsScores(ctx context.Context, jc queries.JudgeCondition, source string) ([]queries.MetricScore, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.scoresRead || e.scoresSource != source {
		scores, redo, ok, err := e.sess.MetricsScoresCounted(ctx, source)
		if err != nil {
			return nil, err
		}
		e.scores, e.scoresRedo, e.scoresOK, e.scoresSource, e.scoresRead = scores, redo, ok, source, true
	}
	if !e.scoresOK || e.scoresRedo[jc] {
		return e.sess.MetricsScores(ctx, jc, source)
	}
	return slices.Clone(e.scores[jc]), nil
}

// locked runs fn (a *queries.Session method, or a caller that takes the
// session, such as metrics.Checklist) with the session to itself.
func locked[R any](ctx context.Context, e *engine, fn func(*queries.Session, context.Context) (R, error)) (R, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e.sess, ctx)
}

// onKept runs fn (a statement on the kept episodes, keepEpisodes) with the
// session to itself.
func onKept[R any](ctx context.Context, e *engine, fn func() (R, error)) (R, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.keepEpisodes(ctx); err != nil {
		var zero R
		return zero, err
	}
	return fn()
}
