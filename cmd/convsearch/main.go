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
	err := run(ctx, os.Args[1:], &Env{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
	})
	stop()
	os.Exit(exitCode(err))
}

func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "convsearch:", err)
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitInterrupt
	case errors.Is(err, errReported):
		return exitFailure
	}
	fmt.Fprintln(os.Stderr, "convsearch:", err)
	return exitFailure
}
