package queries

// runScores keeps the scores of the score-only runs of every (judge ×
// condition, episode) of ReportRuns, so that episodeRuns holds a 4-byte
// reference instead of a slice header (28 instead of 48 bytes, and no
// pointer: the dense runs arrays are ~12 × episodes of them). An episode's
// first three scores (one run-count row's worth) take three places of a
// chunk; a fourth moves them all to a slice of their own in more.
// Read-only once the runs are read: safe for concurrent use then.
type runScores struct {
	chunks [][]runScore // full chunks of scoreChunk places, then the one being filled
	more   [][]runScore // the scores of episodes with more than three
}

// runScore is the score of a score-only run with its run number (0 when
// the run counts do not have it: then ReportRuns.HasScoreRuns is false).
type runScore struct {
	score float64
	run   int64
}

const (
	scoreChunk = 3 * 4096 // places per chunk, three an episode
	// inMore marks an episodeRuns.scoreAt that numbers a slice of more.
	inMore = 1 << 31
)

// add keeps x of run among e's scores. False when the references ran out
// (2³¹ places or slices; the caller gives up on the shape).
func (s *runScores) add(e *episodeRuns, x float64, run int64) bool {
	sc := runScore{x, run}
	switch {
	case e.scoreAt == 0:
		last := len(s.chunks) - 1
		if last < 0 || len(s.chunks[last]) == scoreChunk {
			s.chunks = append(s.chunks, make([]runScore, 0, scoreChunk))
			last++
		}
		pos := last*scoreChunk + len(s.chunks[last])
		if pos+1 >= inMore {
			return false
		}
		s.chunks[last] = append(s.chunks[last], sc, runScore{}, runScore{})
		e.scoreAt, e.nScores = uint32(pos+1), 1
	case e.scoreAt&inMore != 0:
		j := e.scoreAt &^ inMore
		s.more[j] = append(s.more[j], sc)
	case e.nScores < 3:
		p := int(e.scoreAt - 1)
		s.chunks[p/scoreChunk][p%scoreChunk+int(e.nScores)] = sc
		e.nScores++
	default:
		if len(s.more) >= inMore {
			return false
		}
		moved := append(make([]runScore, 0, 6), s.of(e)...)
		s.more = append(s.more, append(moved, sc))
		e.scoreAt, e.nScores = uint32(len(s.more)-1)|inMore, 0
	}
	return true
}

// of returns e's scores in the order they were added (not to be changed).
func (s *runScores) of(e *episodeRuns) []runScore {
	switch {
	case e.scoreAt == 0:
		return nil
	case e.scoreAt&inMore != 0:
		return s.more[e.scoreAt&^inMore]
	}
	p := int(e.scoreAt - 1)
	return s.chunks[p/scoreChunk][p%scoreChunk:][:e.nScores:e.nScores]
}
