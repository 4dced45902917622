package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/convsearch/convsearch/bench"
	"github.com/convsearch/convsearch/server"
)

// benchReport is what `convsearch bench --json` prints.
type benchReport struct {
	Machine struct {
		CPUs int    `json:"cpus"`
		OS   string `json:"os"`
		Go   string `json:"go"`
	} `json:"machine"`
	Started time.Time       `json:"started"`
	Reports []*bench.Report `json:"reports"`
}

func runBench(ctx context.Context, env *Env, args []string) error {
	if len(args) > 0 && args[0] == "bare" {
		return runBenchBare(ctx, env, args[1:])
	}
	fs := newFlags(env, "bench")
	sizes := fs.String("sizes", "10k,100k", "corpus sizes in messages (10k, 100k, 1m)")
	dir := fs.String("dir", "", "work folder; corpora and indexes are kept there between runs (default $XDG_CACHE_HOME/convsearch-bench)")
	phases := fs.StringSlice("phases", nil, "only these phases: gen, index, bare, reconcile, sync, query, watch, mcp, process, grep (default: all)")
	iterations := fs.Int("iterations", 200, "runs per query class")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	verbose := fs.BoolP("verbose", "v", false, "log progress on stderr")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the in-process phases (sync, query) to this file")
	if err := parseFlags(env, fs, "bench", args); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := parseCount(s)
		if err != nil {
			return usagef("bench: --sizes: %v", err)
		}
		ns = append(ns, n)
	}
	if *dir == "" {
		cache := env.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			cache = filepath.Join(env.Getenv("HOME"), ".cache")
		}
		*dir = filepath.Join(cache, "convsearch-bench")
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	rep := benchReport{Started: time.Now().UTC(), Reports: []*bench.Report{}}
	rep.Machine.CPUs, rep.Machine.OS, rep.Machine.Go = runtime.NumCPU(), runtime.GOOS+"/"+runtime.GOARCH, runtime.Version()
	opts := bench.Options{
		Dir: *dir, Exe: exe, Phases: *phases, Iterations: *iterations,
		Logger: newLogger(env, true).With("component", "bench"),
		Sync:   benchSync(env),
		Watch:  benchWatch(env),
	}
	if !*verbose && !isTerminal(env.Stderr) {
		opts.Logger = nil
	}
	for _, n := range ns {
		r, err := bench.Run(ctx, n, opts)
		if err != nil {
			return err
		}
		rep.Reports = append(rep.Reports, r)
		if !*asJSON {
			printBench(env, r)
		}
	}
	if *asJSON {
		return writeJSON(env.Stdout, rep)
	}
	return nil
}

// benchSync times one Sync of changed paths on the index in dataDir, the
// way the daemon applies a file change.
func benchSync(env *Env) func(ctx context.Context, dataDir string, paths []string) (time.Duration, error) {
	return func(ctx context.Context, dataDir string, paths []string) (time.Duration, error) {
		st, err := openStore(env, &storeFlags{DataDir: dataDir}, storeOptions{})
		if err != nil {
			return 0, err
		}
		defer st.Close()
		start := time.Now()
		if _, err := st.ing.Sync(ctx, paths); err != nil {
			return 0, err
		}
		return time.Since(start), nil
	}
}

// benchWatch runs the daemon in process on the index in dataDir, watching a
// fresh folder beside the corpus: it times 100 writes to searchable through
// the HTTP API, then 50 clients searching for 30 s while a file changes
// every 50 ms.
func benchWatch(env *Env) func(ctx context.Context, dataDir, corpus string) (*bench.WatchFigures, error) {
	return func(ctx context.Context, dataDir, corpus string) (*bench.WatchFigures, error) {
		root := filepath.Join(corpus, "live")
		if err := os.MkdirAll(root, 0o755); err != nil {
			return nil, err
		}
		quiet := &Env{Stdin: env.Stdin, Stdout: io.Discard, Stderr: io.Discard, Getenv: env.Getenv}
		sv, err := startServing(ctx, quiet, &storeFlags{DataDir: dataDir, Roots: []string{root}, NoDefaults: true}, "127.0.0.1:0", "")
		if err != nil {
			return nil, err
		}
		defer sv.stop()
		c := sv.Client()
		write := func(i int, word string) error {
			path := filepath.Join(root, fmt.Sprintf("live-%03d.json", i%20))
			return os.WriteFile(path, []byte(bench.LiveConversation(i, word)), 0o644)
		}
		fresh, err := server.MeasureFreshness(ctx, c, server.FreshnessOptions{Writes: 100, Write: write})
		if err != nil {
			return nil, err
		}
		wf := &bench.WatchFigures{
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
		load := server.LoadTest(ctx, c, server.LoadOptions{Clients: 50, Duration: 30 * time.Second})
		close(stopWriting)
		wf.WritesDuringRun = <-done
		wf.LoadClients, wf.LoadSeconds, wf.LoadRequests, wf.LoadFailures = 50, load.Elapsed.Seconds(), load.Requests, load.Failures
		wf.LoadPerSecond = load.PerSecond()
		wf.LoadP50MS, wf.LoadP95MS, wf.LoadP99MS = ms(load.Latencies.Percentile(50)), ms(load.Latencies.Percentile(95)), ms(load.Latencies.Percentile(99))
		return wf, nil
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runBenchBare is the child process that indexes with bare Bleve, so its
// peak memory is measured on its own.
func runBenchBare(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "bench")
	dir := fs.String("dir", "", "where to write the bare index")
	size := fs.String("size", "10k", "messages")
	if err := parseFlags(env, fs, "bench", args); err != nil {
		return err
	}
	n, err := parseCount(*size)
	if err != nil || *dir == "" {
		return usagef("bench bare: --dir and a valid --size are required")
	}
	msgs, spent, err := bench.BareIndex(ctx, *dir, bench.GenOptions{Messages: n})
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, map[string]any{"messages": msgs, "seconds": spent.Seconds()})
}

// parseCount reads 10k, 100k, 1m, 2500.
func parseCount(s string) (int, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := 1
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1000, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1000000, strings.TrimSuffix(s, "m")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a count like 10k or 1m", s)
	}
	return n * mult, nil
}

