package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
	"github.com/convsearch/convsearch/watcher"
)

// runMcp serves the index to an AI agent over MCP on stdin and stdout. The
// agent starts it as a command; it answers through the daemon when one
// holds the index, and otherwise opens the index itself and keeps it in
// line with the files while it runs. stdout carries the protocol only: every
// log goes to stderr.
func runMcp(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "mcp")
	var sf storeFlags
	sf.register(fs, true)
	retry := fs.Duration("lock-retry", 5*time.Second, "how often to try again when another process holds the index")
	rescan := fs.Duration("rescan", 30*time.Second, "how often to reconcile the roots when they cannot be watched")
	_ = fs.MarkHidden("lock-retry")
	_ = fs.MarkHidden("rescan")
	if err := parseFlags(env, fs, "mcp", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("mcp takes no arguments: give folders to index with --root")
	}
	if *retry <= 0 || *rescan <= 0 {
		return usagef("mcp: --lock-retry and --rescan must be positive")
	}
	dir, err := sf.dataDir(env)
	if err != nil {
		return err
	}
	base := newLogger(env, sf.Verbose)
	log := base.With("component", "mcp")

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b := &mcpBackend{first: make(chan struct{})}
	keeper := &mcpKeeper{env: env, sf: &sf, dir: dir, log: log, base: base, b: b, retry: *retry, rescan: *rescan}
	done := make(chan struct{})
	go func() {
		defer close(done)
		keeper.run(ctx)
	}()

	srv := server.NewMCPServer(b, server.MCPOptions{Version: version, Logger: log, Indexing: b.indexing})
	err = srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(env.Stdin), Writer: nopWriteCloser{env.Stdout}})
	cancel()
	<-done // the index is closed only once its writer has stopped
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return nil // the client closed stdin: its normal goodbye
	case errors.Is(err, context.Canceled):
		return nil // a signal: the client stops its server that way too
	}
	return fmt.Errorf("mcp: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpKeeper finds the index for the MCP server and keeps it fresh: the
// daemon's when one answers, else its own, opened as soon as no other
// process holds it, reconciled with the roots and then watched.
type mcpKeeper struct {
	env    *Env
	sf     *storeFlags
	dir    string
	log    *slog.Logger
	base   *slog.Logger // for the components' own loggers
	b      *mcpBackend
	retry  time.Duration
	rescan time.Duration
}

func (k *mcpKeeper) run(ctx context.Context) {
	for ctx.Err() == nil {
		if c, err := dialDaemon(ctx, k.env, k.dir); err == nil {
			k.throughDaemon(ctx, c)
			continue // the daemon went away: find the index again
		}
		st, err := openStore(k.env, k.sf, storeOptions{ManifestEvery: 2 * time.Second})
		if err == nil {
			k.own(ctx, st)
			return
		}
		if !errors.Is(err, indexer.ErrLocked) {
			k.log.Error("cannot open the index", "err", err)
			k.b.set(nil, fmt.Errorf("the index cannot be opened: %v", err))
			return
		}
		k.log.Info("the index is in use by another process; trying again", "dir", k.dir, "every", k.retry)
		k.b.set(nil, fmt.Errorf("the index is in use by another convsearch process (trying again every %s); run `convsearch serve` so that every agent and command shares it", k.retry))
		select {
		case <-ctx.Done():
			return
		case <-time.After(k.retry):
		}
	}
}

// throughDaemon serves through the daemon until ctx is done or the daemon
// stops answering; the daemon watches its roots, and is asked once to take
// in the --root folders.
func (k *mcpKeeper) throughDaemon(ctx context.Context, c *server.Client) {
	defer c.Close()
	k.log.Info("answering through the daemon", "url", c.URL())
	k.b.set(c, nil)
	k.b.setReady(daemonReady(c))
	if len(k.sf.Roots) > 0 {
		roots := make([]string, 0, len(k.sf.Roots))
		for _, r := range k.sf.Roots {
			if abs, err := filepath.Abs(r); err == nil {
				roots = append(roots, abs)
			}
		}
		if sum, err := c.Sync(ctx, roots); err != nil {
			k.log.Warn("the daemon could not index --root", "roots", roots, "err", err)
		} else {
			k.log.Info("the daemon indexed --root", "roots", roots, "files", sum.Parsed, "conversations", sum.Conversations)
		}
	}
	for {
		select {
		case <-ctx.Done():
			k.b.set(nil, errors.New("the MCP server is stopping"))
			return
		case <-time.After(k.retry):
		}
		hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := c.Health(hctx)
		cancel()
		if err != nil && ctx.Err() == nil {
			k.log.Warn("the daemon stopped answering; looking for the index again", "err", err)
			k.b.set(nil, errors.New("the daemon holding the index stopped answering; reconnecting"))
			return
		}
	}
}

// own serves from the index this process opened, reconciling and watching
// the roots until ctx is done, then closes it.
func (k *mcpKeeper) own(ctx context.Context, st *store) {
	defer st.Close()
	e, err := query.New(st.ix)
	if err != nil {
		k.b.set(nil, err)
		return
	}
	local := &server.Local{Engine: e, Registry: st.reg, StatsOf: st.ix.Stats}
	k.b.setReady(nil) // not the daemon's, should one have been used before
	// Calls still running when ctx ends finish before the index closes.
	defer k.b.set(nil, errors.New("the MCP server is stopping"))

	roots, err := k.sf.roots(k.env, st.reg)
	if err != nil {
		k.log.Error("no roots to index", "err", err)
		k.b.set(local, nil)
		<-ctx.Done()
		return
	}
	if len(roots) == 0 {
		k.log.Warn("nothing to index: no --root, no default location of a known format here; serving the index as it is", "dir", k.dir)
		k.b.set(local, nil)
		<-ctx.Done()
		return
	}
	k.log.Info("serving the local index", "dir", k.dir, "roots", len(roots))
	keeper := server.NewKeeper(st.ing, server.KeeperOptions{Roots: roots, Logger: k.base.With("component", "keeper")})
	// Answers say they may be incomplete until the first pass is done.
	k.b.setReady(func(context.Context) bool { return keeper.Ready() })
	k.b.set(local, nil)
	w, err := watcher.New(roots, watcher.Options{SkipDir: parsers.SkipDir, Logger: k.base.With("component", "watcher")})
	if err != nil {
		// Without a watcher, a reconcile now and then keeps the index fresh.
		k.log.Warn("cannot watch the roots; reconciling them periodically", "err", err, "every", k.rescan)
		for {
			keeper.Reconcile(ctx, nil)
			select {
			case <-ctx.Done():
				return
			case <-time.After(k.rescan):
			}
		}
	}
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		if err := w.Run(ctx); err != nil && ctx.Err() == nil {
			k.log.Error("watcher stopped", "err", err)
		}
	}()
	keeper.Run(ctx, w.Batches())
	<-watchDone
}

