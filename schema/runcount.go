package schema

// RunCount is a derived row of the run_counts table: the verdict runs of
// one episode in one verdicts data file, counted by the lake when it wrote
// that file (in the same commit). Runs with a verdict are counted per
// verdict value; the scores of score-only runs (reward models, thresholded
// only at query time) are kept, up to three a row, so any threshold gives
// exact counts (an episode with more score-only runs in one file gets more
// rows, Seq 1, 2, …), each with its run number, so that a reader can
// average an episode's scores in run order (the report's reward models).
// Rows of several files (one per ingest batch) add up: readers sum them
// per (judge, condition, episode). Partitions: judge, condition (those of
// the counted file).
type RunCount struct {
	EpisodeID string   `parquet:"episode_id" lake:"key"`
	Judge     string   `parquet:"-" lake:"key,partition=judge"`
	Condition string   `parquet:"-" lake:"key,partition=condition"`
	Seq       int64    `parquet:"seq" lake:"key"` // 0, then 1, 2, … for the episode's further rows in the same file
	Runs      int64    `parquet:"n_runs"`         // runs counted by this row, with a verdict or score-only
	Parse     int64    `parquet:"n_parse"`        // runs with verdict parse_error
	Success   int64    `parquet:"n_success"`
	Failure   int64    `parquet:"n_failure"`
	Uncertain int64    `parquet:"n_uncertain"`
	Score1    *float64 `parquet:"score_1,optional"` // scores of score-only runs, in file order
	Score2    *float64 `parquet:"score_2,optional"`
	Score3    *float64 `parquet:"score_3,optional"`
	// Run1..Run3 are the run numbers of Score1..Score3 (nil with the
	// score).
	Run1 *int64 `parquet:"run_1,optional"`
	Run2 *int64 `parquet:"run_2,optional"`
	Run3 *int64 `parquet:"run_3,optional"`
	// ScoredVerdicts counts the runs with a verdict and a score: scores
	// the row does not keep. Always set since the run numbers are kept:
	// nil marks a row written before (its scores have no run numbers).
	ScoredVerdicts *int64 `parquet:"n_scored_verdicts,optional"`
	Provenance            // _src_file: the verdicts data file counted
}
