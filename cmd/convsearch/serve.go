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
	kp, err := startKeeping(ctx, env, &sf, "serve")
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		kp.stop()
		return fmt.Errorf("serve: %w", err)
	}
	e, err := query.New(kp.st.ix)
	if err != nil {
		ln.Close()
		kp.stop()
		return err
	}
	local := &server.Local{Engine: e, Registry: kp.st.reg, StatsOf: kp.st.ix.Stats}
	log := kp.log
	started := time.Now().UTC()
	handler := server.NewHandler(server.HandlerOptions{
		Backend: local,
		Sync:    kp.k.Reconcile,
		Ready:   kp.k.Ready,
		Status:  kp.status,
		Token:   *token,
		// The MCP tools over streamable HTTP, at /mcp.
		MCP:      server.MCPHandler(local, server.MCPOptions{Version: version, Logger: log.With("component", "mcp")}),
		Identity: server.Health{PID: os.Getpid(), DataDir: kp.st.dir, Version: version, Started: started},
		Logger:   log.With("component", "http"),
	})
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.With("component", "http").Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	bound := ln.Addr().String()
	info := server.DaemonInfo{Addr: bound, PID: os.Getpid(), Token: *token, Started: started, Version: version, DataDir: kp.st.dir}
	if err := server.WriteDaemonInfo(kp.st.dir, info); err != nil {
		// Commands will not find the daemon, but it serves: say so, go on.
		log.Error("cannot write the daemon file; commands will not use this daemon", "err", err)
	}
	fmt.Fprintf(env.Stdout, "convsearch: serving %s/ (pid %d)\n", info.URL(), info.PID)
	log.Info("serving", "addr", bound, "url", info.URL()+"/", "roots", len(kp.roots), "data_dir", kp.st.dir, "token", *token != "")

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
		log.Error("the HTTP server stopped", "err", serveErr)
	}
	// Commands stop asking this daemon before it stops answering.
	if err := server.RemoveDaemonInfo(kp.st.dir, info.PID); err != nil {
		log.Warn("cannot remove the daemon file", "err", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("requests cut short at shutdown", "err", err)
		srv.Close()
	}
	err = kp.stop()
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", serveErr)
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
