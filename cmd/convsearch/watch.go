package main

import (
	"context"
	"errors"
)

func runWatch(ctx context.Context, env *Env, args []string) error {
	return errors.New("watch: not built yet")
}
