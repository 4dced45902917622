package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/convsearch/convsearch/mcp"
	"github.com/convsearch/convsearch/server"
)

// DefaultAddr is where the daemon listens unless told otherwise.
const DefaultAddr = "127.0.0.1:7788"

// ManifestEvery is how often, at most, a long-running process writes
// index.json: after every pass would be too often while files change.
const ManifestEvery = 2 * time.Second

// shutdownTimeout bounds how long requests under way may finish on stop.
const shutdownTimeout = 5 * time.Second

// Options configure Start.
type Options struct {
	// Store says where the index is and how to open it.
	Store StoreOptions
	// Roots are the folders kept in line (at least one).
	Roots []string
	// Addr is the HTTP address (default DefaultAddr; port 0: any free port,
	// the real address goes to daemon.json).
	Addr string
	// Token is required on the API and /mcp. Without one the daemon makes
	// a random one (NewToken) and listens on loopback only; beyond loopback
	// it must have MinNetworkToken characters. Either way it goes to
	// daemon.json, which only the owner can read.
	Token string
	// Version is reported by /healthz and to MCP clients.
	Version string
	// Logger receives every component's logs (default: discarded).
	Logger *slog.Logger
}

// AddrError is an address to listen on that the daemon refuses: not
// HOST:PORT, or not loopback while no token guards the API. It is a
// mistake in how the daemon was called.
type AddrError struct{ Reason string }

func (e *AddrError) Error() string { return e.Reason }

// ErrRunning means a daemon already keeps the index of a data folder.
var ErrRunning = errors.New("a daemon already keeps the index")

// MinNetworkToken is the fewest characters a token must have when the
// daemon listens beyond loopback, where anyone on the network may guess.
// On loopback any token is taken: only this machine's accounts reach it.
const MinNetworkToken = 16

// CheckAddr refuses an address that is not host:port, or not loopback
// while no token, or a short one, guards the API; and a token no client can
// send (HTTP trims a header's spaces, and refuses control characters).
func CheckAddr(addr, token string) error {
	if err := checkTokenChars(token); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return &AddrError{fmt.Sprintf("--addr %q: %v (want HOST:PORT, e.g. %s)", addr, err, DefaultAddr)}
	}
	if !server.IsLoopback(host) {
		return networkToken(fmt.Sprintf("--addr %s is not a loopback address", addr), token)
	}
	return nil
}

// networkToken refuses to listen beyond loopback without a token of
// MinNetworkToken characters; why says where the daemon would listen.
// The error never holds the token.
func networkToken(why, token string) error {
	const howTo = "(make one with `openssl rand -hex 32`, and give it as --token or $CONVSEARCH_TOKEN)"
	if token == "" {
		return &AddrError{fmt.Sprintf("%s: it needs a token of at least %d characters, so that only those who have it can read your conversations %s", why, MinNetworkToken, howTo)}
	}
	if n := utf8.RuneCountInString(token); n < MinNetworkToken {
		chars := "characters"
		if n == 1 {
			chars = "character"
		}
		return &AddrError{fmt.Sprintf("%s: a token of %d %s is one anyone who reaches the port may guess; beyond loopback it must have at least %d characters %s", why, n, chars, MinNetworkToken, howTo)}
	}
	return nil
}

// checkTokenChars refuses a token that could never match: one with spaces
// at its ends, or with a space or control character, which an
// Authorization header cannot carry as one token. The error never holds it.
func checkTokenChars(token string) error {
	for _, r := range token {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return &AddrError{"the token (--token or $CONVSEARCH_TOKEN) may not hold spaces or control characters, so no client could send it (make one with `openssl rand -hex 32`)"}
		}
	}
	return nil
}

// CheckNoDaemon fails with ErrRunning when a daemon already keeps the
// index of dir: Bleve has one writer, and the daemon watches already.
// silent is the daemon file's daemon when it did not answer (stopped,
// hung): if the index then proves locked, silentDaemon names it.
func CheckNoDaemon(ctx context.Context, dir string) (silent *Info, err error) {
	c, info, err := Dial(ctx, dir)
	if err != nil {
		return info, nil
	}
	c.Close()
	return nil, fmt.Errorf("%w of %s up to date (%s, pid %d): stop it first", ErrRunning, dir, info.URL(), info.PID)
}

// Daemon is a running daemon: the index kept in line with the files, the
// HTTP server (API, page, /mcp), and the daemon file.
type Daemon struct {
	watching *Watching
	srv      *http.Server
	info     Info
	served   chan struct{} // closed when the HTTP server stops
	err      error         // why it stopped by itself
	log      *slog.Logger
}

