package main

import (
	"context"
	"errors"
)

func runMcp(ctx context.Context, env *Env, args []string) error {
	return errors.New("mcp: not built yet")
}
