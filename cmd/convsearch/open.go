package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/convsearch/convsearch/daemon"
)

// runOpen prints the running daemon's login link for the search page. Only
// the owner can: the token is read from daemon.json, readable by its owner
// only. It does not start a browser itself: a browser's command line is
// readable by every account (ps), and the link holds the token.
func runOpen(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "open")
	var sf storeFlags
	sf.register(fs, false)
	asJSON := fs.Bool("json", false, "print the link as JSON: {\"url\", \"pid\"}")
	if err := parseFlags(env, fs, "open", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("open takes no arguments")
	}
	dir, err := sf.dataDir(env)
	if err != nil {
		return err
	}
	c, info, err := daemon.Dial(ctx, dir)
	if errors.Is(err, daemon.ErrNoDaemon) {
		return fmt.Errorf("open: no daemon serves %s: start one with `convsearch serve` (%w)", dir, err)
	}
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	c.Close()
	if *asJSON {
		return writeJSON(env.Stdout, struct {
			URL string `json:"url"`
			PID int    `json:"pid"`
		}{info.LoginURL(), info.PID})
	}
	fmt.Fprintln(env.Stdout, info.LoginURL())
	return nil
}
