package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

// LiveOptions configure Live.
type LiveOptions struct {
	// Store says where the index is and how to open it.
	Store StoreOptions
	// Roots are kept in line while the index is this process's own.
	Roots []string
	// AskDaemon are the roots a daemon holding the index is asked once to
	// take in (it watches its own roots already).
	AskDaemon []string
	// Logger receives what happens (default: discarded).
	Logger *slog.Logger
	// Retry is how often to look again for the index while another process
	// holds it, and to check that the daemon still answers (default 5 s).
	Retry time.Duration
	// Rescan is how often the roots are reconciled when they cannot be
	// watched (default 30 s).
	Rescan time.Duration
	// Version is this binary's version: a daemon of another build, or
	// under other redaction rules, is logged as a warning and told in the
	// next answer (Notice). "": not compared.
	Version string
}

// Live is a backend for a long-running reader (the MCP server over stdio)
// that answers from its first moment: through the daemon while one holds
// the index, else from the index it opens itself as soon as no other
// process holds it, kept in line with the roots. Until it has either, a
// call returns an error saying why, so an agent learns what is going on.
type Live struct {
	o     LiveOptions
	log   *slog.Logger
	first chan struct{} // closed when the first attempt is over
	once  sync.Once

	mu sync.RWMutex // held for reading during a call, so the index is not closed under it
	b  server.Backend
	// err is why there is no backend.
	err error
	// ready reports whether b has been through its first pass over the
	// roots; nil: it has.
	ready func(context.Context) bool
	// notice is what the next answer should tell first (Notice): the
	// daemon answering is another build, or indexes under other rules.
	notice string
}

var _ server.Backend = (*Live)(nil)

// NewLive returns a Live; Run finds and keeps its index.
func NewLive(o LiveOptions) *Live {
	if o.Retry <= 0 {
		o.Retry = 5 * time.Second
	}
	if o.Rescan <= 0 {
		o.Rescan = 30 * time.Second
	}
	if o.Store.ManifestEvery == 0 {
		o.Store.ManifestEvery = ManifestEvery
	}
	return &Live{o: o, log: logger(o.Logger), first: make(chan struct{})}
}

// Run finds the index and keeps it until ctx is done; the index, if this
// process opened it, is closed before Run returns.
func (l *Live) Run(ctx context.Context) {
	for ctx.Err() == nil {
		c, silent := choose(ctx, l.o.Store.Dir)
		if c != nil {
			l.throughDaemon(ctx, c, silent)
			continue // the daemon went away: find the index again
		}
		st, err := OpenStore(l.o.Store)
		if err == nil {
			l.own(ctx, st)
			return
		}
		if !errors.Is(err, indexer.ErrLocked) {
			l.log.Error("cannot open the index", "err", err)
			l.set(nil, fmt.Errorf("the index cannot be opened: %v", err))
			return
		}
		var sd *SilentDaemonError
		if errors.As(silentDaemon(l.o.Store.Dir, silent, err), &sd) {
			l.log.Info("the daemon holds the index but did not answer; trying again", "dir", l.o.Store.Dir, "pid", silent.PID, "url", silent.URL(), "every", l.o.Retry)
			l.set(nil, fmt.Errorf("%v (trying again every %s)", sd, l.o.Retry))
		} else {
			// err names the holder (pid and command) and what to do.
			var h indexer.Holder
			if le := (*indexer.LockedError)(nil); errors.As(err, &le) {
				h = le.Holder
			}
			l.log.Info("the index is in use by another process; trying again", "dir", l.o.Store.Dir, "pid", h.PID, "command", h.Command, "every", l.o.Retry, "err", err)
			l.set(nil, fmt.Errorf("%w; trying again every %s", err, l.o.Retry))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(l.o.Retry):
		}
	}
}

// throughDaemon serves through the daemon until ctx is done or the daemon
// stops answering; the daemon watches its roots, and is asked once to take
// in ours.
func (l *Live) throughDaemon(ctx context.Context, c *Client, info *Info) {
	defer c.Close()
	l.log.Info("answering through the daemon", "url", c.URL())
	if info != nil {
		if ws := info.Mismatch(l.o.Store.Dir, l.o.Version, l.o.Store); len(ws) > 0 {
			for _, w := range ws {
				l.log.Warn(w)
			}
			l.mu.Lock()
			l.notice = strings.Join(ws, "; ")
			l.mu.Unlock()
		}
	}
	l.setReady(daemonReady(c))
	l.set(c, nil)
	if len(l.o.AskDaemon) > 0 {
		roots := absAll(l.o.AskDaemon)
		if sum, err := c.Sync(ctx, roots); err != nil {
			l.log.Warn("the daemon could not index the roots", "roots", roots, "err", err)
		} else {
			l.log.Info("the daemon indexed the roots", "roots", roots, "files", sum.Parsed, "conversations", sum.Conversations)
		}
	}
	for {
		select {
		case <-ctx.Done():
			l.set(nil, errors.New("the MCP server is stopping"))
			return
		case <-time.After(l.o.Retry):
		}
		hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := c.Health(hctx)
		cancel()
		if err != nil && ctx.Err() == nil {
			l.log.Warn("the daemon stopped answering; looking for the index again", "err", err)
			l.set(nil, errors.New("the daemon holding the index stopped answering; reconnecting"))
			return
		}
	}
}

