package metrics

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// ThresholdOptions configure Threshold. Zero values mean defaults.
type ThresholdOptions struct {
	Judge     queries.JudgeCondition
	Source    string  // "" means natural
	TargetFPR float64 // the FPR the threshold must keep on calibration folds
	Folds     int     // 0 means 5
	Alpha     float64 // 0 means 0.05
	Resamples int     // 0 means 2000
	Seed      uint64  // folds and bootstrap; 0 means DefaultSeed
}

// ThresholdReport is the result of Threshold. TP, FP, TN and FN pool the
// held-out folds: each episode judged with the threshold chosen on the
// other folds.
type ThresholdReport struct {
	Judge          string    `json:"judge"`
	Condition      string    `json:"condition"`
	Source         string    `json:"source"`
	TargetFPR      float64   `json:"fpr_target"`
	Folds          int       `json:"folds"`
	Seed           uint64    `json:"seed"`
	Threshold      float64   `json:"threshold"`       // chosen on all episodes (for deployment)
	FoldThresholds []float64 `json:"fold_thresholds"` // chosen without fold f
	NEpisodes      int       `json:"n_episodes"`
	NPos           int       `json:"n_pos"`
	NNeg           int       `json:"n_neg"`
	NTasks         int       `json:"n_tasks"`
	TP             int       `json:"tp"`
	FP             int       `json:"fp"`
	TN             int       `json:"tn"`
	FN             int       `json:"fn"`
	HeldOutFPR     Metric    `json:"heldout_fpr"`
	HeldOutTPR     Metric    `json:"heldout_tpr"`
	AUC            Metric    `json:"roc_auc"`
	Warnings       []string  `json:"warnings"`
	// ROC is the ROC curve of the episode scores (stats.ROCCurve; for the
	// report, not in --json).
	ROC []stats.ROCPoint `json:"-"`
}

// Threshold chooses a score threshold for a score-only judge (reward model)
// by k-fold cross-fitting with folds split by task (stats.CrossFitThreshold)
// so that the FPR stays within TargetFPR, and reports the held-out FPR and
// TPR with Wilson and task-cluster bootstrap intervals, and the ROC AUC of
// the episode scores with a bootstrap interval. An episode's score is the
// mean of its runs' scores.
func Threshold(ctx context.Context, s ScoreEngine, opts ThresholdOptions) (ThresholdReport, error) {
	mo, err := Options{Source: opts.Source, Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed}.withDefaults()
	if err != nil {
		return ThresholdReport{}, err
	}
	mo.stop = ctx.Done()
	if !(opts.TargetFPR >= 0 && opts.TargetFPR <= 1) {
		return ThresholdReport{}, fmt.Errorf("%w: --fpr-target %v: must be in [0, 1]", ErrBadOption, opts.TargetFPR)
	}
	opts.Folds = cmp.Or(opts.Folds, 5)
	if opts.Folds < 2 {
		return ThresholdReport{}, fmt.Errorf("%w: --folds %d: need at least 2", ErrBadOption, opts.Folds)
	}
	zero := 0.0
	if _, err := prepare(ctx, s); err != nil {
		return ThresholdReport{}, err
	}
	if err := checkJudgeConditions(ctx, s, &zero, opts.Judge); err != nil {
		return ThresholdReport{}, err
	}
	scores, err := s.MetricsScores(ctx, opts.Judge, mo.Source)
	if err != nil {
		return ThresholdReport{}, err
	}
	if len(scores) == 0 {
		return ThresholdReport{}, fmt.Errorf("%w: %s has no scored %s episode with ground truth (threshold needs a score-only judge such as a reward model)",
			ErrNoGroundTruth, opts.Judge, mo.Source)
	}
	out := ThresholdReport{Judge: opts.Judge.Judge, Condition: opts.Judge.Condition, Source: mo.Source,
		TargetFPR: opts.TargetFPR, Folds: opts.Folds, Seed: mo.Seed, NEpisodes: len(scores), Warnings: []string{}}
	items := make([]stats.Scored, len(scores))
	for i, sc := range scores {
		items[i] = stats.Scored{Task: sc.TaskID, Score: sc.Score, Positive: sc.GTPass}
		if sc.GTPass {
			out.NPos++
		} else {
			out.NNeg++
		}
	}
	cf, err := stats.CrossFitThreshold(items, stats.CrossFitOptions{TargetFPR: opts.TargetFPR, Folds: opts.Folds, Seed: mo.Seed})
	if err != nil {
		return ThresholdReport{}, fmt.Errorf("%w: %s: %v", ErrBadOption, opts.Judge, err)
	}
	out.Threshold, out.FoldThresholds = cf.Threshold, cf.FoldThresholds
	out.TP, out.FP, out.TN, out.FN = cf.TP, cf.FP, cf.TN, cf.FN
	out.NTasks = len(cf.FoldOf)
	out.HeldOutFPR = wilsonMetric(cf.FP, cf.FP+cf.TN, mo.Alpha)
	out.HeldOutTPR = wilsonMetric(cf.TP, cf.TP+cf.FN, mo.Alpha)
	if err := thresholdIntervals(&out, items, cf, mo); err != nil {
		return ThresholdReport{}, err
	}
	return out, nil
}

