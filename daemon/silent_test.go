package daemon

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/convsearch/convsearch/indexer"
)

// TestSilentDaemonOnlyWhenItHolds: a daemon file whose daemon does not
// answer explains a locked index only when the lock file names that
// daemon's pid. A file left by a daemon killed -9 names a dead (or reused)
// pid: the refusal of the process the lock file names stands, and no one
// is told to kill the file's pid. Before, every opener below blamed the
// dead daemon.
func TestSilentDaemonOnlyWhenItHolds(t *testing.T) {
	openers := []struct {
		name string
		open func(t *testing.T, dir string) error
	}{
		{"StartWatch", func(t *testing.T, dir string) error {
			w, err := StartWatch(context.Background(), StoreOptions{Dir: dir, Holder: "watch"}, WatchOptions{Roots: []string{t.TempDir()}})
			if err == nil {
				w.Stop()
			}
			return err
		}},
		{"Start", func(t *testing.T, dir string) error {
			d, err := Start(context.Background(), Options{Store: StoreOptions{Dir: dir, Holder: "serve"}, Roots: []string{t.TempDir()}, Addr: "127.0.0.1:0"})
			if err == nil {
				d.Stop()
			}
			return err
		}},
		{"Connect with roots", func(t *testing.T, dir string) error {
			c, err := Connect(context.Background(), ConnectOptions{Store: StoreOptions{Dir: dir, Holder: "search"}, Roots: []string{t.TempDir()}})
			if err == nil {
				c.Close()
			}
			return err
		}},
		{"Index", func(t *testing.T, dir string) error {
			_, _, err := Index(context.Background(), ConnectOptions{Store: StoreOptions{Dir: dir, Holder: "index"}, Roots: []string{t.TempDir()}})
			return err
		}},
	}
	for _, c := range []struct {
		name      string
		filePID   int // the daemon file's pid
		blameFile bool
	}{
		// A daemon killed -9 left its file; an `index` run holds the lock.
		{"dead daemon's file", 3999999, false},
		// The daemon that holds the lock does not answer (stopped, hung).
		{"holder's file", os.Getpid(), true},
	} {
		for _, o := range openers {
			t.Run(c.name+"/"+o.name, func(t *testing.T) {
				t.Parallel() // each waits out the lock's timeout
				dir := t.TempDir()
				holder, err := OpenStore(StoreOptions{Dir: dir, Holder: "index"})
				if err != nil {
					t.Fatal(err)
				}
				defer holder.Close()
				dead := httptest.NewServer(nil)
				addr := dead.Listener.Addr().String()
				dead.Close()
				if err := WriteInfo(dir, Info{Addr: addr, PID: c.filePID, DataDir: dir}); err != nil {
					t.Fatal(err)
				}
				err = o.open(t, dir)
				if !errors.Is(err, indexer.ErrLocked) {
					t.Fatalf("%v, want ErrLocked", err)
				}
				var sd *SilentDaemonError
				if got := errors.As(err, &sd); got != c.blameFile {
					t.Errorf("blamed on the daemon file's pid %d: %v, want %v: %v", c.filePID, got, c.blameFile, err)
				}
				var le *indexer.LockedError
				if !errors.As(err, &le) || le.Holder.PID != os.Getpid() {
					t.Errorf("%v: the lock file's holder (pid %d) is lost", err, os.Getpid())
				}
			})
		}
	}
}
