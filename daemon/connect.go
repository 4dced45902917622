package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/server"
)

// ConnectOptions configure Connect and Index.
type ConnectOptions struct {
	// Store says where the index is and how to open it when no daemon
	// holds it.
	Store StoreOptions
	// Roots, if any, are brought in line first: the daemon is asked to,
	// or the local index reconciles them (a quick pass when nothing
	// changed), so `search --root DIR` works on a fresh machine.
	Roots []string
	// Rebuild (Index only) builds the index anew beside the old one and
	// swaps it in when the pass is done; it needs the index to itself, so
	// it refuses while a daemon holds it.
	Rebuild bool
	// Version is this binary's version: when a daemon answers, its build
	// and redaction rules are compared with this process's (Info.Mismatch),
	// and each difference goes to Warn. "": not compared.
	Version string
	// Warn receives what the caller should tell the user (nil: nothing).
	Warn func(msg string)
}

// Conn is a backend from Connect: a running daemon's client, or the index
// opened by this process.
type Conn struct {
	server.Backend
	// Daemon is the daemon's client when one answers; nil when the index
	// was opened here.
	Daemon *Client
	// Indexing is true when the daemon's first pass over its roots is not
	// done: answers may miss conversations.
	Indexing bool
	// Synced is the pass over Roots, when there were roots.
	Synced *ingest.Summary
	// NotSynced, when set, is why Roots could not be brought up to date:
	// another process holds the index (an *indexer.LockedError naming it),
	// and the index was opened read-only, as it is, instead.
	NotSynced error

	store *Store
}

// Close releases the daemon's client or closes the local index.
func (c *Conn) Close() error {
	if c.store != nil {
		return c.store.Close()
	}
	return c.Daemon.Close()
}

// choose is the one place that decides between a running daemon and the
// local index: the daemon when one answers for dir (it holds the index:
// Bleve allows one writer), with its daemon file's Info, else nil, and the
// caller opens the index; info is then the daemon file's daemon that did
// not answer (silent), if any.
func choose(ctx context.Context, dir string) (c *Client, info *Info) {
	c, info, err := Dial(ctx, dir)
	if err != nil {
		return nil, info
	}
	return c, info
}

// warnMismatch tells o.Warn how the daemon (info) differs from this
// process: another build, other redaction rules.
func warnMismatch(o ConnectOptions, info *Info) {
	if o.Warn == nil || info == nil {
		return
	}
	for _, w := range info.Mismatch(o.Store.Dir, o.Version, o.Store) {
		o.Warn(w)
	}
}

// SilentDaemonError is the index held by a daemon that did not answer in
// time: the command could neither ask it nor open the index itself.
type SilentDaemonError struct {
	Dir  string
	Info Info
	Err  error // opening the index: indexer.ErrLocked
}

func (e *SilentDaemonError) Error() string {
	pid := e.Info.PID
	return fmt.Sprintf("the daemon of %s (pid %d, %s) did not answer within %s, and it holds the index: "+
		"if it is stopped, resume it (`kill -CONT %d`); if it is hung, restart it (`kill %d`, then `convsearch serve`); if it is only busy, try again",
		e.Dir, pid, e.Info.URL(), DialTimeout, pid, pid)
}

func (e *SilentDaemonError) Unwrap() error { return e.Err }

// silentDaemon explains err, an index that could not be opened, by the
// daemon that did not answer, when that is what happened: the lock file
// names that daemon's pid, or names no one. A daemon file is left behind by
// a daemon killed -9 or crashed, and its pid may since name another
// process: when the lock file names another holder, that holder's refusal
// stands, and the user is not told to kill a pid that does not hold the
// index.
func silentDaemon(dir string, silent *Info, err error) error {
	if silent == nil || !errors.Is(err, indexer.ErrLocked) {
		return err
	}
	if le := (*indexer.LockedError)(nil); errors.As(err, &le) && le.Holder.PID > 0 && le.Holder.PID != silent.PID {
		return err
	}
	return &SilentDaemonError{Dir: dir, Info: *silent, Err: err}
}

