package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/watcher"
)

// Ingester is what keeping the index in line needs of ingest.Ingester.
type Ingester interface {
	Reconcile(ctx context.Context, roots []string) (*ingest.Summary, error)
	Sync(ctx context.Context, paths []string) (*ingest.Summary, error)
}

var _ Ingester = (*ingest.Ingester)(nil)

// KeeperOptions configure a Keeper.
type KeeperOptions struct {
	// Roots are the roots watched: a sync request without roots reconciles
	// them all.
	Roots []string
	// Logger receives a line per pass (default: discarded).
	Logger *slog.Logger
	// OnPass, if set, is called after every pass (tests, benchmarks).
	OnPass func(Pass)
	// Record, if set, remembers across restarts which roots a first pass
	// completed (the index does), so that answers on a complete index do
	// not say it is still being built.
	Record passRecord
	// Commit, if set, is called after every pass over all the roots that
	// succeeded (the first, a retry): it ends a rebuild of the index, which
	// takes the old one's place only once whole (see Store.Commit).
	Commit func() error
}

// passRecord remembers the roots whose first pass completed.
type passRecord interface {
	MarkReconciled(roots []string) error
	Reconciled() []string
}

// Pass is the report of one Reconcile or Sync.
type Pass struct {
	// Reason is initial, rescan, changes, request or retry (after a
	// write error).
	Reason string `json:"reason"`
	// Paths is how many paths (or roots) the pass was given.
	Paths   int             `json:"paths"`
	At      time.Time       `json:"at"`
	Summary ingest.Progress `json:"summary"`
	Errors  int             `json:"errors"`
	// Err is why the pass itself failed (not one file: the index).
	Err string `json:"err,omitempty"`
}

// KeeperStatus is what /api/status tells of the keeper.
type KeeperStatus struct {
	Roots  []string `json:"roots"`
	Ready  bool     `json:"ready"`
	Passes int      `json:"passes"`
	// Last is the last pass; LastChange the last that changed the index.
	Last       *Pass `json:"last,omitempty"`
	LastChange *Pass `json:"last_change,omitempty"`
}

// Keeper keeps an index in line with the files: it takes the watcher's
// batches and hands them to the ingester, one pass at a time (requests for
// a sync wait their turn).
type Keeper struct {
	ing  Ingester
	opts KeeperOptions
	log  *slog.Logger

	pass      sync.Mutex // held during a pass
	ready     chan struct{}
	readyOnce sync.Once
	// complete is true when an earlier run's first pass covered every
	// root: the index is whole while this run's first pass checks it.
	complete bool

	mu sync.Mutex // guards st
	st KeeperStatus

	retry writeRetry // passes stopped by a write error (see backoff.go)
}

// NewKeeper returns a Keeper that writes through ing.
func NewKeeper(ing Ingester, opts KeeperOptions) *Keeper {
	opts.Logger = logger(opts.Logger)
	k := &Keeper{ing: ing, opts: opts, log: opts.Logger, ready: make(chan struct{}), st: KeeperStatus{Roots: opts.Roots}}
	if opts.Record != nil {
		done := opts.Record.Reconciled()
		k.complete = len(opts.Roots) > 0 && !slices.ContainsFunc(opts.Roots, func(r string) bool { return !slices.Contains(done, r) })
	}
	return k
}

// Run applies batches until the channel is closed or ctx is done.
func (k *Keeper) Run(ctx context.Context, batches <-chan watcher.Batch) {
	for {
		select {
		case <-ctx.Done():
			return
		case b, ok := <-batches:
			if !ok {
				return
			}
			k.Apply(ctx, b)
		}
	}
}

// Apply brings the index in line with one batch: its roots reconciled,
// its paths synced.
func (k *Keeper) Apply(ctx context.Context, b watcher.Batch) {
	if len(b.Rescan) > 0 {
		reason := "rescan"
		if b.Initial {
			reason = "initial"
		}
		_, err := k.run(ctx, reason, len(b.Rescan), func() (*ingest.Summary, error) { return k.ing.Reconcile(ctx, b.Rescan) })
		if b.Initial && err == nil && k.opts.Record != nil {
			if err := k.opts.Record.MarkReconciled(b.Rescan); err != nil {
				k.log.Warn("cannot record the first pass", "err", err)
			}
		}
	}
	if len(b.Paths) > 0 {
		k.run(ctx, "changes", len(b.Paths), func() (*ingest.Summary, error) { return k.ing.Sync(ctx, b.Paths) })
	}
	if b.Initial {
		k.readyOnce.Do(func() {
			k.mu.Lock()
			k.st.Ready = true
			k.mu.Unlock()
			close(k.ready)
		})
	}
}

