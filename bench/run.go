package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// Options configure a benchmark run.
type Options struct {
	Dir   string // work folder: corpora and indexes are kept here between runs
	Exe   string // the convsearch binary, run as a child for whole-process figures
	Sizes []int  // corpus sizes in messages
	// Phases to run: index, cc, bare, reconcile, sync, query, watch, mcp,
	// process, grep (empty: all). "gen" alone only generates the corpus.
	// cc indexes the Claude Code copy of the corpus, the one other tools
	// are timed on, and process then also searches that index.
	Phases     []string
	Iterations int // per query class (0: 200; negative is refused)
	// NoRedaction says the index is built without redaction (the config
	// file's "redact": false, which the child `convsearch index` reads):
	// the phases that write to it in process (sync, watch) open it under
	// the same rules, or they would start it again, empty.
	NoRedaction bool
	Logger      *slog.Logger
}

// WatchFigures are the daemon's figures: a file written to its content
// found through the HTTP API, and search latency under concurrent load while
// files change.
type WatchFigures struct {
	Writes          int     `json:"writes"`
	FreshP50MS      float64 `json:"write_to_searchable_p50_ms"`
	FreshP95MS      float64 `json:"write_to_searchable_p95_ms"`
	LoadClients     int     `json:"load_clients"`
	LoadSeconds     float64 `json:"load_seconds"`
	LoadRequests    int     `json:"load_requests"`
	LoadFailures    int     `json:"load_failures"`
	LoadPerSecond   float64 `json:"load_requests_per_second"`
	LoadP50MS       float64 `json:"load_p50_ms"`
	LoadP95MS       float64 `json:"load_p95_ms"`
	LoadP99MS       float64 `json:"load_p99_ms"`
	WritesDuringRun int     `json:"writes_during_load"`
}

// Phases are the phases a run can be limited to (Options.Phases), in the
// order they run.
var Phases = []string{"gen", "index", "cc", "bare", "reconcile", "sync", "query", "watch", "mcp", "process", "grep"}

// CheckPhases says which of phases is not one of Phases, naming those.
func CheckPhases(phases []string) error {
	for _, p := range phases {
		if !slices.Contains(Phases, p) {
			return fmt.Errorf("unknown phase %q: the phases are %s", p, strings.Join(Phases, ", "))
		}
	}
	return nil
}

func (o *Options) has(phase string) bool {
	return len(o.Phases) == 0 || slices.Contains(o.Phases, phase)
}

// Report is the outcome of one size.
type Report struct {
	Size   int       `json:"size_messages"`
	Corpus *GenStats `json:"corpus"`
	// Indexing: convsearch's whole pipeline, as the `index` command.
	Index *IndexFigures `json:"index,omitempty"`
	// IndexClaudeCode is the same pipeline on the Claude Code copy of the
	// corpus (phase cc).
	IndexClaudeCode *IndexFigures `json:"index_claude_code,omitempty"`
	// Bare is Bleve at default settings on the same messages.
	Bare *IndexFigures `json:"bare_bleve,omitempty"`
	// NoChangeReconcileMS is an `index` run with nothing changed.
	NoChangeReconcileMS float64 `json:"no_change_reconcile_ms,omitempty"`
	NoChangeFiles       int     `json:"no_change_files,omitempty"`
	SyncOneMS           float64 `json:"sync_one_file_ms,omitempty"`
	// Queries per class, warm.
	Queries     []QueryFigures   `json:"queries,omitempty"`
	BareQueries []QueryFigures   `json:"bare_queries,omitempty"`
	Process     []ProcessFigures `json:"process,omitempty"`
	// ProcessClaudeCode are whole-process searches of the Claude Code
	// index; StartMS is a process of the binary that does nothing
	// (`convsearch version`), the floor of every whole-process figure.
	ProcessClaudeCode []ProcessFigures `json:"process_claude_code,omitempty"`
	StartMS           float64          `json:"process_start_ms,omitempty"`
	Watch             *WatchFigures    `json:"watch,omitempty"`
	// MCP is search_conversations over stdio; EngineMS the same query in
	// process, for the protocol's share.
	MCP      *MCPFigures `json:"mcp,omitempty"`
	EngineMS float64     `json:"mcp_query_in_process_p50_ms,omitempty"`
}