// Start opens the index, starts keeping it in line with the roots, listens
// on o.Addr and writes the daemon file. Stop it with Stop.
func Start(ctx context.Context, o Options) (*Daemon, error) {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	o.Logger = logger(o.Logger)
	if err := CheckAddr(o.Addr, o.Token); err != nil {
		return nil, err
	}
	silent, err := CheckNoDaemon(ctx, o.Store.Dir)
	if err != nil {
		return nil, err
	}
	if len(o.Roots) == 0 {
		return nil, errors.New("no roots to keep in line")
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", o.Addr, err)
	}
	// A name the loopback rule accepts may still resolve elsewhere: what
	// counts is where the socket is bound.
	loopback := true
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		loopback = false
		if err := networkToken(fmt.Sprintf("--addr %s resolved to %s, which is not loopback", o.Addr, tcp.IP), o.Token); err != nil {
			ln.Close()
			return nil, err
		}
	}
	// Every account on the machine reaches a loopback port: the API is
	// never open, whatever the address.
	if o.Token == "" {
		if o.Token, err = NewToken(); err != nil {
			ln.Close()
			return nil, err
		}
	}
	if o.Store.Logger == nil {
		o.Store.Logger = o.Logger
	}
	if o.Store.ManifestEvery == 0 {
		o.Store.ManifestEvery = ManifestEvery
	}
	st, err := OpenStore(o.Store)
	if err != nil {
		ln.Close()
		return nil, silentDaemon(o.Store.Dir, silent, err)
	}
	engine, err := st.CachingEngine()
	if err != nil {
		ln.Close()
		st.Close()
		return nil, err
	}
	log := o.Logger
	wg := Watch(ctx, st, WatchOptions{Roots: o.Roots, Logger: log})
	started := time.Now().UTC()
	build := BuildID(o.Version)
	httpLog := log.With("component", "http")
	handler := server.NewHandler(server.HandlerOptions{
		Backend:  engine,
		Sync:     func(ctx context.Context, roots []string) (any, error) { return wg.Keeper.Reconcile(ctx, roots) },
		Ready:    wg.Keeper.Ready,
		Indexing: wg.Keeper.Indexing,
		Status:   func() any { return wg.Status() },
		Token:    o.Token,
		AnyHost:  !loopback,
		MCP: mcp.Handler(engine, mcp.Options{Version: o.Version, Logger: log.With("component", "mcp"),
			Indexing: func(context.Context) bool { return wg.Keeper.Indexing() }}),
		Identity: server.Health{PID: os.Getpid(), DataDir: st.Dir, Version: o.Version, Build: build, Redaction: st.Rules, Started: started},
		Logger:   httpLog,
	})
	d := &Daemon{
		watching: wg,
		served:   make(chan struct{}),
		log:      log,
		srv: &http.Server{
			Handler:           handler,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			WriteTimeout:      2 * time.Minute,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(httpLog.Handler(), slog.LevelWarn),
		},
	}
	go func() {
		if err := d.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			d.err = err
			log.Error("the HTTP server stopped", "err", err)
		}
		close(d.served)
	}()
	d.info = Info{Addr: ln.Addr().String(), PID: os.Getpid(), Token: o.Token, Started: started, Version: o.Version, Build: build, Redaction: st.Rules, DataDir: st.Dir}
	if err := WriteInfo(st.Dir, d.info); err != nil {
		// Commands will not find the daemon, but it serves: say so, go on.
		log.Error("cannot write the daemon file; commands will not use this daemon", "err", err)
	}
	// Never the token nor the login link: logs may be kept where others read.
	log.Info("serving", "addr", d.info.Addr, "url", d.URL()+"/", "roots", len(o.Roots), "data_dir", st.Dir)
	return d, nil
}

// URL returns the daemon's base URL, with the real port.
func (d *Daemon) URL() string { return d.info.URL() }

// Info returns what the daemon wrote to its daemon file.
func (d *Daemon) Info() Info { return d.info }

// Client returns a client of the daemon.
func (d *Daemon) Client() *Client { return NewClient(d.URL(), d.info.Token) }

// Keeper returns the daemon's keeper (its passes, its readiness).
func (d *Daemon) Keeper() *Keeper { return d.watching.Keeper }

// Done is closed when the HTTP server stops by itself (Stop says why).
func (d *Daemon) Done() <-chan struct{} { return d.served }

// Stop removes the daemon file, lets requests under way finish (for a
// bounded time), stops the watcher and closes the index (index.json
// written).
func (d *Daemon) Stop() error {
	// Commands stop asking this daemon before it stops answering.
	if err := RemoveInfo(d.watching.Store.Dir, d.info.PID); err != nil {
		d.log.Warn("cannot remove the daemon file", "err", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := d.srv.Shutdown(sctx); err != nil {
		d.log.Warn("requests cut short at shutdown", "err", err)
		d.srv.Close()
	}
	<-d.served
	err := d.watching.Stop()
	if d.err != nil {
		return fmt.Errorf("serve: %w", d.err)
	}
	return err
}
