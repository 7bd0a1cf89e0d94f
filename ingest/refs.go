package ingest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// episodeRefs collects the episode ids that rows of verdicts, labels,
// results and ground_truth name, and the episodes a batch adds, so that
// rows naming an episode absent from the lake become a warning count.
type episodeRefs struct {
	named map[string]map[string]int // table → episode_id → rows (made by begin)
	added map[string]bool           // episodes of this batch (made by begin)
	// The run of rows naming one episode in one table, not yet counted in
	// named: rows of an episode mostly come together (a judge's runs).
	runTable, runID string
	runRows         int
}

// note records the episode a row names (or adds).
func (r *episodeRefs) note(table string, row any) {
	var id string
	switch v := row.(type) {
	case *schema.Episode:
		r.added[v.EpisodeID] = true
		return
	case *schema.Action: // a trajectory: what a result's episode_id may point at
		if table == lake.Actions {
			r.added[v.EpisodeID] = true
		}
		return
	case *schema.Verdict:
		id = v.EpisodeID
	case *schema.Label:
		id = v.EpisodeID
	case *schema.GroundTruth:
		id = v.EpisodeID
	case *schema.Result:
		if v.EpisodeID == nil {
			return
		}
		id = *v.EpisodeID
	default:
		return
	}
	if id == r.runID && table == r.runTable {
		r.runRows++
		return
	}
	r.endRun()
	r.runTable, r.runID, r.runRows = table, id, 1
}

// endRun counts the current run of rows in named.
func (r *episodeRefs) endRun() {
	if r.runRows == 0 {
		return
	}
	m := r.named[r.runTable]
	if m == nil {
		m = map[string]int{}
		r.named[r.runTable] = m
	}
	if _, ok := m[r.runID]; !ok {
		r.runID = strings.Clone(r.runID) // the map outlives the decoder's arena
	}
	m[r.runID] += r.runRows
	r.runRows = 0
}

// check reads the episode ids of the lake (one column) and adds one warning
// per table whose rows name episodes that neither the lake nor the batch
// holds, with the counts in st.MissingEpisodes.
func (r *episodeRefs) check(tx *lake.Tx, st *Stats) error {
	r.endRun()
	if len(r.named) == 0 {
		return nil
	}
	have := map[string]bool{}
	err := tx.StringColumn(lake.Episodes, "episode_id", func(id string) { have[id] = true })
	if err != nil {
		return err
	}
	// A result's episode may be a trajectory alone (τ-bench): look in
	// actions too, only when some result names an episode not found yet.
	for id := range r.named[lake.Results] {
		if !have[id] && !r.added[id] {
			if err := tx.StringColumn(lake.Actions, "episode_id", func(id string) { have[id] = true }); err != nil {
				return err
			}
			break
		}
	}
	for _, t := range slices.Sorted(maps.Keys(r.named)) {
		rows, eps := 0, []string{}
		for id, n := range r.named[t] {
			if !have[id] && !r.added[id] {
				rows += n
				eps = append(eps, id)
			}
		}
		if rows == 0 {
			continue
		}
		slices.Sort(eps)
		st.MissingEpisodes[t] = rows
		ex := eps[:min(3, len(eps))]
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %d row(s) name %d episode(s) absent from the lake (e.g. %s)",
			t, rows, len(eps), strings.Join(ex, ", ")))
	}
	return nil
}
