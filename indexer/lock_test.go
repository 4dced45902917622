package indexer

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestLockErrorNamesTheFileOnce: a lock file that cannot be opened was
// "lock X: open X: is a directory".
func TestLockErrorNamesTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(LockPath(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := lockDir(dir, time.Millisecond)
	if err == nil {
		l.f.Close()
	}
	if err == nil || strings.Count(err.Error(), LockPath(dir)) != 1 {
		t.Errorf("lockDir = %v, want an error naming %s once", err, LockPath(dir))
	}
}
