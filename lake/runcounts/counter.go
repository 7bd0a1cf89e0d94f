package runcounts

import (
	"slices"

	"github.com/zeebo/xxh3"

	"github.com/trustlake/trustlake/schema"
)

// runCounter accumulates the run counts of one verdicts data file, in the
// order the episodes first appear. It holds no Go pointers per episode
// (ids live in one byte arena, the index is keyed by their hash), so a
// million verdicts cost the garbage collector nothing. Not safe for
// concurrent use (each file's encoding goroutine owns one).
type runCounter struct {
	blocks []*tallyBlock    // every tallyBlockLen tallies: never moved or copied as the counter grows
	n      int32            // tallies so far
	index  map[uint64]int32 // xxh3 of an episode id -> its latest tally; nil while episodes come in order (find)
	last   int32            // the tally of the previous verdict: runs of an episode usually come together
	spill  *countSpill      // when set, tallies go to disk as they are final (spill.go)
}

// tallyBlock holds tallyBlockLen tallies (fewer in the last block) with
// their episode ids and scores: one batch of run_counts rows.
type tallyBlock struct {
	tallies []runTally
	ids     []byte    // the episode ids of tallies, back to back
	scores  []float64 // the scores of score-only runs, three per tally that has any
	runs    []int64   // the run numbers of scores, place for place
}

// tallyBlockLen is how many tallies a block holds: a companion's batch.
const tallyBlockLen = 2048

// scoresPerRow is how many score-only runs one schema.RunCount holds.
const scoresPerRow = 3

// runTally is one future schema.RunCount, without what the whole file
// shares (judge, condition, source); its id and scores are in its block.
type runTally struct {
	id, idLen                             int32 // the episode id: ids[id : id+idLen]
	seq                                   int32
	runs, parse, success, failure, uncert int32
	scoredVerdicts                        int32 // runs with a verdict and a score
	nScores                               int32 // scores[score : score+nScores], runs[score : score+nScores]
	score                                 int32
}

// newRunCounter returns an empty counter.
func newRunCounter() *runCounter { return &runCounter{last: -1} }

// at returns tally i and its block.
func (c *runCounter) at(i int32) (*tallyBlock, *runTally) {
	b := c.blocks[i/tallyBlockLen]
	return b, &b.tallies[i%tallyBlockLen]
}

// idOf returns the episode id of tally i.
func (c *runCounter) idOf(i int32) []byte {
	b, t := c.at(i)
	return b.ids[t.id : t.id+t.idLen]
}

// reset empties the counter; its blocks are not reused (the strings of a
// companion's batches may still point into their ids).
func (c *runCounter) reset() {
	clear(c.blocks)
	c.blocks, c.n = c.blocks[:0], 0
}

// Add counts a batch of verdict rows ([]schema.Verdict).
func (c *runCounter) Add(rows any) {
	for _, v := range rows.([]schema.Verdict) {
		c.addRun(v.EpisodeID, v.Run, v.Verdict, v.Score)
	}
}

// addRun counts one verdict run of a decoded row (nil: the field is null).
func (c *runCounter) addRun(episode string, run int64, verdict *string, score *float64) {
	var v string
	var sc float64
	if verdict != nil {
		v = *verdict
	}
	if score != nil {
		sc = *score
	}
	c.add(episode, v, verdict != nil, sc, score != nil, run)
}

// add counts one verdict run, run its run number.
func (c *runCounter) add(episode, verdict string, hasVerdict bool, score float64, hasScore bool, run int64) {
	i := c.last
	if i < 0 || string(c.idOf(i)) != episode {
		if c.spill != nil {
			i = c.group(episode)
		} else {
			i = c.find(episode)
		}
		c.last = i
	}
	b, t := c.at(i)
	t.runs++
	if !hasVerdict {
		if !hasScore { // not a valid row (schema.Verdict.Validate): a run without a verdict
			return
		}
		if t.nScores == scoresPerRow { // the episode continues in a new row
			t.runs--
			i = c.newTally(episode, t.seq+1)
			if c.index != nil {
				c.index[xxh3.HashString(episode)] = i
			}
			c.last = i
			b, t = c.at(i)
			t.runs++
		}
		if t.nScores == 0 {
			if b.scores == nil { // room for every tally of the block: no copies as it fills
				b.scores, b.runs = make([]float64, 0, scoresPerRow*tallyBlockLen), make([]int64, 0, scoresPerRow*tallyBlockLen)
			}
			t.score = int32(len(b.scores))
			b.scores = append(b.scores, 0, 0, 0)
			b.runs = append(b.runs, 0, 0, 0)
		}
		b.scores[t.score+t.nScores] = score
		b.runs[t.score+t.nScores] = run
		t.nScores++
		return
	}
	if hasScore {
		t.scoredVerdicts++
	}
	switch verdict {
	case schema.VerdictParseError:
		t.parse++
	case schema.VerdictSuccess:
		t.success++
	case schema.VerdictFailure:
		t.failure++
	case schema.VerdictUncertain:
		t.uncert++
	}
}

