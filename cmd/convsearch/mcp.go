package main

import (
	"context"
	"time"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/mcp"
	"github.com/convsearch/convsearch/parsers/all"
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
	so, err := sf.store(env)
	if err != nil {
		return err
	}
	so.Holder = "mcp"
	log := so.Logger.With("component", "mcp")
	roots, err := sf.roots(env, all.Registry())
	if err != nil {
		// Serve the index as it is: an agent still gets answers.
		log.Error("no roots to index", "err", err)
	}
	live := daemon.NewLive(daemon.LiveOptions{Store: so, Roots: roots, AskDaemon: sf.Roots, Logger: log, Retry: *retry, Rescan: *rescan, Version: version})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		live.Run(ctx)
	}()
	err = mcp.ServeStdio(ctx, live, mcp.Options{Version: version, Logger: log, Indexing: live.Indexing, Notice: live.Notice}, env.Stdin, env.Stdout)
	cancel()
	<-done // the index is closed only once its writer has stopped
	return err
}
