package daemon

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/watcher"
)

// WatchOptions configure Watch.
type WatchOptions struct {
	// Roots are the folders (or files) kept in line.
	Roots []string
	// Logger receives the watcher's and the keeper's logs (default:
	// discarded).
	Logger *slog.Logger
	// Rescan is how often the roots are reconciled when they cannot be
	// watched (default 30 s).
	Rescan time.Duration
}

// Watching is a store kept in line with the files under its roots: the
// watcher's batches go to the keeper, which syncs them one pass at a time.
// `convsearch watch` runs one alone; Start adds the HTTP server.
type Watching struct {
	Store  *Store
	Roots  []string
	Keeper *Keeper

	w      *watcher.Watcher // nil when the roots could not be watched
	log    *slog.Logger
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
	err    error
}

// Watch starts keeping st in line with o.Roots; the first pass reconciles
// every root. When the roots cannot be watched (no inotify, a watch limit),
// it reconciles them every o.Rescan instead. Stop ends it and closes st.
func Watch(ctx context.Context, st *Store, o WatchOptions) *Watching {
	o.Logger = logger(o.Logger)
	if o.Rescan <= 0 {
		o.Rescan = 30 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	wg := &Watching{
		Store:  st,
		Roots:  o.Roots,
		Keeper: NewKeeper(st.Ingester, KeeperOptions{Roots: o.Roots, Logger: o.Logger.With("component", "sync"), Record: st.Index, Commit: st.Commit}),
		log:    o.Logger,
		cancel: cancel,
	}
	w, err := watcher.New(o.Roots, watcher.Options{SkipDir: parsers.SkipDir, Logger: o.Logger.With("component", "watcher")})
	if err != nil {
		wg.log.Warn("cannot watch the roots; reconciling them periodically", "err", err, "every", o.Rescan)
		wg.wg.Add(1)
		go func() {
			defer wg.wg.Done()
			wg.Keeper.poll(ctx, o.Rescan)
		}()
		return wg
	}
	wg.w = w
	wg.wg.Add(2)
	go func() {
		defer wg.wg.Done()
		if err := w.Run(ctx); err != nil && ctx.Err() == nil {
			wg.log.Error("the watcher stopped", "err", err)
		}
	}()
	go func() {
		defer wg.wg.Done()
		wg.Keeper.Run(ctx, w.Batches())
	}()
	return wg
}

// StartWatch is `convsearch watch`: it checks that no daemon keeps the
// index already (Bleve has one writer, and the daemon watches), opens it
// as a long-running writer does, and watches.
func StartWatch(ctx context.Context, so StoreOptions, o WatchOptions) (*Watching, error) {
	silent, err := CheckNoDaemon(ctx, so.Dir)
	if err != nil {
		return nil, err
	}
	if so.ManifestEvery == 0 {
		so.ManifestEvery = ManifestEvery
	}
	st, err := OpenStore(so)
	if err != nil {
		return nil, silentDaemon(so.Dir, silent, err)
	}
	return Watch(ctx, st, o), nil
}

// Stop ends the pass under way, stops watching, and closes the store, which
// writes index.json. It may be called more than once.
func (wg *Watching) Stop() error {
	wg.once.Do(func() {
		wg.cancel()
		wg.wg.Wait()
		wg.err = wg.Store.Close()
		if wg.err == nil {
			wg.log.Info("stopped; index closed", "manifest", indexer.ManifestPath(wg.Store.Dir))
		} else {
			wg.log.Error("closing the index failed", "err", wg.err)
		}
	})
	if errors.Is(wg.err, context.Canceled) {
		return nil
	}
	return wg.err
}

// WatchStatus is what /api/status tells of the daemon.
type WatchStatus struct {
	KeeperStatus
	Folders int    `json:"folders_watched"`
	DataDir string `json:"data_dir"`
}

// Status reports the passes so far and how many folders are watched.
func (wg *Watching) Status() WatchStatus {
	st := WatchStatus{KeeperStatus: wg.Keeper.Status(), DataDir: wg.Store.Dir}
	if wg.w != nil {
		st.Folders = wg.w.Folders()
	}
	return st
}
