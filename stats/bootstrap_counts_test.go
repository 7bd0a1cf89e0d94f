package stats

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

// TestClusterCountsSameDraws: resample r of ClusterCounts draws each
// cluster as often as the r-th resample ClusterBootstrap hands its stat
// (one worker there, so its calls come in resample order), whatever the
// number of workers and the input order of the ids.
func TestClusterCountsSameDraws(t *testing.T) {
	d := newTaskData(7, 23, 0.2, 0.3).permuted(5)
	opts := BootstrapOptions{Resamples: 300, Seed: 42, Workers: 1}
	var want [][]int
	first := true
	if _, err := ClusterBootstrap(d.ids, func(idx []int) float64 {
		if first { // the estimate on the original sample
			first = false
			return 0
		}
		counts := make([]int, len(d.ids))
		for _, i := range idx {
			counts[i]++
		}
		want = append(want, counts)
		return 0
	}, opts); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		opts.Workers = workers
		got := make([][]int, opts.Resamples)
		var mu sync.Mutex
		seen := map[int]bool{}
		err := ClusterCounts(d.ids, opts, func(worker, r int, counts []int) {
			if worker < 0 || worker >= workers {
				t.Errorf("worker %d of %d", worker, workers)
			}
			mu.Lock()
			defer mu.Unlock()
			seen[r] = true
			got[r] = slices.Clone(counts)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != opts.Resamples {
			t.Fatalf("workers %d: %d resamples, want %d", workers, len(seen), opts.Resamples)
		}
		for r := range want {
			if !slices.Equal(got[r], want[r]) {
				t.Fatalf("workers %d: resample %d counts %v, ClusterBootstrap draws %v", workers, r, got[r], want[r])
			}
		}
	}
}

func TestClusterCountsStopsAndFails(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	calls := 0
	err := ClusterCounts([]string{"a", "b", "c"}, BootstrapOptions{Workers: 1, Stop: stop}, func(int, int, []int) { calls++ })
	if !errors.Is(err, ErrStopped) || calls != 0 {
		t.Errorf("stopped: err %v after %d calls, want ErrStopped after none", err, calls)
	}
	if err := ClusterCounts([]string{"a", "a"}, BootstrapOptions{}, func(int, int, []int) {}); err == nil {
		t.Error("duplicate ids: no error")
	}
	if err := ClusterCounts([]string{"a"}, BootstrapOptions{}, func(int, int, []int) { t.Error("called with one cluster") }); err != nil {
		t.Error(err)
	}
}