// own serves from the index this process opened, kept in line with the
// roots until ctx is done, then closes it.
func (l *Live) own(ctx context.Context, st *Store) {
	e, err := st.CachingEngine()
	if err != nil {
		st.Close()
		l.set(nil, err)
		return
	}
	if len(l.o.Roots) == 0 {
		defer st.Close()
		l.log.Warn("nothing to index: no roots; serving the index as it is", "dir", st.Dir)
		l.setReady(nil)
		l.set(e, nil)
		<-ctx.Done()
		l.set(nil, errors.New("the MCP server is stopping"))
		return
	}
	l.log.Info("serving the local index", "dir", st.Dir, "roots", len(l.o.Roots))
	wg := Watch(ctx, st, WatchOptions{Roots: l.o.Roots, Logger: l.o.Logger, Rescan: l.o.Rescan})
	// Answers say they may be incomplete until the first pass is done.
	l.setReady(func(context.Context) bool { return !wg.Keeper.Indexing() })
	l.set(e, nil)
	<-ctx.Done()
	// Calls still running finish before the index closes.
	l.set(nil, errors.New("the MCP server is stopping"))
	wg.Stop()
}

// set installs b (or nil and why), waiting for the calls under way.
func (l *Live) set(b server.Backend, err error) {
	l.mu.Lock()
	l.b, l.err = b, err
	l.mu.Unlock()
	l.once.Do(func() { close(l.first) })
}

// setReady installs how to tell whether the backend's first pass over the
// roots is done; called before set, so that no answer from a half-built
// index goes out unmarked.
func (l *Live) setReady(ready func(context.Context) bool) {
	l.mu.Lock()
	l.ready = ready
	l.mu.Unlock()
}

// Indexing reports whether answers may miss conversations because the
// first pass over the roots is still running.
func (l *Live) Indexing(ctx context.Context) bool {
	select {
	case <-l.first:
	case <-ctx.Done():
		return false
	}
	l.mu.RLock()
	ready := l.ready
	l.mu.RUnlock()
	return ready != nil && !ready(ctx)
}

// Notice returns, once, what the user should be told with the next answer
// (the daemon answering is another build of convsearch, or indexes under
// other redaction rules), or "".
func (l *Live) Notice(context.Context) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.notice
	l.notice = ""
	return n
}

// daemonReady asks the daemon whether its first pass is done, until it
// says yes: it never goes back.
func daemonReady(c *Client) func(context.Context) bool {
	var done atomic.Bool
	return func(ctx context.Context) bool {
		if done.Load() {
			return true
		}
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		indexing, err := c.Indexing(ctx)
		if err != nil {
			return true // a daemon that does not answer is not indexing
		}
		done.Store(!indexing)
		return !indexing
	}
}

// with runs f with the backend, once the first attempt is over.
func (l *Live) with(ctx context.Context, f func(server.Backend) error) error {
	select {
	case <-l.first:
	case <-ctx.Done():
		return ctx.Err()
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.b == nil {
		return l.err
	}
	return f(l.b)
}

func (l *Live) Search(ctx context.Context, r query.Request) (res *query.Result, err error) {
	err = l.with(ctx, func(b server.Backend) error { res, err = b.Search(ctx, r); return err })
	return res, err
}

func (l *Live) Load(ctx context.Context, id string) (c *conversation.Conversation, fromIndex bool, err error) {
	err = l.with(ctx, func(b server.Backend) error { c, fromIndex, err = b.Load(ctx, id); return err })
	return c, fromIndex, err
}

func (l *Live) Topics(ctx context.Context, r query.TopicsRequest) (ts []query.TopicCount, err error) {
	err = l.with(ctx, func(b server.Backend) error { ts, err = b.Topics(ctx, r); return err })
	return ts, err
}

func (l *Live) Decisions(ctx context.Context, r query.DecisionsRequest) (res *query.Result, err error) {
	err = l.with(ctx, func(b server.Backend) error { res, err = b.Decisions(ctx, r); return err })
	return res, err
}

func (l *Live) Related(ctx context.Context, id string, limit int) (res *query.Result, err error) {
	err = l.with(ctx, func(b server.Backend) error { res, err = b.Related(ctx, id, limit); return err })
	return res, err
}

func (l *Live) AddContext(ctx context.Context, hits []query.Hit, n int) error {
	return l.with(ctx, func(b server.Backend) error { return b.AddContext(ctx, hits, n) })
}

func (l *Live) Stats(ctx context.Context) (s *indexer.Stats, err error) {
	err = l.with(ctx, func(b server.Backend) error { s, err = b.Stats(ctx); return err })
	return s, err
}

// Overview is the page's overview of the index (see query.Engine.Overview).
func (l *Live) Overview(ctx context.Context) (ov *query.Overview, err error) {
	err = l.with(ctx, func(b server.Backend) error {
		o, ok := b.(server.Overviewer)
		if !ok {
			return errors.New("daemon: this index cannot tell an overview")
		}
		ov, err = o.Overview(ctx)
		return err
	})
	return ov, err
}