// mcpBackend is the MCP server's backend: the daemon or the local index once
// the keeper has one, and until then an error saying why there is none, so
// the server answers from its first moment and a tool call tells the agent
// what is going on.
type mcpBackend struct {
	first chan struct{} // closed when the first attempt is over
	once  sync.Once

	mu sync.RWMutex // held for reading during a call, so the index is not closed under it
	b  server.Backend
	// err is why there is no backend.
	err error
	// ready reports whether b has been through its first pass over the
	// roots; nil: it has.
	ready func(context.Context) bool
}

var _ server.Backend = (*mcpBackend)(nil)

// set installs b (or nil and why), waiting for the calls under way.
func (m *mcpBackend) set(b server.Backend, err error) {
	m.mu.Lock()
	m.b, m.err = b, err
	m.mu.Unlock()
	m.once.Do(func() { close(m.first) })
}

// setReady installs how to tell whether the backend's first pass over the
// roots is done; called before set, so that no answer from a half-built
// index goes out unmarked.
func (m *mcpBackend) setReady(ready func(context.Context) bool) {
	m.mu.Lock()
	m.ready = ready
	m.mu.Unlock()
}

// indexing reports whether answers may miss conversations because the
// first pass over the roots is still running.
func (m *mcpBackend) indexing(ctx context.Context) bool {
	select {
	case <-m.first:
	case <-ctx.Done():
		return false
	}
	m.mu.RLock()
	ready := m.ready
	m.mu.RUnlock()
	return ready != nil && !ready(ctx)
}

// daemonReady asks the daemon whether its first pass is done, until it
// says yes: it never goes back.
func daemonReady(c *server.Client) func(context.Context) bool {
	var done atomic.Bool
	return func(ctx context.Context) bool {
		if done.Load() {
			return true
		}
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		ok, err := c.Ready(ctx)
		if err != nil {
			return true // a daemon that does not answer is not indexing
		}
		done.Store(ok)
		return ok
	}
}

// with runs f with the backend, once the keeper's first attempt is over.
func (m *mcpBackend) with(ctx context.Context, f func(server.Backend) error) error {
	select {
	case <-m.first:
	case <-ctx.Done():
		return ctx.Err()
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.b == nil {
		return m.err
	}
	return f(m.b)
}

func (m *mcpBackend) Search(ctx context.Context, r query.Request) (res *query.Result, err error) {
	err = m.with(ctx, func(b server.Backend) error { res, err = b.Search(ctx, r); return err })
	return res, err
}

func (m *mcpBackend) Load(ctx context.Context, id string) (c *conversation.Conversation, fromIndex bool, err error) {
	err = m.with(ctx, func(b server.Backend) error { c, fromIndex, err = b.Load(ctx, id); return err })
	return c, fromIndex, err
}

func (m *mcpBackend) Topics(ctx context.Context, r query.TopicsRequest) (ts []query.TopicCount, err error) {
	err = m.with(ctx, func(b server.Backend) error { ts, err = b.Topics(ctx, r); return err })
	return ts, err
}

func (m *mcpBackend) Decisions(ctx context.Context, r query.DecisionsRequest) (res *query.Result, err error) {
	err = m.with(ctx, func(b server.Backend) error { res, err = b.Decisions(ctx, r); return err })
	return res, err
}

func (m *mcpBackend) Related(ctx context.Context, id string, limit int) (res *query.Result, err error) {
	err = m.with(ctx, func(b server.Backend) error { res, err = b.Related(ctx, id, limit); return err })
	return res, err
}

func (m *mcpBackend) AddContext(ctx context.Context, hits []query.Hit, n int) error {
	return m.with(ctx, func(b server.Backend) error { return b.AddContext(ctx, hits, n) })
}

func (m *mcpBackend) Stats(ctx context.Context) (s *indexer.Stats, err error) {
	err = m.with(ctx, func(b server.Backend) error { s, err = b.Stats(ctx); return err })
	return s, err
}
