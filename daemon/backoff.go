package daemon

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
)

// Delays between passes retried after a write error (a full disk): the
// daemon keeps serving reads meanwhile.
const (
	firstRetry = 5 * time.Second
	maxRetry   = 5 * time.Minute
)

// writeRetry retries, with backoff, the passes a write error stopped: the
// changes they carried are lost with them, so the retry reconciles every
// root, which finds them again by their fingerprints.
type writeRetry struct {
	mu      sync.Mutex
	delay   time.Duration // 0: no run of write errors under way
	pending bool          // a retry is scheduled
	// first and max override firstRetry and maxRetry (tests).
	first, max time.Duration
}

// afterPass is told each pass's error. It reports whether that error is one
// of a run of write errors already logged (the caller logs it quietly), and
// schedules the next retry.
func (k *Keeper) afterPass(ctx context.Context, err error) (repeated bool) {
	r := &k.retry
	var we *indexer.WriteError
	r.mu.Lock()
	defer r.mu.Unlock()
	if !errors.As(err, &we) {
		if err == nil && r.delay > 0 {
			k.log.Info("writing to the index again")
			r.delay = 0
		}
		return false
	}
	first, most := cmp.Or(r.first, firstRetry), cmp.Or(r.max, maxRetry)
	repeated = r.delay > 0
	if !repeated {
		r.delay = first
		if we.Stopped {
			k.log.Warn("the index is not being written to since a write failed; reads go on; restart the daemon once the disk has room")
		} else {
			k.log.Warn("the index is not being written to; reads go on, and writes are retried", "in", first, "at_most_every", most)
		}
	} else {
		r.delay = min(2*r.delay, most)
	}
	if r.pending || ctx.Err() != nil {
		return repeated
	}
	r.pending = true
	delay := r.delay
	time.AfterFunc(delay, func() {
		r.mu.Lock()
		r.pending = false
		r.mu.Unlock()
		if ctx.Err() == nil {
			k.run(ctx, "retry", len(k.opts.Roots), func() (*ingest.Summary, error) { return k.ing.Reconcile(ctx, k.opts.Roots) })
		}
	})
	return repeated
}
