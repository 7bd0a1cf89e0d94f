package stats_test

import (
	"fmt"

	"github.com/trustlake/trustlake/stats"
)

// A judge's FPR with its Wilson interval and a task-clustered bootstrap
// interval, from per-task counts as the SQL layer produces them.
func Example() {
	tasks := []string{"t1", "t2", "t3", "t4", "t5", "t6"}
	fp := []float64{1, 0, 3, 0, 2, 1}  // judge success on GT failure
	neg := []float64{4, 3, 5, 2, 6, 4} // GT failures

	lo, hi := stats.Wilson(7, 24, 0.05)
	fmt.Printf("FPR 7/24 = %.3f, Wilson [%.3f, %.3f]\n", 7.0/24, lo, hi)

	iv, err := stats.BootstrapRatios(tasks, []stats.RatioStat{{A: stats.Ratio{Num: fp, Den: neg}}}, stats.BootstrapOptions{Seed: 20261010})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("bootstrap ok=%v, %d resamples, contains estimate: %v\n", iv[0].OK, iv[0].Used, iv[0].Lo <= iv[0].Estimate && iv[0].Estimate <= iv[0].Hi)
	// Output:
	// FPR 7/24 = 0.292, Wilson [0.149, 0.492]
	// bootstrap ok=true, 2000 resamples, contains estimate: true
}
