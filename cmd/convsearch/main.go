// Command convsearch finds, parses, indexes and searches AI conversations
// kept by many tools in their own formats. See `convsearch help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/internal/term"
)

// Exit codes, decided here only.
const (
	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitInterrupt = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runMain(ctx, os.Args[1:], &Env{
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		Getenv:      os.Getenv,
		UserHomeDir: os.UserHomeDir,
	})
	stop()
	os.Exit(code)
}

// runMain runs a command, tells the user on stderr what went wrong, and
// returns the exit code; tests call it in-process.
//
// A panic on this goroutine is reported as an internal error, exit 1 (Go's
// own exit code for one, 2, is the usage error's); a panic on another
// goroutine still ends the process as Go does, which is why the indexer
// guards Bleve's write and read paths itself.
func runMain(ctx context.Context, args []string, env *Env) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(env.Stderr, "convsearch: internal error: %v (please report it, with the output of the same command run with --verbose)\n%s", p, debug.Stack())
			code = exitFailure
		}
	}()
	err := run(ctx, args, env)
	code = exitCode(err)
	if code != exitOK && code != exitInterrupt && !errors.Is(err, errReported) {
		// Errors may quote file names and content: made safe to print.
		fmt.Fprintln(env.Stderr, "convsearch:", term.Safe(userError(err).Error()))
	}
	return code
}

// userError returns the part of err that tells the user what to do: a
// damaged index or a failed write says it all, without the layers that
// wrapped it on its way up.
func userError(err error) error {
	var we *indexer.WriteError
	if errors.As(err, &we) {
		return we
	}
	var de *indexer.DamagedError
	if errors.As(err, &de) {
		return de
	}
	return err
}

func exitCode(err error) int {
	var ue *usageError
	var ae *daemon.APIError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &ae) && ae.Status == http.StatusBadRequest:
		// The daemon refused what the command asked for as malformed: a
		// mistake in how it was called, as when the index is asked directly.
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitInterrupt
	}
	return exitFailure
}
