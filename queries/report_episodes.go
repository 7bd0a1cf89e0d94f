package queries

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The kinds of rows of report_episodes.sql.
const (
	kindEpisode = iota
	kindGT
	kindLabel
	kindHuman
)

// episodeRows gathers the rows of one episode (by code) from
// report_episodes.sql before they are joined.
type episodeRows struct {
	reportEpisode
	hasEpisode, hasGT, hasLabel bool
	verifier                    string // of the ground-truth row kept
	gtCat, gtRaw, lCat, lRaw    optString
}

type optString struct {
	valid bool
	v     string
}

// readReportEpisodes fills r.eps, r.index and r.review from the stored
// rows of report_episodes.sql, joined here as report_episodes joined them
// in SQL before: every episode with an episode, ground-truth or label row;
// its verifier ground truth from the ground-truth row first by
// verifier_sha256 (view categories' row_number); its category and raw
// category from its label if it has one, else from that row; the human
// majority (human_reference) of its id; needs review when it is in
// categories (a ground-truth or label row), its ground truth is not a pass
// and it has no category. An id on two episode or label rows, or two ids
// with one code, is ErrReportRunsShape.
func (s *Session) readReportEpisodes(ctx context.Context, r *ReportRuns, episodes int) error {
	rows := make([]episodeRows, 0, episodes)
	type human struct {
		id   string
		pass optBool
	}
	var humans map[uint64]human
	few := interner{} // tasks, sources, agents, categories, verifiers: few distinct values
	err := s.queryArrow(ctx, sqlFile("report_episodes"), nil, func(rec arrow.RecordBatch) error {
		col := func(j int) *array.String { return rec.Column(j).(*array.String) }
		kind := rec.Column(0).(*array.Int32).Int32Values()
		id, task, source, agent, category, raw, verifier := col(1), col(2), col(3), col(4), col(6), col(7), col(8)
		pass := rec.Column(5).(*array.Boolean)
		code := rec.Column(9).(*array.Uint64).Uint64Values()
		ids := idsOf(id) // one copy of the batch's ids
		for row := range int(rec.NumRows()) {
			if kind[row] == kindHuman {
				if humans == nil {
					humans = map[uint64]human{}
				}
				humans[code[row]] = human{ids(row), boolOf(pass, row)}
				continue
			}
			i, ok := r.index[code[row]]
			if !ok {
				i = len(rows)
				r.index[code[row]] = i
				rows = append(rows, episodeRows{reportEpisode: reportEpisode{id: ids(row), code: code[row]}})
			}
			e := &rows[i]
			if e.id != id.Value(row) { // two ids with one code
				return ErrReportRunsShape
			}
			switch kind[row] {
			case kindEpisode:
				if e.hasEpisode {
					return ErrReportRunsShape
				}
				e.hasEpisode = true
				e.task, e.hasTask = interned(few, task, row)
				e.source, e.hasSource = interned(few, source, row)
				e.agent, _ = interned(few, agent, row)
			case kindGT:
				v, _ := interned(few, verifier, row)
				if e.hasGT && v >= e.verifier {
					continue
				}
				e.hasGT, e.verifier, e.gt = true, v, boolOf(pass, row)
				e.gtCat, e.gtRaw = optOf(few, category, row), optOf(few, raw, row)
			case kindLabel:
				if e.hasLabel {
					return ErrReportRunsShape
				}
				e.hasLabel = true
				e.lCat, e.lRaw = optOf(few, category, row), optOf(few, raw, row)
			default:
				return fmt.Errorf("row kind %d", kind[row])
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("report episodes: %w", err)
	}
	r.eps = make([]reportEpisode, len(rows))
	for i := range rows {
		e := &rows[i]
		if h, ok := humans[e.code]; ok && h.id == e.id {
			e.human = h.pass
		}
		cat, raw := e.gtCat, e.gtRaw
		if e.hasLabel {
			cat, raw = e.lCat, e.lRaw
		}
		e.category = cat.v
		if (e.hasGT || e.hasLabel) && !(e.gt.valid && e.gt.v) && !cat.valid {
			name := raw.v
			if !raw.valid {
				name = "(none)"
			}
			r.review[name]++
		}
		r.eps[i] = e.reportEpisode
	}
	return nil
}

func optOf(in interner, a *array.String, i int) optString {
	v, ok := interned(in, a, i)
	return optString{ok, v}
}
