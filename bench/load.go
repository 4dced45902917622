package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/convsearch/convsearch/query"
)

// Searcher answers searches: the daemon's client, or a query.Engine.
type Searcher interface {
	Search(ctx context.Context, r query.Request) (*query.Result, error)
}

// Timings are measured durations.
type Timings []time.Duration

// Percentile returns the p-th percentile (0 to 100, nearest rank) of t.
func (t Timings) Percentile(p float64) time.Duration {
	if len(t) == 0 {
		return 0
	}
	s := slices.Clone(t)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// String summarises t as p50, p95, p99 and max.
func (t Timings) String() string {
	return fmt.Sprintf("n=%d p50=%.1fms p95=%.1fms p99=%.1fms max=%.1fms",
		len(t), ms(t.Percentile(50)), ms(t.Percentile(95)), ms(t.Percentile(99)), ms(t.Percentile(100)))
}

// FreshnessOptions configure MeasureFreshness.
type FreshnessOptions struct {
	// Writes is how many writes to time (default 100).
	Writes int
	// Write writes (or rewrites) a conversation file under a watched root
	// so that it holds word, which nothing else in the index holds, and
	// returns once the file is closed. i counts from 0.
	Write func(i int, word string) error
	// Poll is the pause between searches for the word (default 2ms).
	Poll time.Duration
	// Timeout bounds the wait for one write (default 10s).
	Timeout time.Duration
}

// MeasureFreshness times, for each of o.Writes writes, how long after the
// file was written its new content is found by b (a Client: through the
// HTTP API of a running daemon). This is what a user waits for between
// saving a conversation and finding it.
func MeasureFreshness(ctx context.Context, b Searcher, o FreshnessOptions) (Timings, error) {
	if o.Writes <= 0 {
		o.Writes = 100
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Millisecond
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Write == nil {
		return nil, errors.New("measure freshness: no Write function")
	}
	run := rand.Uint32()
	var out Timings
	for i := range o.Writes {
		// Letters then digits: one token the analyzer keeps whole.
		word := fmt.Sprintf("fresh%08xn%d", run, i)
		if err := o.Write(i, word); err != nil {
			return out, fmt.Errorf("measure freshness: write %d: %w", i, err)
		}
		start := time.Now()
		deadline := start.Add(o.Timeout)
		for {
			res, err := b.Search(ctx, query.Request{Query: word, Limit: 1, NoHighlight: true})
			if err != nil {
				return out, fmt.Errorf("measure freshness: search %d: %w", i, err)
			}
			if res.Total > 0 {
				out = append(out, time.Since(start))
				break
			}
			if time.Now().After(deadline) {
				return out, fmt.Errorf("measure freshness: write %d (%s) not searchable after %s", i, word, o.Timeout)
			}
			select {
			case <-ctx.Done():
				return out, ctx.Err()
			case <-time.After(o.Poll):
			}
		}
	}
	return out, nil
}

// LoadOptions configure LoadTest.
type LoadOptions struct {
	// Clients is how many clients search at once (default 50).
	Clients int
	// Duration bounds the test (default 10s).
	Duration time.Duration
	// MaxRequests, when positive, also bounds it.
	MaxRequests int
	// Queries are searched in turn (default: a few common words).
	Queries []string
	// Facets asks for facets too, as the search page does.
	Facets bool
}

// LoadResult is the outcome of LoadTest.
type LoadResult struct {
	Requests int
	Failures int
	// FirstError is the first failure's error.
	FirstError string
	Latencies  Timings
	Elapsed    time.Duration
}

// PerSecond returns the requests answered per second.
func (r *LoadResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// LoadTest has o.Clients clients search b back to back for o.Duration, and
// times every search.
func LoadTest(ctx context.Context, b Searcher, o LoadOptions) *LoadResult {
	if o.Clients <= 0 {
		o.Clients = 50
	}
	if o.Duration <= 0 {
		o.Duration = 10 * time.Second
	}
	if len(o.Queries) == 0 {
		o.Queries = []string{"cache", "decision", "index", "test", "error handling", "\"lease table\"", "postgres OR sqlite", "retry*"}
	}
	ctx, cancel := context.WithTimeout(ctx, o.Duration)
	defer cancel()
	var (
		mu     sync.Mutex
		res    = &LoadResult{}
		issued atomic.Int64
		wg     sync.WaitGroup
	)
	start := time.Now()
	for c := range o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine Timings
			fails, firstErr := 0, ""
			for i := c; ; i++ {
				if o.MaxRequests > 0 && issued.Add(1) > int64(o.MaxRequests) {
					break
				}
				t0 := time.Now()
				_, err := b.Search(ctx, query.Request{Query: o.Queries[i%len(o.Queries)], Facets: o.Facets})
				if ctx.Err() != nil {
					break // the time is up: this request does not count
				}
				if err != nil {
					fails++
					if firstErr == "" {
						firstErr = err.Error()
					}
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			res.Latencies = append(res.Latencies, mine...)
			res.Requests += len(mine) + fails
			res.Failures += fails
			if res.FirstError == "" {
				res.FirstError = firstErr
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	return res
}
