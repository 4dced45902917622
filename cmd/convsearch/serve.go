package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

// defaultAddr is where serve listens unless told otherwise.
const defaultAddr = "127.0.0.1:7788"

// shutdownTimeout bounds how long requests under way may finish on stop.
const shutdownTimeout = 5 * time.Second

func runServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "serve")
	var sf storeFlags
	sf.register(fs, true)
	addr := fs.String("addr", defaultAddr, "listen on this address (port 0: any free port; the real address goes to the data folder's daemon.json)")
	token := fs.String("token", "", "require \"Authorization: Bearer TOKEN\" on the API (needed for a non-loopback --addr; default $CONVSEARCH_TOKEN)")
	if err := parseFlags(env, fs, "serve", args); err != nil {
		return err
	}
	sf.Roots = append(sf.Roots, fs.Args()...) // `convsearch serve DIR` means --root DIR
	if *token == "" {
		*token = env.Getenv("CONVSEARCH_TOKEN")
	}
	if err := checkAddr(*addr, *token); err != nil {
		return err
	}
	if err := refuseSecondDaemon(ctx, env, &sf); err != nil {
		return err
	}
	sv, err := startServing(ctx, env, &sf, *addr, *token)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "convsearch: serving %s/ (pid %d)\n", sv.URL(), sv.info.PID)
	select {
	case <-ctx.Done():
	case <-sv.served:
	}
	return sv.stop()
}

// serving is a running daemon: the index kept in line with the files, the
// HTTP server, the daemon file. serve runs one; bench can too (its address
// may be 127.0.0.1:0, see URL).
type serving struct {
	kp     *keeping
	srv    *http.Server
	info   server.DaemonInfo
	served chan struct{} // closed when the HTTP server stops by itself
	err    error         // why it stopped
	log    *slog.Logger
}

// startServing opens the index, starts the watcher and keeper, listens on
// addr and writes the daemon file. Stop it with stop.
func startServing(ctx context.Context, env *Env, sf *storeFlags, addr, token string) (*serving, error) {
	kp, err := startKeeping(ctx, env, sf, "serve")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		kp.stop()
		return nil, fmt.Errorf("serve: %w", err)
	}
	e, err := query.New(kp.st.ix)
	if err != nil {
		ln.Close()
		kp.stop()
		return nil, err
	}
	local := &server.Local{Engine: e, Registry: kp.st.reg, StatsOf: kp.st.ix.Stats}
	log := kp.log
	started := time.Now().UTC()
	handler := server.NewHandler(server.HandlerOptions{
		Backend: local,
		Sync:    kp.k.Reconcile,
		Ready:   kp.k.Ready,
		Status:  kp.status,
		Token:   token,
		// The MCP tools over streamable HTTP, at /mcp.
		MCP: server.MCPHandler(local, server.MCPOptions{Version: version, Logger: log.With("component", "mcp"),
			Indexing: func(context.Context) bool { return !kp.k.Ready() }}),
		Identity: server.Health{PID: os.Getpid(), DataDir: kp.st.dir, Version: version, Started: started},
		Logger:   log.With("component", "http"),
	})
	sv := &serving{
		kp:     kp,
		served: make(chan struct{}),
		log:    log,
		srv: &http.Server{
			Handler:           handler,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			WriteTimeout:      2 * time.Minute,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(log.With("component", "http").Handler(), slog.LevelWarn),
		},
	}
	go func() {
		if err := sv.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			sv.err = err
			log.Error("the HTTP server stopped", "err", err)
		}
		close(sv.served)
	}()
	bound := ln.Addr().String()
	sv.info = server.DaemonInfo{Addr: bound, PID: os.Getpid(), Token: token, Started: started, Version: version, DataDir: kp.st.dir}
	if err := server.WriteDaemonInfo(kp.st.dir, sv.info); err != nil {
		// Commands will not find the daemon, but it serves: say so, go on.
		log.Error("cannot write the daemon file; commands will not use this daemon", "err", err)
	}
	log.Info("serving", "addr", bound, "url", sv.URL()+"/", "roots", len(kp.roots), "data_dir", kp.st.dir, "token", token != "")
	return sv, nil
}

// URL returns the daemon's base URL, with the real port.
func (sv *serving) URL() string { return sv.info.URL() }

// Client returns a client of the daemon.
func (sv *serving) Client() *server.Client { return server.NewClient(sv.URL(), sv.info.Token) }

// stop removes the daemon file, lets requests under way finish (for a
// bounded time), stops the watcher and closes the index (index.json
// written).
func (sv *serving) stop() error {
	// Commands stop asking this daemon before it stops answering.
	if err := server.RemoveDaemonInfo(sv.kp.st.dir, sv.info.PID); err != nil {
		sv.log.Warn("cannot remove the daemon file", "err", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := sv.srv.Shutdown(sctx); err != nil {
		sv.log.Warn("requests cut short at shutdown", "err", err)
		sv.srv.Close()
	}
	<-sv.served
	err := sv.kp.stop()
	if sv.err != nil {
		return fmt.Errorf("serve: %w", sv.err)
	}
	return err
}

// checkAddr refuses an address that is not loopback unless a token guards
// the API.
func checkAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("serve: --addr %q: %v (want HOST:PORT, e.g. 127.0.0.1:7788)", addr, err)
	}
	if token == "" && !isLoopback(host) {
		return usagef("serve: --addr %s is not a loopback address: give --token (or set $CONVSEARCH_TOKEN) so that only those who have it can read your conversations", addr)
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
