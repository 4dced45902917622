package daemon

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
	"github.com/convsearch/convsearch/watcher"
)

// testDaemon is the daemon assembled in this process, as serve assembles
// it: an index, the watcher and keeper over root, the HTTP API on loopback.
type testDaemon struct {
	root   string
	dir    string
	ix     *indexer.Index
	engine *query.Engine
	keeper *Keeper
	srv    *httptest.Server
	client *Client
	// damaged is set by a test that garbles the index's files under it:
	// Bleve's background merger can then loop for ever inside a garbled
	// dictionary, and Close, which waits for it, with it.
	damaged bool
}

// startTestDaemon starts a daemon over root (which may hold files already)
// and waits for its first pass. It stops at the end of the test.
func startTestDaemon(tb testing.TB, root string, token string) *testDaemon {
	tb.Helper()
	d := &testDaemon{root: root, dir: tb.TempDir()}
	ix, err := indexer.Open(indexer.Options{Dir: d.dir})
	if err != nil {
		tb.Fatal(err)
	}
	d.ix = ix
	reg := all.Registry()
	ing := ingest.New(reg, ix, extract.New(extract.DefaultBackground(), extract.Options{}), ingest.Options{})
	e, err := query.New(ix, query.Options{Source: reg})
	if err != nil {
		tb.Fatal(err)
	}
	d.engine = e
	w, err := watcher.New([]string{root}, watcher.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	d.keeper = NewKeeper(ing, KeeperOptions{Roots: []string{root}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { w.Run(ctx); done <- struct{}{} }()
	go func() { d.keeper.Run(ctx, w.Batches()); done <- struct{}{} }()
	d.srv = httptest.NewServer(server.NewHandler(server.HandlerOptions{
		Backend:  d.engine,
		Sync:     func(ctx context.Context, roots []string) (any, error) { return d.keeper.Reconcile(ctx, roots) },
		Ready:    d.keeper.Ready,
		Status:   func() any { return d.keeper.Status() },
		Token:    token,
		Identity: server.Health{PID: os.Getpid(), DataDir: d.dir, Version: "test"},
	}))
	d.client = NewClient(d.srv.URL, token)
	tb.Cleanup(func() {
		d.client.Close()
		d.srv.Close()
		cancel()
		<-done
		<-done
		if d.damaged {
			closed := make(chan struct{})
			go func() { ix.Close(); close(closed) }()
			select {
			case <-closed:
			case <-time.After(5 * time.Second):
				tb.Log("the damaged index did not close in 5 s (a merge inside garbled segments): left open")
			}
			return
		}
		if err := ix.Close(); err != nil {
			tb.Error(err)
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	if err := d.keeper.WaitReady(wctx); err != nil {
		tb.Fatalf("the first pass did not end: %v", err)
	}
	return d
}

// waitFor polls until ok returns true, failing the test after a generous
// deadline.
func waitFor(tb testing.TB, what string, ok func() (bool, error)) {
	tb.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		done, err := ok()
		if err != nil {
			tb.Fatalf("%s: %v", what, err)
		}
		if done {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// total returns how many documents match q.
func (d *testDaemon) total(q string) (uint64, error) {
	res, err := d.client.Search(context.Background(), query.Request{Query: q, NoHighlight: true})
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}