// find returns the latest tally of an episode other than the previous
// run's, starting one if it is new. While the episodes arrive in
// increasing order (most inputs are written episode by episode, in order)
// a different one is always new and no index is kept; the first that
// breaks the order builds it.
func (c *runCounter) find(episode string) int32 {
	if c.index == nil {
		if c.n == 0 || episode > string(c.idOf(c.n-1)) {
			return c.newTally(episode, 0)
		}
		c.index = make(map[uint64]int32, 2*c.n)
		for i := range c.n {
			c.index[xxh3.Hash(c.idOf(i))] = i
		}
	}
	h := xxh3.HashString(episode)
	if i, ok := c.index[h]; ok && string(c.idOf(i)) == episode {
		return i
	}
	// New episode (or, once in 2^64, another id with the same hash: it
	// then gets rows of its own, and the sums still hold).
	i := c.newTally(episode, 0)
	c.index[h] = i
	return i
}

// newTally starts a row for an episode (seq 0 for its first row in the
// file); the index, if any, is the caller's to update. Tallies go into
// blocks of fixed size, never copied: a file has many, and a growing
// slice would copy them again at every doubling.
func (c *runCounter) newTally(episode string, seq int32) int32 {
	i := c.n
	if int(i/tallyBlockLen) == len(c.blocks) {
		c.blocks = append(c.blocks, &tallyBlock{
			tallies: make([]runTally, 0, tallyBlockLen),
			ids:     make([]byte, 0, tallyBlockLen*32),
		})
	}
	b := c.blocks[i/tallyBlockLen]
	c.n++
	if seq > 0 {
		if lb, last := c.at(c.last); lb == b { // the episode's previous row: share its id
			b.tallies = append(b.tallies, runTally{id: last.id, idLen: last.idLen, seq: seq})
			return i
		}
	}
	b.tallies = append(b.tallies, runTally{id: int32(len(b.ids)), idLen: int32(len(episode)), seq: seq})
	b.ids = append(b.ids, episode...)
	return i
}

// result returns every counted row, with values as their partition and
// src as their provenance.
func (c *runCounter) result(values []string, src string) []schema.RunCount {
	rows := make([]schema.RunCount, 0, c.n)
	for _, b := range c.blocks {
		rows = b.appendRows(rows, values, src)
	}
	return rows
}

// appendRows appends the rows of the block's tallies to rows.
func (b *tallyBlock) appendRows(rows []schema.RunCount, values []string, src string) []schema.RunCount {
	var judge, condition string
	if len(values) == 2 {
		judge, condition = values[0], values[1]
	}
	ids := string(b.ids) // one copy for the block's rows
	scores, runs := slices.Clone(b.scores), slices.Clone(b.runs)
	scoredVerdicts := make([]int64, len(b.tallies))
	for k := range b.tallies {
		t := &b.tallies[k]
		scoredVerdicts[k] = int64(t.scoredVerdicts)
		rows = append(rows, schema.RunCount{
			EpisodeID: ids[t.id : t.id+t.idLen], Judge: judge, Condition: condition, Seq: int64(t.seq),
			Runs: int64(t.runs), Parse: int64(t.parse), Success: int64(t.success), Failure: int64(t.failure), Uncertain: int64(t.uncert),
			ScoredVerdicts: &scoredVerdicts[k], Provenance: schema.Provenance{SrcFile: src},
		})
		r, n := &rows[len(rows)-1], t.score
		switch t.nScores {
		case 3:
			r.Score3, r.Run3 = &scores[n+2], &runs[n+2]
			fallthrough
		case 2:
			r.Score2, r.Run2 = &scores[n+1], &runs[n+1]
			fallthrough
		case 1:
			r.Score1, r.Run1 = &scores[n], &runs[n]
		}
	}
	return rows
}
