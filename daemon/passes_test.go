package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/watcher"
)

// TestIndexingRemembered: answers say "still indexing" during the first
// pass over an index no pass completed, and not after a restart over the
// same roots (the index remembers the pass); a new root makes it so again.
func TestIndexingRemembered(t *testing.T) {
	dir := t.TempDir()
	roots := []string{"/r1", "/r2"}
	ctx := context.Background()
	run := func(roots []string, wantBefore bool) {
		t.Helper()
		ix, err := indexer.Open(indexer.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		k := NewKeeper(&fakeIngester{}, KeeperOptions{Roots: roots, Record: ix})
		if got := k.Indexing(); got != wantBefore {
			t.Errorf("roots %v: indexing %v before the first pass, want %v (recorded %v)", roots, got, wantBefore, ix.Reconciled())
		}
		k.Apply(ctx, watcher.Batch{Initial: true, Rescan: roots})
		if k.Indexing() {
			t.Errorf("roots %v: indexing after the first pass", roots)
		}
	}
	run(roots, true)
	run(roots, false)
	run([]string{"/r1"}, false)
	run([]string{"/r1", "/r3"}, true)
	run([]string{"/r3", "/r2", "/r1"}, false)

	// A rebuilt (new) index has no record.
	other, err := indexer.Open(indexer.Options{Dir: filepath.Join(t.TempDir(), "other")})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if got := other.Reconciled(); len(got) != 0 {
		t.Errorf("new index: reconciled %v", got)
	}
}

// TestIndexCommandRemembersItsPass: a pass of `convsearch index` over some
// roots is a complete first pass too, so an MCP server or daemon started
// over them afterwards does not say it is still indexing.
func TestIndexCommandRemembersItsPass(t *testing.T) {
	root, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	// A root given relative is remembered as the daemon names it, absolute.
	for _, given := range []string{root, "../examples"} {
		dir := t.TempDir()
		if _, _, err := Index(context.Background(), ConnectOptions{Store: StoreOptions{Dir: dir}, Roots: []string{given}}); err != nil {
			t.Fatal(err)
		}
		st, err := OpenStore(StoreOptions{Dir: dir, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		k := NewKeeper(&fakeIngester{}, KeeperOptions{Roots: []string{root}, Record: st.Index})
		if k.Indexing() {
			t.Errorf("indexing after `index` over %s (recorded %v)", given, st.Index.Reconciled())
		}
		st.Close()
	}
}

// TestWatchCommitsRebuild: a long-running writer (serve, watch, mcp) that
// opens an index made under other redaction rules rebuilds it beside the
// old one, over every file the old one held (not only its roots), and puts
// it in place once its first pass is done.
func TestWatchCommitsRebuild(t *testing.T) {
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir, rootB := t.TempDir(), t.TempDir()
	if _, _, err := Index(context.Background(), ConnectOptions{Store: StoreOptions{Dir: dir}, Roots: []string{examples}}); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(StoreOptions{Dir: dir, NoRedaction: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Index.Rebuilding() == "" {
		t.Fatal("changed redaction rules started no rebuild")
	}
	w := Watch(context.Background(), st, WatchOptions{Roots: []string{rootB}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := w.Keeper.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if why := st.Index.Rebuilding(); why != "" {
		t.Errorf("after the first pass the rebuild is still under way (%s): not committed", why)
	}
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenStore(StoreOptions{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range ro.Index.Files() {
		if strings.HasPrefix(f.Path, examples+string(filepath.Separator)) {
			n += len(f.Conversations)
		}
	}
	if n == 0 {
		t.Error("the rebuilt index lost the conversations indexed from the examples")
	}
	// Committed: the next writer under the same rules does not rebuild.
	ro.Close()
	again, err := OpenStore(StoreOptions{Dir: dir, NoRedaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if why := again.Index.Rebuilding(); why != "" {
		t.Errorf("the rebuild was not put in place: the next writer rebuilds again (%s)", why)
	}
}
