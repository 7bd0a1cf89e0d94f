package runcounts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// TestRunCounterOrder: the counter keeps no index while episodes come in
// ascending order and builds one at the first id out of order (also after
// an episode has continued in a second row); in every order its rows add
// up, per episode, to the runs counted naively, each episode's scores keep
// their input order with their run numbers, and the runs with a verdict
// and a score are counted.
func TestRunCounterOrder(t *testing.T) {
	type run struct {
		ep      string
		verdict string // "" is score-only
		score   float64
		scored  bool // a verdict run with a score
		no      int64
	}
	type totals struct {
		runs, parse, success, failure, uncertain, scoredVerdicts int64
		scores                                                   []float64
		runNos                                                   []int64
	}
	vals := []string{"", schema.VerdictSuccess, schema.VerdictFailure, schema.VerdictUncertain, schema.VerdictParseError}
	rng := rand.New(rand.NewPCG(1, 2))
	var sorted []run
	for e := 0; e < 200; e++ {
		for r := 0; r < 1+e%9; r++ { // up to nine runs: up to three rows of scores
			sorted = append(sorted, run{fmt.Sprintf("ep%04d", e), vals[rng.IntN(len(vals))], float64(rng.IntN(1000)) / 1000, rng.IntN(4) == 0, int64(r + 1)})
		}
	}
	shuffled := slices.Clone(sorted)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	late := slices.Concat(sorted, sorted[:40]) // in order, then episodes seen before (some continued)
	for name, runs := range map[string][]run{"in order": sorted, "shuffled": shuffled, "revisited": late} {
		t.Run(name, func(t *testing.T) {
			want := map[string]*totals{}
			c := &runCounter{last: -1}
			for _, r := range runs {
				w := want[r.ep]
				if w == nil {
					w = &totals{}
					want[r.ep] = w
				}
				w.runs++
				switch r.verdict {
				case "":
					w.scores = append(w.scores, r.score)
					w.runNos = append(w.runNos, r.no)
				case schema.VerdictParseError:
					w.parse++
				case schema.VerdictSuccess:
					w.success++
				case schema.VerdictFailure:
					w.failure++
				case schema.VerdictUncertain:
					w.uncertain++
				}
				if r.verdict != "" && r.scored {
					w.scoredVerdicts++
				}
				c.add(r.ep, r.verdict, r.verdict != "", r.score, r.verdict == "" || r.scored, r.no)
			}
			if indexed := c.index != nil; indexed != (name != "in order") {
				t.Errorf("index kept: %v", indexed)
			}
			got := map[string]*totals{}
			seqs := map[string]int64{}
			for _, row := range c.result([]string{"j", "c"}, "f") {
				g := got[row.EpisodeID]
				if g == nil {
					g = &totals{}
					got[row.EpisodeID] = g
				}
				if row.Seq != seqs[row.EpisodeID] {
					t.Errorf("%s: seq %d, want %d", row.EpisodeID, row.Seq, seqs[row.EpisodeID])
				}
				seqs[row.EpisodeID]++
				g.runs += row.Runs
				g.parse += row.Parse
				g.success += row.Success
				g.failure += row.Failure
				g.uncertain += row.Uncertain
				g.scoredVerdicts += *row.ScoredVerdicts
				for j, s := range []*float64{row.Score1, row.Score2, row.Score3} {
					if no := []*int64{row.Run1, row.Run2, row.Run3}[j]; (s == nil) != (no == nil) {
						t.Errorf("%s: score %d and its run number: one is missing", row.EpisodeID, j+1)
					} else if s != nil {
						g.scores = append(g.scores, *s)
						g.runNos = append(g.runNos, *no)
					}
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d episodes counted, want %d", len(got), len(want))
			}
			for ep, w := range want {
				if g := got[ep]; fmt.Sprint(*g) != fmt.Sprint(*w) {
					t.Errorf("%s: counted %v, want %v", ep, *g, *w)
				}
			}
		})
	}
}
