package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/convsearch/convsearch/daemon"
)

// timeSync times one Sync of changed paths on the index store opens, the
// way the daemon applies a file change.
func timeSync(ctx context.Context, store daemon.StoreOptions, paths []string) (time.Duration, error) {
	st, err := daemon.OpenStore(store)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	start := time.Now()
	if _, err := st.Ingester.Sync(ctx, paths); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// timeWatch runs the daemon in process on the index store opens, watching a
// fresh folder beside the corpus: it times 100 writes to searchable through
// the HTTP API, then 50 clients searching for 30 s while a file changes
// every 50 ms.
func timeWatch(ctx context.Context, store daemon.StoreOptions, corpus string) (*WatchFigures, error) {
	root := filepath.Join(corpus, "live")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	d, err := daemon.Start(ctx, daemon.Options{Store: store, Roots: []string{root}, Addr: "127.0.0.1:0"})
	if err != nil {
		return nil, err
	}
	defer d.Stop()
	c := d.Client()
	defer c.Close()
	write := func(i int, word string) error {
		path := filepath.Join(root, fmt.Sprintf("live-%03d.json", i%20))
		return os.WriteFile(path, []byte(LiveConversation(i, word)), 0o644)
	}
	fresh, err := MeasureFreshness(ctx, c, FreshnessOptions{Writes: 100, Write: write})
	if err != nil {
		return nil, err
	}
	wf := &WatchFigures{
		Writes:     len(fresh),
		FreshP50MS: ms(fresh.Percentile(50)),
		FreshP95MS: ms(fresh.Percentile(95)),
	}
	// Load while files keep changing.
	stopWriting := make(chan struct{})
	done := make(chan int)
	go func() {
		n := 0
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopWriting:
				done <- n
				return
			case <-t.C:
				write(1000+n, fmt.Sprintf("churn%d", n))
				n++
			}
		}
	}()
	load := LoadTest(ctx, c, LoadOptions{Clients: 50, Duration: 30 * time.Second})
	close(stopWriting)
	wf.WritesDuringRun = <-done
	wf.LoadClients, wf.LoadSeconds, wf.LoadRequests, wf.LoadFailures = 50, load.Elapsed.Seconds(), load.Requests, load.Failures
	wf.LoadPerSecond = load.PerSecond()
	wf.LoadP50MS, wf.LoadP95MS, wf.LoadP99MS = ms(load.Latencies.Percentile(50)), ms(load.Latencies.Percentile(95)), ms(load.Latencies.Percentile(99))
	return wf, nil
}

// ms is d in milliseconds, as the report gives figures.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
