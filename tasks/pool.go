package tasks

import (
	"context"
	"sync"
)

// forEach calls fn(i) for i in [0, n) on at most jobs goroutines (jobs < 1
// means 1). It stops handing out work when ctx is done.
func forEach(ctx context.Context, n, jobs int, fn func(i int)) {
	jobs = max(1, min(jobs, n))
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for i := range next {
				fn(i)
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

// progress counts finished items for an optional callback; safe for
// concurrent use, and the callback is never called concurrently.
type progress struct {
	mu          sync.Mutex
	done, total int
	fn          func(done, total int)
}

func (p *progress) step() {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	p.done++
	p.fn(p.done, p.total)
	p.mu.Unlock()
}
