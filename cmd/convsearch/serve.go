package main

import (
	"context"
	"fmt"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/parsers/all"
)

func runServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "serve")
	var sf storeFlags
	sf.register(fs, true)
	addr := fs.String("addr", daemon.DefaultAddr, "listen on this address (port 0: any free port; the real address goes to the data folder's daemon.json)")
	token := fs.String("token", "", "require \"Authorization: Bearer TOKEN\" on the API (needed for a non-loopback --addr; default $CONVSEARCH_TOKEN)")
	if err := parseFlags(env, fs, "serve", args); err != nil {
		return err
	}
	sf.Roots = append(sf.Roots, fs.Args()...) // `convsearch serve DIR` means --root DIR
	if *token == "" {
		*token = env.Getenv("CONVSEARCH_TOKEN")
	}
	if err := daemon.CheckAddr(*addr, *token); err != nil {
		return usagef("serve: %v", err)
	}
	so, roots, err := sf.keep(ctx, env, "serve")
	if err != nil {
		return err
	}
	d, err := daemon.Start(ctx, daemon.Options{Store: so, Roots: roots, Addr: *addr, Token: *token, Version: version, Logger: so.Logger})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(env.Stdout, "convsearch: serving %s/ (pid %d)\n", d.URL(), d.Info().PID)
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
	sf.Roots = append(sf.Roots, fs.Args()...) // `convsearch watch DIR` means --root DIR
	so, roots, err := sf.keep(ctx, env, "watch")
	if err != nil {
		return err
	}
	so.ManifestEvery = daemon.ManifestEvery
	st, err := daemon.OpenStore(so)
	if err != nil {
		return err
	}
	w := daemon.Watch(ctx, st, daemon.WatchOptions{Roots: roots, Logger: so.Logger})
	so.Logger.Info("watching for changes; stop with Ctrl-C", "roots", len(roots), "data_dir", st.Dir)
	<-ctx.Done()
	return w.Stop()
}

// keep resolves what a long-running writer (serve, watch) needs: where the
// index is, that no daemon keeps it already, and the roots to keep in line.
func (s *storeFlags) keep(ctx context.Context, env *Env, name string) (daemon.StoreOptions, []string, error) {
	so, err := s.store(env)
	if err != nil {
		return so, nil, err
	}
	if err := daemon.CheckNoDaemon(ctx, so.Dir); err != nil {
		return so, nil, err
	}
	roots, err := s.roots(env, all.Registry())
	if err != nil {
		return so, nil, err
	}
	if len(roots) == 0 {
		return so, nil, usagef("%s: nothing to watch: give --root DIR (no default location of a known format exists here, and %s lists no roots)", name, configPath(env))
	}
	return so, roots, nil
}