func printBench(env *Env, r *bench.Report) {
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	defer w.Flush()
	c := r.Corpus
	fmt.Fprintf(w, "\n== %d messages: %d files, %.1f MB on disk, %.1f MB of text\n", c.Messages, c.Files, float64(c.Bytes)/1e6, float64(c.TextBytes)/1e6)
	row := func(name string, f *bench.IndexFigures) {
		if f != nil {
			fmt.Fprintf(w, "%s\t%.1f s\t%.0f msg/s\t%.1f MB/s\tpeak RSS %.0f MB\tindex %.0f MB (%.2fx text)\n", name, f.Seconds, f.MsgsPerSec, f.MBPerSec, f.PeakRSSMB, f.IndexMB, f.IndexToText)
		}
	}
	row("convsearch index", r.Index)
	row("bare Bleve", r.Bare)
	if r.Index != nil && r.Bare != nil && r.Bare.MsgsPerSec > 0 {
		fmt.Fprintf(w, "ingest speed-up over bare Bleve\t%.2fx\n", r.Index.MsgsPerSec/r.Bare.MsgsPerSec)
	}
	if r.NoChangeFiles > 0 {
		fmt.Fprintf(w, "no-change reconcile\t%.0f ms\t%d files\n", r.NoChangeReconcileMS, r.NoChangeFiles)
	}
	if r.SyncOneMS > 0 {
		fmt.Fprintf(w, "sync one changed file\t%.1f ms\n", r.SyncOneMS)
	}
	bare := map[string]bench.QueryFigures{}
	for _, q := range r.BareQueries {
		bare[fmt.Sprint(q.Class, q.Highlight)] = q
	}
	if len(r.Queries) > 0 {
		fmt.Fprintf(w, "query\thighlight\thits\tp50 ms\tp95 ms\tp99 ms\tbare p50\tbare p99\n")
	}
	for _, q := range r.Queries {
		b := bare[fmt.Sprint(q.Class, q.Highlight)]
		fmt.Fprintf(w, "%s\t%v\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", q.Class, q.Highlight, q.Hits, q.P50MS, q.P95MS, q.P99MS, b.P50MS, b.P99MS)
	}
	if wf := r.Watch; wf != nil {
		fmt.Fprintf(w, "write to searchable (daemon, %d writes)\tp50 %.1f ms\tp95 %.1f ms\n", wf.Writes, wf.FreshP50MS, wf.FreshP95MS)
		fmt.Fprintf(w, "HTTP search, %d clients, %.0f s, %d writes meanwhile\t%.0f req/s\tp50 %.1f ms\tp95 %.1f ms\tp99 %.1f ms\t%d failed\n",
			wf.LoadClients, wf.LoadSeconds, wf.WritesDuringRun, wf.LoadPerSecond, wf.LoadP50MS, wf.LoadP95MS, wf.LoadP99MS, wf.LoadFailures)
	}
	if m := r.MCP; m != nil {
		fmt.Fprintf(w, "MCP search_conversations over stdio (%d calls)\tp50 %.2f ms\tp95 %.2f ms\tsame query in process p50 %.2f ms\tping p50 %.2f ms\n", m.Calls, m.P50MS, m.P95MS, r.EngineMS, m.PingMS)
	}
	for _, p := range r.Process {
		fmt.Fprintf(w, "whole process %q\tconvsearch %.1f ms\trg %.1f ms\tgrep %.1f ms\trg/convsearch %.1fx\n", p.Term, p.ConvsearchS, p.RgMS, p.GrepMS, p.RgRatio)
	}
}
