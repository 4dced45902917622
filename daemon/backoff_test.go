package daemon

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/watcher"
)

// fullDisk fails its first passes with a full disk's *WriteError.
type fullDisk struct {
	mu    sync.Mutex
	fails int
	calls []string
}

func (f *fullDisk) pass(what string) (*ingest.Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, what)
	if f.fails > 0 {
		f.fails--
		return &ingest.Summary{}, fmt.Errorf("write index batch: %w", &indexer.WriteError{Path: "/d/index.bleve", Free: 1 << 20, Need: 5 << 20, Err: syscall.ENOSPC})
	}
	return &ingest.Summary{}, nil
}

func (f *fullDisk) Reconcile(ctx context.Context, roots []string) (*ingest.Summary, error) {
	return f.pass(fmt.Sprint("reconcile ", roots))
}

func (f *fullDisk) Sync(ctx context.Context, paths []string) (*ingest.Summary, error) {
	return f.pass(fmt.Sprint("sync ", paths))
}

// A pass stopped by a full disk is retried, reconciling every root (the
// changes it carried are lost with it), with growing delays, until one
// goes through; then the retries stop.
func TestWriteErrorRetried(t *testing.T) {
	f := &fullDisk{fails: 3}
	passes := make(chan Pass, 10)
	k := NewKeeper(f, KeeperOptions{Roots: []string{"/r"}, OnPass: func(p Pass) { passes <- p }})
	k.retry.first, k.retry.max = time.Millisecond, 4*time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	k.Apply(ctx, watcher.Batch{Paths: []string{"/r/a"}})
	var reasons []string
	for len(reasons) < 4 {
		select {
		case p := <-passes:
			reasons = append(reasons, p.Reason)
		case <-time.After(time.Minute):
			t.Fatalf("passes so far %v: the failed pass was not retried", reasons)
		}
	}
	if want := []string{"changes", "retry", "retry", "retry"}; !reflect.DeepEqual(reasons, want) {
		t.Errorf("passes %v, want %v", reasons, want)
	}
	f.mu.Lock()
	calls := f.calls
	f.mu.Unlock()
	if want := []string{"sync [/r/a]", "reconcile [/r]", "reconcile [/r]", "reconcile [/r]"}; !reflect.DeepEqual(calls, want) {
		t.Errorf("ingester calls %v, want %v", calls, want)
	}
	if st := k.Status(); st.Last == nil || st.Last.Err != "" {
		t.Errorf("the last pass %+v: want it to have gone through", st.Last)
	}
	k.retry.mu.Lock()
	delay, pending := k.retry.delay, k.retry.pending
	k.retry.mu.Unlock()
	if delay != 0 || pending {
		t.Errorf("after a pass went through: delay %v, pending %v; want the retries stopped", delay, pending)
	}
}
