package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/server"
)

// errNoDaemon means no daemon answers for the data folder.
var errNoDaemon = server.ErrNoDaemon

// dialDaemon returns a client of the daemon serving dataDir, or an error
// wrapping errNoDaemon when none answers (quickly: the caller then opens the
// index itself).
func dialDaemon(ctx context.Context, env *Env, dataDir string) (*server.Client, error) {
	c, _, err := server.Dial(ctx, dataDir)
	return c, err
}

// syncRoots asks the daemon to bring the index in line with roots, given
// as the user typed them (the daemon has another working folder).
func syncRoots(ctx context.Context, env *Env, c *server.Client, roots []string) error {
	abs := make([]string, 0, len(roots))
	for _, r := range roots {
		a, err := filepath.Abs(r)
		if err != nil {
			return err
		}
		abs = append(abs, a)
	}
	sum, err := c.Sync(ctx, abs)
	if err != nil {
		return err
	}
	reportSync(env, sum)
	return nil
}

// reportSync tells on stderr what a pass before a search changed, and the
// files it could not read.
func reportSync(env *Env, sum *ingest.Summary) {
	if sum.Parsed > 0 || sum.Removed > 0 {
		fmt.Fprintf(env.Stderr, "convsearch: indexed %d changed files (%d conversations, %d messages) in %s\n",
			sum.Parsed, sum.Conversations, sum.Messages, sum.Elapsed.Round(time.Millisecond))
	}
	for _, e := range sum.Errors {
		fmt.Fprintf(env.Stderr, "convsearch: %s\n", fileError(e))
	}
}
