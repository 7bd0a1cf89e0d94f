package queries

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ReportRuns holds the run counts of every (judge, condition, episode) of
// a snapshot and the episodes' attributes, read once (ReadReportRuns), so
// that the report's metrics cells and claim-sway pairs are computed from
// them in Go (Cells, Pairs: the rows of MetricsCells and MetricsPairs)
// instead of one statement each.
type ReportRuns struct {
	jcs   []JudgeCondition
	eps   []reportEpisode
	index map[uint64]int // episode code (hash(episode_id)) → number in eps
	byID  []int          // the numbers of eps in the order of their ids
	// taskOf[i] numbers episode i's task in tasks (0 without a task:
	// Pairs skips those).
	taskOf []int32
	tasks  []string
	review map[string]int // GT failures needing review per raw category
	// episodes counts the episode rows, withoutGT those whose id has no
	// ground-truth row of any source (report_health_episodes.sql's two counts).
	episodes, withoutGT int
	// The ground truth's verifiers (every source's) and those ever
	// nondeterministic there.
	verifiers, nondetVerifiers int
	humanRows                  bool // a human_reference row was read
	// runs[k][i]: judge × condition k on episode i; unknown[k]: on
	// episodes without an episode, ground-truth or label row, by code.
	runs    [][]episodeRuns
	unknown []map[uint64]*episodeRuns
	// scoreRuns[k]: every run of judge × condition k with a score is
	// score-only and its score is kept with its run number (HasScoreRuns).
	scoreRuns []bool
	scores    runScores // of every episodeRuns
}

// reportEpisode is one episode of report_episodes (readReportEpisodes).
type reportEpisode struct {
	id, task, source, agent, category string // agent and category "" when NULL
	code                              uint64 // hash(episode_id)
	hasTask, hasSource                bool
	gt, human                         optBool
}

type optBool struct{ valid, v bool }

// episodeRuns sums the run-count rows of one (judge, condition, episode).
// Its scores (of score-only runs) are in ReportRuns.scores (runScores.of).
type episodeRuns struct {
	runs, parse, success, failure, unc int32
	scoreAt                            uint32 // where in runScores; 0: no scores
	nScores                            uint8  // how many at scoreAt (not in more)
	seen                               bool
}

// ErrReportRunsShape reports a lake that ReportRuns does not reproduce
// exactly (an episode id on two episode or label rows, or two ids with
// one hash): the caller asks the session instead.
var ErrReportRunsShape = errors.New("report runs: lake shape not covered")

