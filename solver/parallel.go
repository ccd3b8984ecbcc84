package solver

import (
	"runtime"
	"sync"
	"sync/atomic"

	"planner/model"
)

// inParallel calls work on the ranges [lo, hi) that cover [0, n), chunk
// items each, on up to GOMAXPROCS goroutines (at most maxWorkers, and
// none beside the caller's where there is one range), each with its own
// view of the problem's access cache. work must write only what its
// items own. The calling goroutine checks the limits between its ranges;
// once one is reached the others stop after their current range, and
// the limit's error is returned.
func (p *Problem) inParallel(n, chunk int, work func(cache *model.AccessCache, lo, hi int)) error {
	if n == 0 {
		return nil
	}
	workChunk := int64(chunk)
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, (n+chunk-1)/chunk)
	var next atomic.Int64
	var stop atomic.Bool
	run := func(cache *model.AccessCache, check func() error) error {
		for !stop.Load() {
			lo := int(next.Add(workChunk) - workChunk)
			if lo >= n {
				return nil
			}
			work(cache, lo, min(lo+chunk, n))
			if err := check(); err != nil {
				stop.Store(true)
				return err
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(p.build.access.View(), func() error { return nil })
		}()
	}
	err := run(p.build.access, p.watch.check) // this goroutine alone reads the limits
	wg.Wait()
	return err
}

// eachParallel calls fn(i) for every i in [0, n), the range cut in one
// contiguous part per CPU (GOMAXPROCS, at most maxWorkers): for a few
// items of pure work each, outside a problem's limits (inParallel checks
// them). fn must write only what item i owns.
func eachParallel(n int, fn func(i int)) {
	parts := min(runtime.GOMAXPROCS(0), maxWorkers, n)
	var wg sync.WaitGroup
	for w := 1; w < parts; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w * n / parts; i < (w+1)*n/parts; i++ {
				fn(i)
			}
		}()
	}
	for i := range n / max(parts, 1) {
		fn(i)
	}
	wg.Wait()
}

// maxWorkers bounds the goroutines inParallel runs; pairChunk is the
// pairs of layouts (or of a layout and a placement) each takes at a time.
const (
	maxWorkers = 8
	pairChunk  = 32
)
