package main

import (
	"context"
	"errors"
)

func runServe(ctx context.Context, env *Env, args []string) error {
	return errors.New("serve: not built yet")
}