// ReadReportRuns reads the run counts of every judge × condition and the
// episodes' attributes (sql/report_episodes.sql, sql/report_runs.sql or,
// without complete run counts, sql/report_runs_scan.sql, as Arrow batches;
// readReportEpisodes) and joins them here, by episode code: DuckDB's 64-bit
// hash(episode_id), a number on every row instead of a string. Codes are
// checked distinct over the episodes; a run of an id outside them
// (without an episode, ground-truth or label row) would be taken for an
// episode's only if their hashes collided (about n·m/2⁶⁴ for n episodes
// and m such ids).
func (s *Session) ReadReportRuns(ctx context.Context, episodes int) (*ReportRuns, error) {
	r := &ReportRuns{index: make(map[uint64]int, episodes), review: map[string]int{}}
	names, err := s.readReportEpisodes(ctx, r, episodes)
	if err != nil {
		return nil, err
	}
	r.prepare()
	var last uint64
	k := -1
	look := r.lookup()
	query := "report_runs"
	if !s.runCountsComplete {
		query = "report_runs_scan"
	}
	err = s.queryArrow(ctx, sqlFile(query), nil, func(rec arrow.RecordBatch) error {
		jc, id := rec.Column(0).(*array.Uint64).Uint64Values(), rec.Column(1).(*array.Uint64).Uint64Values()
		n := func(j int) []int32 { return rec.Column(j).(*array.Int32).Int32Values() }
		runs, parse, success, failure, unc := n(2), n(3), n(4), n(5), n(6)
		var scores []*array.Float64  // the score columns with a value in this batch
		var scoreRuns []*array.Int64 // and their run numbers
		for j := 7; j <= 9; j++ {
			if sc := rec.Column(j).(*array.Float64); sc.NullN() < sc.Len() {
				scores, scoreRuns = append(scores, sc), append(scoreRuns, rec.Column(j+3).(*array.Int64))
			}
		}
		scoredVerdicts := rec.Column(13).(*array.Int64)
		for row := range int(rec.NumRows()) {
			// Rows come file by file: the judge × condition seldom changes.
			if h := jc[row]; k < 0 || h != last {
				name, ok := names[h]
				if !ok {
					return fmt.Errorf("judge × condition code %d not in report_episodes", h)
				}
				last = h
				if k = slices.Index(r.jcs, name); k < 0 {
					k = len(r.jcs)
					r.jcs = append(r.jcs, name)
					r.runs = append(r.runs, make([]episodeRuns, len(r.eps)))
					r.unknown = append(r.unknown, nil)
					r.scoreRuns = append(r.scoreRuns, true)
				}
			}
			if scoredVerdicts.IsNull(row) || scoredVerdicts.Value(row) != 0 {
				r.scoreRuns[k] = false // written before run numbers, or scores not kept
			}
			var e *episodeRuns
			if i, ok := look.find(id[row]); ok {
				e = &r.runs[k][i]
			} else {
				if r.unknown[k] == nil {
					r.unknown[k] = map[uint64]*episodeRuns{}
				}
				if e = r.unknown[k][id[row]]; e == nil {
					e = &episodeRuns{}
					r.unknown[k][id[row]] = e
				}
			}
			e.seen = true
			e.runs += runs[row]
			e.parse += parse[row]
			e.success += success[row]
			e.failure += failure[row]
			e.unc += unc[row]
			for j, sc := range scores {
				if sc.IsNull(row) {
					continue
				}
				no := scoreRuns[j]
				if no.IsNull(row) {
					r.scoreRuns[k] = false
				}
				if !r.scores.add(e, sc.Value(row), no.Value(row)) {
					return ErrReportRunsShape
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report runs: %w", err)
	}
	return r, nil
}

// prepare orders the episodes by id (byID) and numbers their tasks.
func (r *ReportRuns) prepare() {
	r.byID = make([]int, len(r.eps))
	for i := range r.byID {
		r.byID[i] = i
	}
	slices.SortFunc(r.byID, func(a, b int) int { return strings.Compare(r.eps[a].id, r.eps[b].id) })
	r.numberTasks()
}

// numberTasks sets taskOf and tasks.
func (r *ReportRuns) numberTasks() {
	r.taskOf = make([]int32, len(r.eps))
	number := map[string]int32{}
	for i := range r.eps {
		if !r.eps[i].hasTask {
			continue
		}
		t, ok := number[r.eps[i].task]
		if !ok {
			t = int32(len(r.tasks))
			number[r.eps[i].task] = t
			r.tasks = append(r.tasks, r.eps[i].task)
		}
		r.taskOf[i] = t
	}
}

// judgeConditionCodes runs query, which returns judge, condition and
// their code hash(judge, condition), and maps the codes to their judge ×
// conditions. Two with one code (never seen with a 64-bit hash, but then
// the codes name nothing) are ErrReportRunsShape.
func (s *Session) judgeConditionCodes(ctx context.Context, query string, args ...any) (map[uint64]JudgeCondition, error) {
	names := map[uint64]JudgeCondition{}
	err := s.queryArrow(ctx, query, args, func(rec arrow.RecordBatch) error {
		judge, condition := rec.Column(0).(*array.String), rec.Column(1).(*array.String)
		code := rec.Column(2).(*array.Uint64)
		for row := range int(rec.NumRows()) {
			jc := JudgeCondition{Judge: strings.Clone(judge.Value(row)), Condition: strings.Clone(condition.Value(row))}
			if old, dup := names[code.Value(row)]; dup && old != jc {
				return ErrReportRunsShape
			}
			names[code.Value(row)] = jc
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report judge × conditions: %w", err)
	}
	return names, nil
}

// episodeLookup finds episodes by code in rows that tend to come in the
// same order again and again (each file of a table lists the episodes in
// the order they were ingested, which is mostly the order of eps): it
// tries the episode that followed the previous one last time (at first
// the next one in eps), then the map.
type episodeLookup struct {
	r      *ReportRuns
	prev   int
	follow []int // follow[i]-1: the episode met after episode i-1 last time (-1: none)
}

func (r *ReportRuns) lookup() *episodeLookup {
	follow := make([]int, len(r.eps)+1)
	for i := range len(r.eps) {
		follow[i] = i + 1
	}
	return &episodeLookup{r: r, prev: -1, follow: follow}
}

func (l *episodeLookup) find(code uint64) (int, bool) {
	if l.prev >= 0 && l.r.eps[l.prev].code == code {
		return l.prev, true
	}
	if g := l.follow[l.prev+1] - 1; g >= 0 && l.r.eps[g].code == code {
		l.prev = g
		return g, true
	}
	i, ok := l.r.index[code]
	if ok {
		l.follow[l.prev+1] = i + 1
		l.prev = i
	}
	return i, ok
}

// interned returns row i of a through in, false when NULL.
func interned(in interner, a *array.String, i int) (string, bool) {
	if a.IsNull(i) {
		return "", false
	}
	return in.get(a, i), true
}

// idsOf copies the values of a (no NULLs) in one allocation and returns
// its rows as strings over that copy.
func idsOf(a *array.String) func(int) string {
	data, offs := string(a.ValueBytes()), a.ValueOffsets()
	return func(i int) string { return data[offs[i]-offs[0] : offs[i+1]-offs[0]] }
}

func boolOf(a *array.Boolean, i int) optBool {
	if a.IsNull(i) {
		return optBool{}
	}
	return optBool{valid: true, v: a.Value(i)}
}

// counts returns the episode's runs per verdict at threshold, as the
// per_episode part of metrics_cells.sql counts them: a score-only run is
// success at score >= threshold, else failure, and unscored when threshold
// is nil. Comparisons follow DuckDB's, where NaN is above every number and
// equal to itself.
func (r *ReportRuns) counts(e *episodeRuns, threshold *float64) (success, failure, unc, unscored int) {
	success, failure, unc = int(e.success), int(e.failure), int(e.unc)
	for _, sc := range r.scores.of(e) {
		switch {
		case threshold == nil:
			unscored++
		case atLeast(sc.score, *threshold):
			success++
		default:
			failure++
		}
	}
	return success, failure, unc, unscored
}

func atLeast(x, thr float64) bool {
	switch {
	case math.IsNaN(x):
		return true
	case math.IsNaN(thr):
		return false
	}
	return x >= thr
}

// reference is the episode's ground truth under reference gt (see
// metric_episodes).
func (e *reportEpisode) reference(gt string) optBool {
	switch gtOrDefault(gt) {
	case GTVerifier:
		return e.gt
	case GTHuman:
		return e.human
	}
	if e.gt.valid {
		return e.gt
	}
	return e.human
}

// HasHumanReference reports whether the episodes read had a row of the
// view human_reference (human pass/fail judgments): without one,
// Session.HumanAgreement returns no row.
func (r *ReportRuns) HasHumanReference() bool { return r.humanRows }
