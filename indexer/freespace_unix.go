//go:build linux || darwin || freebsd

package indexer

import "syscall"

// freeSpace returns the bytes an unprivileged writer may still use on the
// file system that holds path, or -1 when it cannot tell.
func freeSpace(path string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return -1
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize))
}