// IndexFigures describe one indexing run.
type IndexFigures struct {
	Seconds    float64 `json:"seconds"`
	MsgsPerSec float64 `json:"messages_per_second"`
	MBPerSec   float64 `json:"mb_per_second"`
	// CPUSeconds is the child's user and system time: on a shared machine
	// it moves less than the wall time.
	CPUSeconds  float64 `json:"cpu_seconds,omitempty"`
	PeakRSSMB   float64 `json:"peak_rss_mb"`
	IndexMB     float64 `json:"index_mb"`
	IndexToText float64 `json:"index_to_raw_text"`
}

// QueryFigures are the latencies of one query class.
type QueryFigures struct {
	Class     string  `json:"class"`
	Query     string  `json:"query"`
	Highlight bool    `json:"highlight"`
	Hits      uint64  `json:"hits"`
	P50MS     float64 `json:"p50_ms"`
	P95MS     float64 `json:"p95_ms"`
	P99MS     float64 `json:"p99_ms"`
}

// ProcessFigures compare whole-process searches for one term.
type ProcessFigures struct {
	Term        string  `json:"term"`
	ConvsearchS float64 `json:"convsearch_ms"`
	RgMS        float64 `json:"rg_ms,omitempty"`
	GrepMS      float64 `json:"grep_ms,omitempty"`
	RgRatio     float64 `json:"rg_over_convsearch,omitempty"`
	// CPUMS and PeakRSSMB are convsearch's, medians of the same runs.
	CPUMS     float64 `json:"convsearch_cpu_ms,omitempty"`
	PeakRSSMB float64 `json:"convsearch_peak_rss_mb,omitempty"`
}

// queryClasses is the mix timed on both convsearch and bare Bleve.
var queryClasses = []struct{ class, q string }{
	{"common term", "latency"},
	{"rare term", RareTerm},
	{"medium term", MediumTerm},
	{"AND", "retry backoff"},
	{"phrase", `"` + PhraseA + " " + PhraseB + `"`},
	{"field filter", "cache role:user"},
	{"date range", "index"}, // with Since
}

