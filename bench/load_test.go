package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/internal/convtest"
)

// benchRoot returns a folder of n generated conversations of a dozen
// messages each.
func benchRoot(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	subjects := []string{"retry policy with jitter", "index layout on disk", "bootstrap confidence intervals", "database migration plan", "cache eviction", "lease table for the job queue"}
	for i := range n {
		s := subjects[i%len(subjects)]
		var msgs []string
		for j := range 12 {
			msgs = append(msgs, fmt.Sprintf("Message %d about the %s of service %d: we compared the options and decided to keep the simplest one because it is easy to test and to operate.", j, s, i))
		}
		path := filepath.Join(root, fmt.Sprintf("p%d", i%10), fmt.Sprintf("conv-%04d.json", i))
		if err := convtest.WriteAtomic(path, convtest.Portable(fmt.Sprintf("bench-%04d", i), "About the "+s, msgs...)); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// benchConvs is how many conversations the benchmarks index: 200 (2600
// messages), or $CONVSEARCH_BENCH_CONVS.
func benchConvs(b *testing.B) int {
	if v := os.Getenv("CONVSEARCH_BENCH_CONVS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("CONVSEARCH_BENCH_CONVS=%q: want a positive number", v)
		}
		return n
	}
	return 200
}

// startDaemon runs the daemon in this process over root, on a free
// loopback port, and waits for its first pass. It stops with the benchmark.
func startDaemon(b *testing.B, root string) *daemon.Client {
	b.Helper()
	ctx := context.Background()
	d, err := daemon.Start(ctx, daemon.Options{Store: daemon.StoreOptions{Dir: b.TempDir()}, Roots: []string{root}, Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := d.Stop(); err != nil {
			b.Error(err)
		}
	})
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := d.Keeper().WaitReady(wctx); err != nil {
		b.Fatalf("the first pass did not end: %v", err)
	}
	c := d.Client()
	b.Cleanup(func() { c.Close() })
	return c
}

// BenchmarkFreshness times how long after a file is written its new content
// is found through the HTTP API (p50 and p95 over 100 writes per op), on a
// small index (see benchConvs), for three ways of writing.
//
//	go test ./bench -run '^$' -bench Freshness -benchtime 1x
func BenchmarkFreshness(b *testing.B) {
	root := benchRoot(b, benchConvs(b))
	c := startDaemon(b, root)
	ctx := context.Background()
	writers := []struct {
		name  string
		write func(i int, word string) error
	}{
		{"inplace", func(i int, word string) error {
			return os.WriteFile(filepath.Join(root, "fresh", "inplace.json"), convtest.Portable("fresh-inplace", "Fresh", "we measured "+word), 0o644)
		}},
		{"atomic", func(i int, word string) error {
			return convtest.WriteAtomic(filepath.Join(root, "fresh", "atomic.json"), convtest.Portable("fresh-atomic", "Fresh", "we measured "+word))
		}},
		{"newfile", func(i int, word string) error {
			return convtest.WriteAtomic(filepath.Join(root, "fresh", fmt.Sprintf("new-%d-%s.json", i, word)), convtest.Portable("fresh-"+word, "Fresh", "we measured "+word))
		}},
	}
	if err := os.MkdirAll(filepath.Join(root, "fresh"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, w := range writers {
		b.Run("write="+w.name, func(b *testing.B) {
			var all Timings
			for b.Loop() {
				t, err := MeasureFreshness(ctx, c, FreshnessOptions{Writes: 100, Write: w.write})
				if err != nil {
					b.Fatal(err)
				}
				all = append(all, t...)
			}
			b.ReportMetric(ms(all.Percentile(50)), "p50-ms")
			b.ReportMetric(ms(all.Percentile(95)), "p95-ms")
			b.ReportMetric(0, "ns/op")
			b.Logf("write to searchable: %s", all)
		})
	}
}

// BenchmarkSearchLoad has 1 and 50 clients search over loopback HTTP for
// 3 seconds per op while a file is rewritten every 20 ms, and reports the
// latency percentiles, the rate and the failures (there must be none).
//
//	go test ./bench -run '^$' -bench SearchLoad -benchtime 1x
func BenchmarkSearchLoad(b *testing.B) {
	root := benchRoot(b, benchConvs(b))
	c := startDaemon(b, root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		path := filepath.Join(root, "churn", "churn.json")
		for i := 0; ctx.Err() == nil; i++ {
			if err := convtest.WriteAtomic(path, convtest.Portable("churn", "Churn", fmt.Sprintf("rewrite number %d of the churn file", i))); err != nil {
				b.Error(err)
				return
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	for _, clients := range []int{1, 50} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			var res *LoadResult
			for b.Loop() {
				res = LoadTest(ctx, c, LoadOptions{Clients: clients, Duration: 3 * time.Second, Facets: true})
				if res.Failures > 0 {
					b.Errorf("%d of %d requests failed; first: %s", res.Failures, res.Requests, res.FirstError)
				}
			}
			b.ReportMetric(ms(res.Latencies.Percentile(50)), "p50-ms")
			b.ReportMetric(ms(res.Latencies.Percentile(95)), "p95-ms")
			b.ReportMetric(ms(res.Latencies.Percentile(99)), "p99-ms")
			b.ReportMetric(res.PerSecond(), "req/s")
			b.ReportMetric(float64(res.Failures), "failures")
			b.ReportMetric(0, "ns/op")
			b.Logf("%d clients, 3s, files changing: %d requests, %.0f/s, %d failed; %s", clients, res.Requests, res.PerSecond(), res.Failures, res.Latencies)
		})
	}
	cancel()
	wg.Wait()
}
