package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers/all"
)

func runServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "serve")
	var sf storeFlags
	sf.register(fs, true)
	addr := fs.String("addr", daemon.DefaultAddr, "listen on this address (port 0: any free port; the real address goes to the data folder's daemon.json)")
	token := fs.String("token", "", "the token the API and /mcp require (default $CONVSEARCH_TOKEN, else a random one; needed, of at least 16 characters, for a non-loopback --addr, e.g. from: openssl rand -hex 32); it goes to daemon.json, readable by you only")
	if err := parseFlags(env, fs, "serve", args); err != nil {
		return err
	}
	if err := sf.positionalRoots(env, fs, "serve"); err != nil {
		return err
	}
	if *token == "" {
		*token = env.Getenv("CONVSEARCH_TOKEN")
	}
	so, roots, err := sf.keep(env, "serve")
	if err != nil {
		return err
	}
	// Start checks the address and that no daemon runs yet.
	d, err := daemon.Start(ctx, daemon.Options{Store: so, Roots: roots, Addr: *addr, Token: *token, Version: version, Logger: so.Logger})
	if ae := (*daemon.AddrError)(nil); errors.As(err, &ae) {
		return usagef("serve: %v", err)
	}
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	info := d.Info()
	fmt.Fprintf(env.Stdout, "convsearch: serving %s/ (pid %d)\n", d.URL(), info.PID)
	// The link holds the token: to a terminal only, never to a log (a
	// service's stderr goes to the journal, which others may read).
	if term.IsTerminal(env.Stderr) {
		fmt.Fprintf(env.Stderr, "convsearch: to search in a browser, open %s (`convsearch open` prints a new link)\n", info.LoginURL())
	} else {
		fmt.Fprintln(env.Stderr, "convsearch: to search in a browser, run `convsearch open` for a login link")
	}
	select {
	case <-ctx.Done():
	case <-d.Done():
	}
	return d.Stop()
}

func runWatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "watch")
	var sf storeFlags
	sf.register(fs, true)
	if err := parseFlags(env, fs, "watch", args); err != nil {
		return err
	}
	if err := sf.positionalRoots(env, fs, "watch"); err != nil {
		return err
	}
	so, roots, err := sf.keep(env, "watch")
	if err != nil {
		return err
	}
	w, err := daemon.StartWatch(ctx, so, daemon.WatchOptions{Roots: roots, Logger: so.Logger})
	if err != nil {
		return err
	}
	so.Logger.Info("watching for changes; stop with Ctrl-C", "roots", len(roots), "data_dir", so.Dir)
	<-ctx.Done()
	return w.Stop()
}

// keep resolves what a long-running writer (serve, watch) needs: where the
// index is and the roots to keep in line.
func (s *storeFlags) keep(env *Env, name string) (daemon.StoreOptions, []string, error) {
	so, err := s.store(env)
	if err != nil {
		return so, nil, err
	}
	so.Holder = name
	roots, err := s.roots(env, all.Registry())
	if err != nil {
		return so, nil, err
	}
	if len(roots) == 0 {
		return so, nil, usagef("%s: nothing to watch: give --root DIR (no default location of a known format exists here, and %s lists no roots)", name, configPath(env))
	}
	return so, roots, nil
}