// Run measures one corpus size.
func Run(ctx context.Context, size int, o Options) (*Report, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := CheckPhases(o.Phases); err != nil {
		return nil, err // a phase misspelt would measure nothing, and say nothing
	}
	switch {
	case o.Iterations < 0:
		return nil, fmt.Errorf("%d iterations: give 1 or more runs per query class (0 for the default)", o.Iterations)
	case o.Iterations == 0:
		o.Iterations = 200
	}
	rep := &Report{Size: size}
	corpus := filepath.Join(o.Dir, fmt.Sprintf("corpus-%d", size))
	data := filepath.Join(o.Dir, fmt.Sprintf("data-%d", size))
	gen, err := ensureCorpus(corpus, filepath.Join(o.Dir, fmt.Sprintf("claude-code-%d", size)), size, log)
	if err != nil {
		return nil, err
	}
	rep.Corpus = gen

	needIndex := o.has("reconcile") || o.has("sync") || o.has("query") || o.has("process") || o.has("watch") || o.has("mcp")
	if o.has("index") || needIndex && !exists(indexer.ManifestPath(data)) {
		log.Info("indexing", "size", size)
		if rep.Index, err = timeIndex(ctx, o.Exe, data, corpus, gen.Messages, gen.Bytes, gen.TextBytes); err != nil {
			return nil, err
		}
	}
	ccData := filepath.Join(o.Dir, fmt.Sprintf("data-cc-%d", size))
	ccCorpus := filepath.Join(o.Dir, fmt.Sprintf("claude-code-%d", size))
	if o.has("cc") || o.has("process") && !exists(indexer.ManifestPath(ccData)) {
		log.Info("indexing the Claude Code copy", "size", size)
		// Its files are bigger than the seed formats' (a line per message
		// with its envelope): MB/s are of those files.
		if rep.IndexClaudeCode, err = timeIndex(ctx, o.Exe, ccData, ccCorpus, gen.Messages, dirSize(ccCorpus), gen.TextBytes); err != nil {
			return nil, err
		}
	}
	if o.has("bare") {
		log.Info("bare bleve", "size", size)
		bare := filepath.Join(o.Dir, fmt.Sprintf("bare-%d", size))
		start := time.Now()
		rss, out, err := child(ctx, o.Exe, "bench", "bare", "--dir", bare, "--size", fmt.Sprint(size))
		if err != nil {
			return nil, fmt.Errorf("bare bleve: %w\n%s", err, out)
		}
		var r struct {
			Seconds float64 `json:"seconds"`
		}
		json.Unmarshal(out, &r)
		if r.Seconds == 0 {
			r.Seconds = time.Since(start).Seconds()
		}
		ixMB := float64(dirSize(bare)) / 1e6
		rep.Bare = &IndexFigures{
			Seconds: r.Seconds, MsgsPerSec: float64(gen.Messages) / r.Seconds, MBPerSec: float64(gen.Bytes) / 1e6 / r.Seconds,
			PeakRSSMB: rss, IndexMB: ixMB, IndexToText: ixMB * 1e6 / float64(gen.TextBytes),
		}
	}
	if o.has("reconcile") {
		log.Info("no-change reconcile", "size", size)
		start := time.Now()
		_, out, err := child(ctx, o.Exe, "index", "--data-dir", data, "--root", corpus, "--no-default-roots", "--json")
		if err != nil {
			return nil, fmt.Errorf("reconcile: %w\n%s", err, out)
		}
		var s struct {
			Seen    int   `json:"files_seen"`
			Elapsed int64 `json:"elapsed_ns"`
		}
		json.Unmarshal(out, &s)
		rep.NoChangeFiles = s.Seen
		rep.NoChangeReconcileMS = float64(s.Elapsed) / 1e6
		if s.Elapsed == 0 {
			rep.NoChangeReconcileMS = ms(time.Since(start))
		}
	}
	if o.has("sync") {
		path, err := changeOneFile(corpus)
		if err != nil {
			return nil, err
		}
		d, err := timeSync(ctx, daemon.StoreOptions{Dir: data, NoRedaction: o.NoRedaction}, []string{path})
		if err != nil {
			return nil, fmt.Errorf("sync: %w", err)
		}
		rep.SyncOneMS = ms(d)
	}
	if o.has("query") {
		log.Info("queries", "size", size)
		if rep.Queries, err = timeQueries(ctx, data, o.Iterations); err != nil {
			return nil, err
		}
		bare := filepath.Join(o.Dir, fmt.Sprintf("bare-%d", size))
		if exists(bare) {
			if rep.BareQueries, err = timeBareQueries(ctx, bare, o.Iterations); err != nil {
				return nil, err
			}
		}
	}
	if o.has("watch") {
		log.Info("daemon: write to searchable, load", "size", size)
		if rep.Watch, err = timeWatch(ctx, daemon.StoreOptions{Dir: data, NoRedaction: o.NoRedaction}, corpus); err != nil {
			return nil, fmt.Errorf("watch: %w", err)
		}
	}
	if o.has("mcp") {
		log.Info("mcp over stdio", "size", size)
		if rep.MCP, err = timeMCP(ctx, o.Exe, data, "latency", 200); err != nil {
			return nil, err
		}
		// The tool's defaults: 10 hits with fragments, facets off, hidden
		// messages left out.
		q, err := timeQuery(ctx, data, query.Request{Query: "latency", Limit: 10, ExcludeHidden: true}, 200)
		if err != nil {
			return nil, err
		}
		rep.EngineMS = q
	}
	if o.has("process") {
		log.Info("whole-process searches", "size", size)
		rep.StartMS = medianChild(ctx, 7, o.Exe, "version").WallMS
		rep.Process = wholeProcess(ctx, o.Exe, data, corpus, o.has("grep"))
		rep.ProcessClaudeCode = wholeProcess(ctx, o.Exe, ccData, ccCorpus, false)
	}
	return rep, nil
}

// wholeProcess times `convsearch search` as a child process on the index
// in data, for three terms, beside rg (when installed) and, with grep,
// grep over the corpus it was built from.
func wholeProcess(ctx context.Context, exe, data, corpus string, grep bool) []ProcessFigures {
	var out []ProcessFigures
	for _, term := range []string{"latency", MediumTerm, RareTerm} {
		m := medianChild(ctx, 7, exe, "search", "--data-dir", data, "--limit", "10", term)
		pf := ProcessFigures{Term: term, ConvsearchS: m.WallMS, CPUMS: m.CPUMS, PeakRSSMB: m.PeakRSSMB}
		if rg, err := exec.LookPath("rg"); err == nil {
			pf.RgMS = medianChild(ctx, 5, rg, "-l", "-i", term, corpus).WallMS
			if pf.ConvsearchS > 0 {
				pf.RgRatio = pf.RgMS / pf.ConvsearchS
			}
		}
		if grep {
			pf.GrepMS = medianChild(ctx, 3, "grep", "-rli", term, corpus).WallMS
		}
		out = append(out, pf)
	}
	return out
}

