package indexer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockPath is the writer lock of data folder dir. Every process that may
// create, remove, rebuild or write the index holds it from before it touches
// anything until it closes the index: Bleve's own lock is taken only once an
// index exists, too late to keep two processes from removing or creating one
// under each other.
func LockPath(dir string) string { return filepath.Join(dir, "lock") }

// dirLock is a held writer lock.
type dirLock struct{ f *os.File }

// lockDir takes dir's writer lock, waiting up to timeout for another
// process to let it go; then it fails with ErrLocked, naming the holder.
func lockDir(dir string, timeout time.Duration) (*dirLock, error) {
	path := LockPath(dir)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("take the writer lock: %w", err) // an *fs.PathError: it names the file
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			holder := lockHolder(f)
			f.Close()
			return nil, fmt.Errorf("%s%w", holder, ErrLocked)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The holder's pid, for the message another process gives.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &dirLock{f: f}, nil
}

// lockHolder names the process that holds the lock, as a prefix for
// ErrLocked ("process 123: "), or "" when the file does not say.
func lockHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf("process %d: ", pid)
}

func (l *dirLock) unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := errors.Join(unlockFile(l.f), l.f.Close())
	l.f = nil
	return err
}
