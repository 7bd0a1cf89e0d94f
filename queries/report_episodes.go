package queries

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The kinds of rows of report_episodes.sql.
const (
	kindEpisode = iota
	kindGT
	kindLabel
	kindHuman
	kindJudgeCondition
	kindVerifier
)

// episodeJoin is what joining an episode's rows of report_episodes.sql
// needs beside its reportEpisode: which rows it has, the verifier of the
// ground-truth row kept, and its effective category's NULLs and raw
// category (the label's if it has one, else that row's).
type episodeJoin struct {
	hasEpisode, hasGT, hasLabel, hasCategory, hasRaw bool
	verifier, raw                                    string
}

// readReportEpisodes fills r.eps, r.index and r.review from the stored
// rows of report_episodes.sql, joined here as report_episodes joined them
// in SQL before: every episode with an episode, ground-truth or label row;
// its verifier ground truth from the ground-truth row first by
// verifier_sha256 (view categories' row_number); its category and raw
// category from its label if it has one, else from that row; the human
// majority (human_reference) of its id; needs review when it is in
// categories (a ground-truth or label row), its ground truth is not a pass
// and it has no category; the episode counts of the report's health. An
// id on two episode or label rows, or two ids with one code, is
// ErrReportRunsShape. It returns the judge × condition of every code (two
// with one code are ErrReportRunsShape too).
func (s *Session) readReportEpisodes(ctx context.Context, r *ReportRuns, episodes int) (map[uint64]JudgeCondition, error) {
	names := map[uint64]JudgeCondition{}
	r.eps = make([]reportEpisode, 0, episodes)
	joins := make([]episodeJoin, 0, episodes)
	type human struct {
		id   string
		pass optBool
	}
	var humans map[uint64]human
	last := -1        // the episode of the previous episode, ground-truth or label row
	few := interner{} // tasks, sources, agents, categories, verifiers: few distinct values
	err := s.queryArrow(ctx, sqlFile("report_episodes"), nil, func(rec arrow.RecordBatch) error {
		col := func(j int) *array.String { return rec.Column(j).(*array.String) }
		kind := rec.Column(0).(*array.Int32).Int32Values()
		id, task, source, agent, category, raw, verifier := col(1), col(2), col(3), col(4), col(6), col(7), col(8)
		pass := rec.Column(5).(*array.Boolean)
		code := rec.Column(9).(*array.Uint64).Uint64Values()
		ids := idsOf(id) // one copy of the batch's ids
		for row := range int(rec.NumRows()) {
			if kind[row] == kindJudgeCondition {
				jc := JudgeCondition{Judge: strings.Clone(id.Value(row)), Condition: strings.Clone(task.Value(row))}
				if old, dup := names[code[row]]; dup && old != jc {
					return ErrReportRunsShape
				}
				names[code[row]] = jc
				continue
			}
			if kind[row] == kindVerifier {
				r.verifiers++
				if p := boolOf(pass, row); p.valid && p.v {
					r.nondetVerifiers++
				}
				continue
			}
			if kind[row] == kindHuman {
				r.humanRows = true
				if humans == nil {
					humans = map[uint64]human{}
				}
				if old, dup := humans[code[row]]; dup && old.id != id.Value(row) { // two ids with one code
					return ErrReportRunsShape
				}
				humans[code[row]] = human{ids(row), boolOf(pass, row)}
				continue
			}
			// The rows of each kind come mostly in the order of the
			// episode rows: the episode after the previous row's first.
			i, ok := last+1, last+1 < len(r.eps) && r.eps[last+1].code == code[row]
			if !ok {
				i, ok = r.index[code[row]]
			}
			if !ok {
				i = len(r.eps)
				r.index[code[row]] = i
				r.eps = append(r.eps, reportEpisode{id: ids(row), code: code[row]})
				joins = append(joins, episodeJoin{})
			}
			last = i
			e, j := &r.eps[i], &joins[i]
			if e.id != id.Value(row) { // two ids with one code
				return ErrReportRunsShape
			}
			switch kind[row] {
			case kindEpisode:
				if j.hasEpisode {
					return ErrReportRunsShape
				}
				j.hasEpisode = true
				e.task, e.hasTask = interned(few, task, row)
				e.source, e.hasSource = interned(few, source, row)
				e.agent, _ = interned(few, agent, row)
			case kindGT:
				v, _ := interned(few, verifier, row)
				if j.hasGT && v >= j.verifier {
					continue
				}
				j.hasGT, j.verifier, e.gt = true, v, boolOf(pass, row)
				if !j.hasLabel {
					e.category, j.hasCategory = interned(few, category, row)
					j.raw, j.hasRaw = interned(few, raw, row)
				}
			case kindLabel:
				if j.hasLabel {
					return ErrReportRunsShape
				}
				j.hasLabel = true
				e.category, j.hasCategory = interned(few, category, row)
				j.raw, j.hasRaw = interned(few, raw, row)
			default:
				return fmt.Errorf("row kind %d", kind[row])
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report episodes: %w", err)
	}
	for i := range r.eps {
		e, j := &r.eps[i], &joins[i]
		h, humanGT := humans[e.code]
		if humanGT = humanGT && h.id == e.id; humanGT {
			e.human = h.pass
		}
		if j.hasEpisode {
			// human_reference has a row per id with a human ground-truth
			// row, kind 1 the rows of every other source.
			r.episodes++
			if !j.hasGT && !humanGT {
				r.withoutGT++
			}
		}
		if (j.hasGT || j.hasLabel) && !(e.gt.valid && e.gt.v) && !j.hasCategory {
			name := j.raw
			if !j.hasRaw {
				name = "(none)"
			}
			r.review[name]++
		}
	}
	return names, nil
}