// timeIndex runs `convsearch index --rebuild` on corpus as a child process.
func timeIndex(ctx context.Context, exe, data, corpus string, msgs int, bytes, text int64) (*IndexFigures, error) {
	start := time.Now()
	u, out, err := childUsage(ctx, exe, "index", "--data-dir", data, "--root", corpus, "--no-default-roots", "--rebuild", "--json")
	if err != nil {
		return nil, fmt.Errorf("index %s: %w\n%s", corpus, err, out)
	}
	secs := time.Since(start).Seconds()
	ixMB := float64(dirSize(indexer.IndexPath(data))) / 1e6
	return &IndexFigures{
		Seconds: secs, MsgsPerSec: float64(msgs) / secs, MBPerSec: float64(bytes) / 1e6 / secs,
		CPUSeconds: u.CPUMS / 1000, PeakRSSMB: u.PeakRSSMB, IndexMB: ixMB, IndexToText: ixMB * 1e6 / float64(text),
	}, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// ensureCorpus generates the corpus once; later runs reuse it.
func ensureCorpus(dir, claudeDir string, size int, log *slog.Logger) (*GenStats, error) {
	stamp := filepath.Join(dir, ".gen.json")
	if data, err := os.ReadFile(stamp); err == nil {
		var st GenStats
		if json.Unmarshal(data, &st) == nil && st.Messages == size {
			return &st, nil
		}
	}
	os.RemoveAll(dir)
	os.RemoveAll(claudeDir)
	log.Info("generating corpus", "messages", size, "dir", dir, "claude_code_copy", claudeDir)
	st, err := Generate(dir, GenOptions{Messages: size, ClaudeCodeDir: claudeDir})
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	data, _ := json.Marshal(st)
	return st, os.WriteFile(stamp, data, 0o644)
}

// child runs the binary and returns its peak RSS in MB and its stdout.
func child(ctx context.Context, exe string, args ...string) (float64, []byte, error) {
	u, out, err := childUsage(ctx, exe, args...)
	return u.PeakRSSMB, out, err
}

// usage is what one child process cost.
type usage struct {
	WallMS, CPUMS, PeakRSSMB float64
}

// childUsage runs the binary and returns what it cost and its stdout.
func childUsage(ctx context.Context, exe string, args ...string) (usage, []byte, error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stderr = io.Discard
	start := time.Now()
	out, err := cmd.Output()
	u := usage{WallMS: ms(time.Since(start))}
	if cmd.ProcessState != nil {
		u.CPUMS = ms(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime())
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			u.PeakRSSMB = float64(ru.Maxrss) / 1024 // KiB on Linux
		}
	}
	return u, out, err
}