// Connect returns a backend for o.Store.Dir: through the daemon when one
// serves it, else on the index opened here.
func Connect(ctx context.Context, o ConnectOptions) (*Conn, error) {
	c, info := choose(ctx, o.Store.Dir)
	if c != nil {
		warnMismatch(o, info)
		conn := &Conn{Backend: c, Daemon: c}
		if len(o.Roots) > 0 {
			sum, err := c.Sync(ctx, absAll(o.Roots))
			if err != nil {
				c.Close()
				return nil, err
			}
			conn.Synced = sum
		}
		if indexing, err := c.Indexing(ctx); err == nil && indexing {
			conn.Indexing = true
		}
		return conn, nil
	}
	// Only a pass over roots writes; a plain read never creates, removes
	// or rebuilds the index.
	o.Store.ReadOnly = len(o.Roots) == 0
	st, err := OpenStore(o.Store)
	var notSynced error
	if err != nil && !o.Store.ReadOnly && errors.Is(err, indexer.ErrLocked) {
		// Another writer holds the index (an index run, a rebuild, a watch,
		// an agent's mcp): answer from the index as it is, read-only,
		// without the pass over the roots, and say so. When that fails too
		// (the writer holds the index itself, not a rebuild beside it),
		// the writer's refusal names the holder.
		ro := o.Store
		ro.ReadOnly = true
		if rst, rerr := OpenStore(ro); rerr == nil {
			st, notSynced, err = rst, err, nil
		}
	}
	if err != nil {
		return nil, silentDaemon(o.Store.Dir, info, err)
	}
	conn := &Conn{store: st, NotSynced: notSynced}
	if len(o.Roots) > 0 && notSynced == nil {
		if conn.Synced, err = st.Ingester.Reconcile(ctx, o.Roots); err == nil {
			// A rebuild the open started (the redaction rules changed, an
			// older format) read every file the old index held: it takes
			// the old one's place.
			err = st.Commit()
		}
		if err != nil {
			st.Close()
			return nil, err
		}
	}
	e, err := st.Engine()
	if err != nil {
		st.Close()
		return nil, err
	}
	conn.Backend = e
	return conn, nil
}

// Index brings the index of o.Store.Dir in line with o.Roots: a running
// daemon does the pass when one holds the index (via is its URL), else this
// process opens the index, reconciles and closes it.
func Index(ctx context.Context, o ConnectOptions) (sum *ingest.Summary, via string, err error) {
	if len(o.Roots) == 0 {
		return nil, "", errors.New("nothing to index: no roots")
	}
	c, info := choose(ctx, o.Store.Dir)
	if c != nil {
		defer c.Close()
		warnMismatch(o, info)
		if o.Rebuild {
			return nil, "", fmt.Errorf("the daemon at %s holds the index in %s: stop it, run `convsearch index --rebuild`, then start it again", c.URL(), o.Store.Dir)
		}
		sum, err := c.Sync(ctx, absAll(o.Roots))
		return sum, c.URL(), err
	}
	o.Store.Rebuild = o.Rebuild
	st, err := OpenStore(o.Store)
	if err != nil {
		return nil, "", silentDaemon(o.Store.Dir, info, err)
	}
	sum, err = st.Ingester.Reconcile(ctx, o.Roots)
	if err == nil {
		// A daemon or MCP server started over these roots then knows its
		// index is complete, and says nothing of a first pass.
		// Recorded as the daemon names its roots: absolute.
		err = st.Index.MarkReconciled(absAll(o.Roots))
	}
	if err == nil {
		// The rebuilt index takes the old one's place only when whole.
		err = st.Commit()
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return sum, "", err
}

// absAll makes roots absolute: the daemon has another working folder.
func absAll(roots []string) []string {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		if a, err := filepath.Abs(r); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// logger returns l, or one that discards.
func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}
