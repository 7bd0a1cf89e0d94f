package queries

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/trustlake/trustlake/lake"
)

// episodeCellsStatement returns the statement of every episode's cell:
// the episode_cells part of sql/metrics_cells.sql, with the reference as
// $3 instead of $4 (the threshold is not a value of it).
func episodeCellsStatement() (string, error) {
	part, err := sqlPart("metrics_cells", "episode_cells")
	if err != nil {
		return "", err
	}
	part = strings.TrimSuffix(strings.TrimSpace(part), ",")
	part = strings.ReplaceAll(part, "$4", "$3")
	return "WITH " + part + "\nSELECT episode_id, cell, task_id, source, gt_pass, agent, category FROM numbered", nil
}

// cellsFromFiles returns what sql/metrics_cells.sql returns (before
// FoldCellGroups), computed here: the episodes' cells come from DuckDB
// (the statement's episode_cells part) while the run_counts files are read
// in Go (lake.ReadRunCountColumns) on the other cores, then each run-count
// row is joined to its episode's cells and summed per judge, condition,
// cell and valid runs as the statement does. ok is false when the session
// reads the run counts in SQL (readCountFiles) or a file is not in the
// layout read here: the caller runs the statement instead.
func (s *Session) cellsFromFiles(ctx context.Context, opts MetricCellOptions) (groups []CellGroup, ok bool, err error) {
	files := s.countFiles
	reads := s.readCountFiles(false) // on the other cores, while DuckDB numbers the cells
	if reads == nil {
		return nil, false, nil
	}
	ec, err := s.episodeCells(ctx, opts)
	cols, ok := reads.wait()
	if err != nil || !ok {
		return nil, false, err
	}
	// One judge × condition at a time, on as many cores.
	jcs, byJC := map[JudgeCondition]int{}, [][]int{}
	for i, f := range files {
		k := JudgeCondition{f.Judge, f.Condition}
		j, seen := jcs[k]
		if !seen {
			j = len(byJC)
			jcs[k] = j
			byJC = append(byJC, nil)
		}
		byJC[j] = append(byJC[j], i)
	}
	var wg sync.WaitGroup
	parts := make([][]CellGroup, len(byJC))
	jobs := make(chan int, len(byJC))
	for j := range byJC {
		jobs <- j
	}
	close(jobs)
	rc := &rowCells{}
	for range min(len(byJC), max(1, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				f := files[byJC[j][0]]
				var sel []*lake.RunCountColumns
				for _, i := range byJC[j] {
					sel = append(sel, cols[i])
				}
				parts[j] = sumJudgeCondition(f.Judge, f.Condition, sel, !s.runsPerEpisode || len(sel) > 1, opts.Threshold, ec, rc)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	groups = make([]CellGroup, 0, n)
	for _, p := range parts {
		groups = append(groups, p...)
	}
	return groups, true, nil
}

// episodeCellSet is every episode's cells (the statement's numbered part):
// cellOf maps an episode id to its cell, or to -1-k for the k-th list of
// multi (an id on several rows of numbered joins each of them); keys[c]
// is the key of cell c (cell 0: no episode row, its key all missing).
type episodeCellSet struct {
	cellOf map[string]int32
	multi  [][]int32
	keys   []CellGroup // only the key fields
}

// episodeCells runs the episode cells statement.
func (s *Session) episodeCells(ctx context.Context, opts MetricCellOptions) (*episodeCellSet, error) {
	q, err := episodeCellsStatement()
	if err != nil {
		return nil, err
	}
	ec := &episodeCellSet{cellOf: map[string]int32{}, keys: []CellGroup{{}}}
	in := interner{}
	err = s.queryArrow(ctx, q, []any{opts.ByAgent, opts.ByCategory, gtOrDefault(opts.GT)}, func(rec arrow.RecordBatch) error {
		var (
			strs [5]*array.String // episode_id, task_id, source, agent, category
			cell *array.Int64
			gt   *array.Boolean
			err  error
		)
		for k, i := range [5]int{0, 2, 3, 5, 6} {
			if strs[k], err = arrowColumn[*array.String](rec, i); err != nil {
				return err
			}
		}
		if cell, err = arrowColumn[*array.Int64](rec, 1); err != nil {
			return err
		}
		if gt, err = arrowColumn[*array.Boolean](rec, 4); err != nil {
			return err
		}
		for r := range int(rec.NumRows()) {
			c := cell.Value(r)
			if c <= 0 || c > math.MaxInt32 {
				return fmt.Errorf("episode cells: cell number %d", c)
			}
			if int(c) >= len(ec.keys) {
				for int(c) >= len(ec.keys) {
					ec.keys = append(ec.keys, CellGroup{Cell: -1})
				}
			}
			if k := &ec.keys[c]; k.Cell < 0 {
				*k = CellGroup{Cell: c, HasTask: strs[1].IsValid(r), HasSource: strs[2].IsValid(r), HasGT: gt.IsValid(r),
					Agent: in.get(strs[3], r), Category: in.get(strs[4], r)}
				if k.HasTask {
					k.TaskID = in.get(strs[1], r)
				}
				if k.HasSource {
					k.Source = in.get(strs[2], r)
				}
				k.GTPass = k.HasGT && gt.Value(r)
			}
			if !strs[0].IsValid(r) {
				continue // joins no run count
			}
			id := strs[0].Value(r)
			switch prev, seen := ec.cellOf[id]; {
			case !seen:
				ec.cellOf[strings.Clone(id)] = int32(c)
			case prev >= 0:
				ec.multi = append(ec.multi, []int32{prev, int32(c)})
				ec.cellOf[id] = -int32(len(ec.multi))
			default:
				ec.multi[-prev-1] = append(ec.multi[-prev-1], int32(c))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query episode cells: %w", err)
	}
	for c := range ec.keys {
		if ec.keys[c].Cell < 0 {
			return nil, fmt.Errorf("episode cells: no row of cell %d", c)
		}
	}
	return ec, nil
}

// rowCells remembers the cells of one file's rows, so that the next file
// with the very same episode ids in the same order (every judge ×
// condition of one ingest) is not looked up again.
type rowCells struct {
	mu    sync.Mutex
	ids   []byte
	offs  []uint32
	cells []int32
}

// of returns the cell reference (episodeCellSet.cellOf's, 0 for none) of
// each row of c.
func (rc *rowCells) of(c *lake.RunCountColumns, ec *episodeCellSet) []int32 {
	rc.mu.Lock()
	if rc.cells != nil && bytes.Equal(rc.ids, c.IDs) && slices.Equal(rc.offs, c.IDOffsets) {
		cells := rc.cells
		rc.mu.Unlock()
		return cells
	}
	rc.mu.Unlock()
	cells := make([]int32, c.Rows())
	for i := range cells {
		cells[i] = ec.cellOf[string(c.ID(i))] // 0 when missing: cell 0
	}
	rc.mu.Lock()
	rc.ids, rc.offs, rc.cells = c.IDs, c.IDOffsets, cells
	rc.mu.Unlock()
	return cells
}