// medianChild runs a command n times and returns the median of each
// figure (each taken on its own).
func medianChild(ctx context.Context, n int, exe string, args ...string) usage {
	var wall, cpu, rss []float64
	for range n {
		u, _, _ := childUsage(ctx, exe, args...) // search, rg and grep exit 1 on no match: still timed
		wall, cpu, rss = append(wall, u.WallMS), append(cpu, u.CPUMS), append(rss, u.PeakRSSMB)
	}
	return usage{WallMS: median(wall), CPUMS: median(cpu), PeakRSSMB: median(rss)}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func dirSize(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

// changeOneFile rewrites one portable conversation with a new message.
func changeOneFile(corpus string) (string, error) {
	var path string
	filepath.WalkDir(filepath.Join(corpus, "portable"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && path == "" && strings.HasSuffix(p, ".json") {
			path = p
		}
		return nil
	})
	if path == "" {
		return "", fmt.Errorf("no portable file in %s", corpus)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return "", err
	}
	msgs, _ := doc["messages"].([]any)
	doc["messages"] = append(msgs, map[string]any{"role": "user", "content": fmt.Sprintf("one more question at %d", time.Now().UnixNano()), "timestamp": nil})
	return path, writeJSON(path, doc)
}

// percentiles are the 50th, 95th and 99th percentiles of ds in ms, by
// Timings.Percentile (nearest rank).
func percentiles(ds []time.Duration) (p50, p95, p99 float64) {
	t := Timings(ds)
	return ms(t.Percentile(50)), ms(t.Percentile(95)), ms(t.Percentile(99))
}

// openReader opens the index in data to search it, as search does beside a
// writer: read-only. A writer must be told the redaction rules the index
// was built with, or it starts the index again, empty.
func openReader(data string) (*indexer.Index, error) {
	return indexer.Open(indexer.Options{Dir: data, ReadOnly: true})
}

func timeQueries(ctx context.Context, data string, n int) ([]QueryFigures, error) {
	ix, err := openReader(data)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	e, err := query.New(ix, query.Options{})
	if err != nil {
		return nil, err
	}
	since := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	var out []QueryFigures
	for _, hl := range []bool{false, true} {
		for _, qc := range queryClasses {
			req := query.Request{Query: qc.q, Limit: 10, NoHighlight: !hl}
			if qc.class == "date range" {
				req.Since = since
			}
			var ds []time.Duration
			var hits uint64
			for i := range n + 5 {
				start := time.Now()
				res, err := e.Search(ctx, req)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", qc.q, err)
				}
				if i >= 5 { // the first few warm the caches
					ds = append(ds, time.Since(start))
				}
				hits = res.Total
			}
			p50, p95, p99 := percentiles(ds)
			out = append(out, QueryFigures{Class: qc.class, Query: qc.q, Highlight: hl, Hits: hits, P50MS: p50, P95MS: p95, P99MS: p99})
		}
	}
	return out, nil
}

// timeBareQueries runs the same mix on the bare index with Bleve's default
// search settings (match queries on _all, default request).
func timeBareQueries(ctx context.Context, path string, n int) ([]QueryFigures, error) {
	idx, err := bleve.Open(path)
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	match := func(s string) bq.Query { return bleve.NewMatchQuery(s) }
	since := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	role := bleve.NewTermQuery("user")
	role.SetField("role")
	dr := bleve.NewDateRangeQuery(since, time.Time{})
	dr.SetField("date")
	and := bleve.NewMatchQuery("retry backoff")
	and.SetOperator(bq.MatchQueryOperatorAnd)
	queries := map[string]bq.Query{
		"common term":  match("latency"),
		"rare term":    match(RareTerm),
		"medium term":  match(MediumTerm),
		"AND":          and,
		"phrase":       bleve.NewMatchPhraseQuery(PhraseA + " " + PhraseB),
		"field filter": bleve.NewConjunctionQuery(match("cache"), role),
		"date range":   bleve.NewConjunctionQuery(match("index"), dr),
	}
	var out []QueryFigures
	for _, hl := range []bool{false, true} {
		for _, qc := range queryClasses {
			var ds []time.Duration
			var hits uint64
			for i := range n + 5 {
				req := bleve.NewSearchRequest(queries[qc.class])
				if hl {
					req.Highlight = bleve.NewHighlight()
				}
				start := time.Now()
				res, err := idx.SearchInContext(ctx, req)
				if err != nil {
					return nil, err
				}
				if i >= 5 {
					ds = append(ds, time.Since(start))
				}
				hits = res.Total
			}
			p50, p95, p99 := percentiles(ds)
			out = append(out, QueryFigures{Class: qc.class, Query: qc.q, Highlight: hl, Hits: hits, P50MS: p50, P95MS: p95, P99MS: p99})
		}
	}
	return out, nil
}

// timeQuery returns the warm p50 of one request run in process, in ms.
func timeQuery(ctx context.Context, data string, req query.Request, n int) (float64, error) {
	ix, err := openReader(data)
	if err != nil {
		return 0, err
	}
	defer ix.Close()
	e, err := query.New(ix, query.Options{})
	if err != nil {
		return 0, err
	}
	var ds []time.Duration
	for i := range n + 5 {
		start := time.Now()
		if _, err := e.Search(ctx, req); err != nil {
			return 0, err
		}
		if i >= 5 {
			ds = append(ds, time.Since(start))
		}
	}
	p50, _, _ := percentiles(ds)
	return p50, nil
}
