package queries

import (
	"bytes"
	"runtime"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/lake"
)

// countFileReads reads the session's run_counts files in Go
// (lake.ReadRunCountColumns) on as many goroutines as cores, while the
// caller goes on; wait returns them in the order of s.countFiles, or ok
// false when one could not be read there (another layout, or a damaged
// file): the caller then runs the statement, which reads it or reports
// the damage.
type countFileReads struct {
	wg   sync.WaitGroup
	cols []*lake.RunCountColumns
	errs []error
}

// readCountFiles starts reading the session's run_counts files, nil when
// MetricsCells and ReadReportRuns read them in SQL: the snapshot's run
// counts are not complete, or Options.CountsInSQL.
func (s *Session) readCountFiles(withRuns bool) *countFileReads {
	if !s.runCountsComplete || len(s.countFiles) == 0 || s.opts.CountsInSQL {
		return nil
	}
	files := s.countFiles
	f := &countFileReads{cols: make([]*lake.RunCountColumns, len(files)), errs: make([]error, len(files))}
	work := make(chan int, len(files))
	for i := range files {
		work <- i
	}
	close(work)
	for range min(len(files), max(1, runtime.GOMAXPROCS(0))) {
		f.wg.Go(func() {
			var like *lake.RunCountColumns // the previous file's: mostly the same ids
			for i := range work {
				f.cols[i], f.errs[i] = lake.ReadRunCountColumns(files[i].Path, withRuns, like)
				if f.errs[i] == nil {
					like = f.cols[i]
				}
			}
		})
	}
	return f
}

func (f *countFileReads) wait() ([]*lake.RunCountColumns, bool) {
	f.wg.Wait()
	for _, err := range f.errs {
		if err != nil {
			return nil, false
		}
	}
	return f.cols, true
}

// addCountFiles adds the run counts of the files (cols[i] read from
// files[i]) to r: what ReadReportRuns adds from the rows of
// sql/report_runs.sql, in the same order (file by file), with each file's
// judge × condition from its partition and each row's episode found by its
// id. The runs of ids outside r.eps are told apart by their ids.
func (r *ReportRuns) addCountFiles(files []lake.RunCountFile, cols []*lake.RunCountColumns) error {
	look := idLookup{r: r, prev: -1}
	unknownIDs := map[string]uint64{}
	// Files whose ids are the same slices (lake.ReadRunCountColumns shares
	// a file's ids with the previous file's of its reader when they are
	// equal: every partition of one ingest lists the episodes in the same
	// order) look their episodes up once: at[row], −1 for an id outside
	// r.eps.
	type sameIDs struct {
		ids   *byte
		nIDs  int
		offs  *uint32
		nOffs int
	}
	found := map[sameIDs][]int32{}
	for fi, c := range cols {
		jc := JudgeCondition{Judge: files[fi].Judge, Condition: files[fi].Condition}
		k := slices.Index(r.jcs, jc)
		if k < 0 {
			k = len(r.jcs)
			r.jcs = append(r.jcs, jc)
			r.runs = append(r.runs, make([]episodeRuns, len(r.eps)))
			r.unknown = append(r.unknown, nil)
			r.scoreRuns = append(r.scoreRuns, true)
		}
		key := sameIDs{nIDs: len(c.IDs), nOffs: len(c.IDOffsets)}
		if len(c.IDs) > 0 {
			key.ids = &c.IDs[0]
		}
		if len(c.IDOffsets) > 0 {
			key.offs = &c.IDOffsets[0]
		}
		at, ok := found[key]
		if !ok {
			at = make([]int32, c.Rows())
			for row := range at {
				at[row] = -1
				if i, ok := look.find(c.ID(row)); ok {
					at[row] = int32(i)
				}
			}
			found[key] = at
		}
		for row := range c.Rows() {
			if v, ok := c.ScoredVerdicts(row); !ok || v != 0 {
				r.scoreRuns[k] = false // written before run numbers, or scores not kept
			}
			var e *episodeRuns
			if i := at[row]; i >= 0 {
				e = &r.runs[k][i]
			} else {
				id := c.ID(row)
				code, seen := unknownIDs[string(id)]
				if !seen {
					code = uint64(len(unknownIDs))
					unknownIDs[string(id)] = code
				}
				if r.unknown[k] == nil {
					r.unknown[k] = map[uint64]*episodeRuns{}
				}
				if e = r.unknown[k][code]; e == nil {
					e = &episodeRuns{}
					r.unknown[k][code] = e
				}
			}
			e.seen = true
			e.runs += c.Runs[row]
			e.parse += c.Parse[row]
			e.success += c.Success[row]
			e.failure += c.Failure[row]
			e.unc += c.Uncer[row]
			for j := range 3 {
				score, ok := c.Score(j, row)
				if !ok {
					continue
				}
				no, ok := c.RunNo(j, row)
				if !ok {
					r.scoreRuns[k] = false
				}
				if !r.scores.add(e, score, no) {
					return ErrReportRunsShape
				}
			}
		}
	}
	return nil
}

// idLookup finds episodes by id in rows that mostly come in the order of
// r.eps (see episodeLookup): the next episode first, else a binary search
// of r.byID.
type idLookup struct {
	r    *ReportRuns
	prev int
}

func (l *idLookup) find(id []byte) (int, bool) {
	eps := l.r.eps
	if n := l.prev + 1; n < len(eps) && eps[n].id == string(id) {
		l.prev = n
		return n, true
	}
	byID := l.r.byID
	j, ok := slices.BinarySearchFunc(byID, id, func(i int, id []byte) int { return bytes.Compare([]byte(eps[i].id), id) })
	if !ok {
		return 0, false
	}
	l.prev = byID[j]
	return byID[j], true
}