// Thresholds is Threshold for several judges at once, each on its own
// goroutine: errs[i] is Threshold's error for opts[i], reports[i] its
// report otherwise.
func Thresholds(ctx context.Context, s ScoreEngine, opts []ThresholdOptions) (reports []ThresholdReport, errs []error) {
	reports, errs = make([]ThresholdReport, len(opts)), make([]error, len(opts))
	var wg sync.WaitGroup
	for i, o := range opts {
		wg.Go(func() { reports[i], errs[i] = Threshold(ctx, s, o) })
	}
	wg.Wait()
	return reports, errs
}

// thresholdIntervals sets out's ROC AUC and curve, and the task-cluster
// bootstrap intervals of the held-out rates (the fold thresholds kept
// fixed) and of the AUC, all three from one pass over the resamples
// (stats.ClusterCounts: the draws of stats.BootstrapRatios and
// stats.ClusterBootstrap, each statistic summed as those sum it) with
// scratch space per worker.
func thresholdIntervals(out *ThresholdReport, items []stats.Scored, cf stats.CrossFit, mo Options) error {
	ids := slices.Sorted(maps.Keys(cf.FoldOf))
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
	}
	n := len(ids)
	foldThreshold := make([]float64, n) // per task: its fold's threshold
	for i, id := range ids {
		foldThreshold[i] = cf.FoldThresholds[cf.FoldOf[id]]
	}
	fp, neg, tp, pos := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	itemTask := make([]int, len(items)) // task numbers, looked up once
	for k, it := range items {
		i := index[it.Task]
		itemTask[k] = i
		accept := it.Score >= foldThreshold[i]
		if it.Positive {
			pos[i]++
			if accept {
				tp[i]++
			}
		} else {
			neg[i]++
			if accept {
				fp[i]++
			}
		}
	}
	scores, positive := make([]float64, len(items)), make([]bool, len(items))
	for k, it := range items {
		scores[k], positive[k] = it.Score, it.Positive
	}
	out.AUC = undefined(false)
	out.AUC.Value = stats.ROCAUC(scores, positive)
	out.ROC = stats.ROCCurve(scores, positive)
	pairs := newAUCPairsOf(items, itemTask, n) // the AUC of every resample
	if n < 2 {
		out.Warnings = append(out.Warnings, "fewer than two tasks: bootstrap intervals are null")
		return nil
	}
	workers := runtime.GOMAXPROCS(0) // stats.ClusterCounts' workers
	R := mo.Resamples
	vals := make([]float64, 3*R) // held-out FPR, TPR, AUC per resample
	type scratch struct {
		w     []float64
		drawn []int
	}
	per := make([]scratch, workers)
	err := stats.ClusterCounts(ids, mo.boot(), func(worker, r int, counts []int) {
		sc := &per[worker]
		if sc.w == nil {
			sc.w, sc.drawn = make([]float64, n), make([]int, 0, n)
		}
		w := sc.w
		for i, c := range counts {
			w[i] = float64(c)
		}
		vals[r], vals[R+r] = stats.WeightedRatio(fp, neg, w), stats.WeightedRatio(tp, pos, w)
		vals[2*R+r] = pairs.weighted(w, sc.drawn)
	})
	if err != nil {
		return fmt.Errorf("bootstrap threshold: %w", err)
	}
	for k, m := range []*Metric{&out.HeldOutFPR, &out.HeldOutTPR, &out.AUC} {
		m.Boot = bounds(stats.Percentiles(vals[k*R:(k+1)*R], mo.Alpha)) // NaNs when every resample is undefined
	}
	return nil
}
