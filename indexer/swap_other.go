//go:build !linux

package indexer

import "errors"

// exchange is not atomic outside Linux; swapIn falls back to two renames.
func exchange(a, b string) error { return errors.New("no atomic exchange") }
