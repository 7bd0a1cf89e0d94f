package stats

import (
	"math/rand/v2"
	"sync"
)

// The cluster counts of a bootstrap's resamples depend only on the seed,
// the number of clusters n and the number of resamples: resample r draws
// n positions in id order from its own stream (reseed). ClusterCounts and
// BootstrapRatios over the same n, seed and resamples (a report's strata,
// claim sways and reward models over the same tasks) therefore draw the
// same counts; sharedDraws draws them once per process and hands them to
// each, which then see exactly the counts they would have drawn.

// maxSharedDraws bounds one table of shared draws (resamples × clusters
// counts, 4 bytes each: 16 MiB); larger bootstraps draw their own.
const maxSharedDraws = 1 << 22

// maxDrawTables bounds how many tables are kept; past it they are dropped
// (a long-lived process running many different bootstraps).
const maxDrawTables = 8

type drawKey struct {
	seed        uint64
	n, resample int
}

type drawTable struct {
	once   sync.Once
	counts []int32 // resample r: counts[r*n : (r+1)*n], by position in id order
}

var draws struct {
	mu     sync.Mutex
	tables map[drawKey]*drawTable
}

// sharedDraws returns the counts of every resample by position in id
// order, drawn once per (seed, n, resamples); nil when too large to keep.
func sharedDraws(seed uint64, n, resamples int) []int32 {
	if n < 2 || resamples*n > maxSharedDraws {
		return nil
	}
	k := drawKey{seed, n, resamples}
	draws.mu.Lock()
	t := draws.tables[k]
	if t == nil {
		if draws.tables == nil || len(draws.tables) >= maxDrawTables {
			draws.tables = map[drawKey]*drawTable{}
		}
		t = &drawTable{}
		draws.tables[k] = t
	}
	draws.mu.Unlock()
	t.once.Do(func() {
		counts := make([]int32, resamples*n)
		src := &rand.PCG{}
		rng := rand.New(src)
		for r := range resamples {
			reseed(src, seed, r)
			row := counts[r*n : (r+1)*n]
			for range n {
				row[rng.IntN(n)]++
			}
		}
		t.counts = counts
	})
	return t.counts
}
