package indexer

import (
	"fmt"
	"os"
)

// swapIn puts the index built at aside in the place of the one at path, in
// one step where the system can (readers that have the old one open keep
// it), and removes the old one.
func swapIn(aside, path string) error {
	if err := exchange(aside, path); err == nil {
		// aside now holds the old index.
		if err := os.RemoveAll(aside); err != nil {
			return fmt.Errorf("remove the old index %s: %w", aside, err)
		}
		return nil
	}
	// No atomic exchange here: two renames. A process killed between them
	// leaves path.old, which the next writer's Open puts back.
	old := path + ".old"
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("swap in the rebuilt index: %w", err)
	}
	if err := os.Rename(path, old); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("swap in the rebuilt index: %w", err)
	}
	if err := os.Rename(aside, path); err != nil {
		os.Rename(old, path)
		return fmt.Errorf("swap in the rebuilt index: %w", err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("remove the old index %s: %w", old, err)
	}
	return nil
}

// recoverSwap puts back an index that a writer killed in the middle of a
// two-rename swap left at path.old, and removes a rebuild that never
// finished: the index it was to replace is still whole.
func recoverSwap(path string) error {
	old := path + ".old"
	if exists(old) {
		if !exists(path) {
			if err := os.Rename(old, path); err != nil {
				return fmt.Errorf("put back %s: %w", old, err)
			}
		} else if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("remove %s: %w", old, err)
		}
	}
	if err := os.RemoveAll(rebuildPath(path)); err != nil {
		return fmt.Errorf("remove an unfinished rebuild: %w", err)
	}
	if err := os.Remove(rebuildPath(path) + ".creating"); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove an unfinished rebuild: %w", err)
	}
	return nil
}

// rebuildPath is where a rebuild of the index at path is built.
func rebuildPath(path string) string { return path + ".rebuild" }
