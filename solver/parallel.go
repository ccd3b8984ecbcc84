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
			run(p.access.View(), func() error { return nil })
		}()
	}
	err := run(p.access, p.watch.check) // this goroutine alone reads the limits
	wg.Wait()
	return err
}

// maxWorkers bounds the goroutines inParallel runs; pairChunk is the
// pairs of layouts (or of a layout and a placement) each takes at a time.
const (
	maxWorkers = 8
	pairChunk  = 32
)
