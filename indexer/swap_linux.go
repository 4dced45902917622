package indexer

import "golang.org/x/sys/unix"

// exchange swaps the folders at a and b atomically (renameat2
// RENAME_EXCHANGE): there is no moment without an index at b.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
