package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/server"
	"github.com/convsearch/convsearch/watcher"
)

func runWatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "watch")
	var sf storeFlags
	sf.register(fs, true)
	if err := parseFlags(env, fs, "watch", args); err != nil {
		return err
	}
	sf.Roots = append(sf.Roots, fs.Args()...) // `convsearch watch DIR` means --root DIR
	if err := refuseSecondDaemon(ctx, env, &sf); err != nil {
		return err
	}
	kp, err := startKeeping(ctx, env, &sf, "watch")
	if err != nil {
		return err
	}
	kp.log.Info("watching for changes; stop with Ctrl-C", "roots", len(kp.roots), "data_dir", kp.st.dir)
	<-ctx.Done()
	return kp.stop()
}

// refuseSecondDaemon fails when a daemon already keeps the index of the
// data folder: Bleve has one writer, and the daemon watches already.
func refuseSecondDaemon(ctx context.Context, env *Env, sf *storeFlags) error {
	dir, err := sf.dataDir(env)
	if err != nil {
		return err
	}
	c, info, err := server.Dial(ctx, dir)
	if err != nil {
		return nil
	}
	c.Close()
	return fmt.Errorf("a daemon already keeps the index of %s up to date (%s, pid %d): stop it first", dir, info.URL(), info.PID)
}

// keeping is an open index kept in line with the files under its roots:
// the watcher's batches go to the keeper, which syncs them one pass at a
// time. watch runs it alone; serve adds the HTTP server.
type keeping struct {
	st    *store
	roots []string
	w     *watcher.Watcher
	k     *server.Keeper
	log   *slog.Logger

	cancel context.CancelFunc
	wg     sync.WaitGroup
	stopMu sync.Once
	err    error
}

// startKeeping opens the index and starts the watcher and the keeper; the
// first batch reconciles every root.
func startKeeping(ctx context.Context, env *Env, sf *storeFlags, name string) (*keeping, error) {
	st, err := openStore(env, sf, storeOptions{ManifestEvery: 2 * time.Second})
	if err != nil {
		return nil, err
	}
	roots, err := sf.roots(env, st.reg)
	if err != nil {
		st.Close()
		return nil, err
	}
	if len(roots) == 0 {
		st.Close()
		return nil, usagef("%s: nothing to watch: give --root DIR (no default location of a known format exists here, and %s lists no roots)", name, configPath(env))
	}
	log := newLogger(env, sf.Verbose)
	w, err := watcher.New(roots, watcher.Options{SkipDir: parsers.SkipDir, Logger: log.With("component", "watcher")})
	if err != nil {
		st.Close()
		return nil, err
	}
	kp := &keeping{
		st:    st,
		roots: roots,
		w:     w,
		k:     server.NewKeeper(st.ing, server.KeeperOptions{Roots: roots, Logger: log.With("component", "sync")}),
		log:   log,
	}
	kctx, cancel := context.WithCancel(ctx)
	kp.cancel = cancel
	kp.wg.Add(2)
	go func() {
		defer kp.wg.Done()
		if err := w.Run(kctx); err != nil {
			log.Error("the watcher stopped", "err", err)
		}
	}()
	go func() {
		defer kp.wg.Done()
		kp.k.Run(kctx, w.Batches())
	}()
	return kp, nil
}

// stop ends the pass under way, stops watching, and closes the index,
// which writes index.json.
func (kp *keeping) stop() error {
	kp.stopMu.Do(func() {
		kp.cancel()
		kp.wg.Wait()
		kp.err = kp.st.Close()
		if kp.err == nil {
			kp.log.Info("stopped; index closed", "manifest", indexer.ManifestPath(kp.st.dir))
		} else {
			kp.log.Error("closing the index failed", "err", kp.err)
		}
	})
	if errors.Is(kp.err, context.Canceled) {
		return nil
	}
	return kp.err
}

// status is what /api/status tells of the daemon.
type keepingStatus struct {
	server.KeeperStatus
	Folders int    `json:"folders_watched"`
	DataDir string `json:"data_dir"`
}

func (kp *keeping) status() any {
	return keepingStatus{KeeperStatus: kp.k.Status(), Folders: kp.w.Folders(), DataDir: kp.st.dir}
}
