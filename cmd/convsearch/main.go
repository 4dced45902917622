// Command convsearch finds, parses, indexes and searches AI conversations
// kept by many tools in their own formats. See `convsearch help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
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
func runMain(ctx context.Context, args []string, env *Env) int {
	err := run(ctx, args, env)
	code := exitCode(err)
	if code != exitOK && code != exitInterrupt && !errors.Is(err, errReported) {
		fmt.Fprintln(env.Stderr, "convsearch:", err)
	}
	return code
}

func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitInterrupt
	}
	return exitFailure
}
