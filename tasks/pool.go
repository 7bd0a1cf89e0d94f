package tasks

import (
	"context"
	"sync"
)

// forEach calls fn(i) for i in [0, n) on at most opts.Jobs goroutines (< 1
// means 1). It stops handing out work when ctx is done. After each call it
// reports the count done so far to opts.Progress, one report at a time.
func forEach(ctx context.Context, n int, opts RunOptions, fn func(i int)) {
	jobs := max(1, min(opts.Jobs, n))
	next := make(chan int)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for range jobs {
		wg.Go(func() {
			for i := range next {
				fn(i)
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, n)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}