// Reconcile brings the index in line with roots now (every watched root
// when roots is empty), after any pass under way.
func (k *Keeper) Reconcile(ctx context.Context, roots []string) (*ingest.Summary, error) {
	if len(roots) == 0 {
		roots = k.opts.Roots
	}
	return k.run(ctx, "request", len(roots), func() (*ingest.Summary, error) { return k.ing.Reconcile(ctx, roots) })
}

// Ready reports whether the first pass over the roots is done.
func (k *Keeper) Ready() bool {
	select {
	case <-k.ready:
		return true
	default:
		return false
	}
}

// Indexing reports whether answers may miss conversations: the first pass
// over the roots is running and no earlier run completed one.
func (k *Keeper) Indexing() bool { return !k.complete && !k.Ready() }

// WaitReady waits for the first pass over the roots.
func (k *Keeper) WaitReady(ctx context.Context) error {
	select {
	case <-k.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Status returns what the keeper has done.
func (k *Keeper) Status() KeeperStatus {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.st
}

// run does one pass, logs it and records it.
func (k *Keeper) run(ctx context.Context, reason string, n int, f func() (*ingest.Summary, error)) (*ingest.Summary, error) {
	k.pass.Lock()
	defer k.pass.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sum, err := f()
	if err == nil && (reason == "initial" || reason == "retry") && k.opts.Commit != nil {
		if err = k.opts.Commit(); err != nil {
			err = fmt.Errorf("put the rebuilt index in place: %w", err)
		}
	}
	repeated := k.afterPass(ctx, err)
	p := Pass{Reason: reason, Paths: n, At: time.Now()}
	rebuild, still := "", 0
	if sum != nil {
		// Errors counts what Summary.Failed does: the files that failed
		// now and those that failed again, unchanged.
		still = len(sum.StillFailing)
		p.Summary, p.Errors = sum.Progress, len(sum.Errors)+still
		rebuild = sum.Rebuild
	}
	s := p.Summary
	attrs := []any{"reason", reason, "paths", n, "files", s.Parsed, "unchanged", s.Unchanged, "removed", s.Removed,
		"failed", s.Failed, "skipped", s.Skipped, "conversations", s.Conversations, "messages", s.Messages, "took", s.Elapsed.Round(time.Millisecond)}
	if rebuild != "" {
		attrs = append(attrs, "full_rebuild", rebuild, "carried", sum.Carried)
	}
	switch {
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		k.log.Info("sync interrupted", attrs...)
		return sum, err
	case err != nil && repeated:
		p.Err = err.Error()
		k.log.Debug("sync failed again", append(attrs, "err", err)...)
	case err != nil:
		p.Err = err.Error()
		k.log.Error("sync failed", append(attrs, "err", err)...)
	case reason == "initial" || s.Parsed > 0 || s.Removed > 0 || s.Failed > still:
		// A file that fails again, unchanged, was logged when it failed.
		k.log.Info("sync", attrs...)
	default:
		k.log.Debug("sync", attrs...)
	}
	k.mu.Lock()
	k.st.Passes++
	k.st.Last = &p
	if s.Parsed > 0 || s.Removed > 0 {
		k.st.LastChange = &p
	}
	k.mu.Unlock()
	if k.opts.OnPass != nil {
		k.opts.OnPass(p)
	}
	return sum, err
}

// poll reconciles every root now and then every interval until ctx is
// done: the fallback when the roots cannot be watched. The first pass
// counts as the initial one.
func (k *Keeper) poll(ctx context.Context, every time.Duration) {
	k.Apply(ctx, watcher.Batch{Rescan: k.opts.Roots, Initial: true})
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
		k.Apply(ctx, watcher.Batch{Rescan: k.opts.Roots})
	}
}
