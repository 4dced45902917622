package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/server"
)

// store is an open index with what feeds it.
type store struct {
	dir string
	reg *parsers.Registry
	ix  *indexer.Index
	ing *ingest.Ingester
}

// The garbage collector's settings for a bulk index (see runIndex).
const (
	bulkGCPercent   = 300
	bulkMemoryLimit = 700 << 20
)

// storeOptions are how a command uses the store.
type storeOptions struct {
	Rebuild  bool
	Progress func(ingest.Progress)
	// ManifestEvery, for long-running commands, writes index.json at most
	// this often instead of after every pass.
	ManifestEvery time.Duration
	// ReportsFiles is set by commands that list the files they could not
	// read once the pass is over: the ingester then logs them only with -v,
	// so that each is told once.
	ReportsFiles bool
}

func openStore(env *Env, sf *storeFlags, so storeOptions) (*store, error) {
	dir, err := sf.dataDir(env)
	if err != nil {
		return nil, err
	}
	logger := newLogger(env, sf.Verbose)
	ix, err := indexer.Open(indexer.Options{Dir: dir, Rebuild: so.Rebuild, Logger: logger.With("component", "indexer")})
	if err != nil {
		return nil, err
	}
	reg := all.Registry()
	ex := extract.New(extract.DefaultBackground(), extract.Options{})
	ingLog := logger.With("component", "ingest")
	if so.ReportsFiles && !sf.Verbose {
		ingLog = slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	}
	ing := ingest.New(reg, ix, ex, ingest.Options{Logger: ingLog, Progress: so.Progress, ManifestEvery: so.ManifestEvery})
	return &store{dir: dir, reg: reg, ix: ix, ing: ing}, nil
}

func (s *store) Close() error { return s.ix.Close() }

func runIndex(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "index")
	var sf storeFlags
	sf.register(fs, true)
	rebuild := fs.Bool("rebuild", false, "discard the index and read every file again")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
	if err := parseFlags(env, fs, "index", args); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	for _, a := range fs.Args() { // `convsearch index DIR` means --root DIR
		sf.Roots = append(sf.Roots, a)
	}
	// A running daemon holds the index: it does the pass (no --rebuild:
	// that needs the index to itself).
	if dir, err := sf.dataDir(env); err == nil && !*rebuild {
		if c, err := dialDaemon(ctx, env, dir); err == nil {
			return indexThroughDaemon(ctx, env, c, &sf, *asJSON)
		}
	}
	// A bulk index allocates fast and briefly: collect garbage less often,
	// but harder as the heap nears the limit, which keeps peak memory
	// bounded. GOGC and GOMEMLIMIT in the environment win.
	if env.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(bulkGCPercent))
	}
	if env.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(bulkMemoryLimit))
	}
	bar := newProgressBar(env)
	st, err := openStore(env, &sf, storeOptions{Rebuild: *rebuild, Progress: bar.update, ReportsFiles: true})
	if err != nil {
		return err
	}
	roots, err := sf.roots(env, st.reg)
	if err != nil {
		st.Close()
		return err
	}
	if len(roots) == 0 {
		st.Close()
		return usagef("index: nothing to index: give --root DIR (no default location of a known format exists here, and %s lists no roots)", configPath(env))
	}
	sum, err := st.ing.Reconcile(ctx, roots)
	bar.finish()
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if sum == nil {
		return err
	}
	if *asJSON {
		writeJSON(env.Stdout, sum)
	} else {
		printSummary(env.Stdout, sum)
	}
	if ferr := reportFailures(env, sum); err == nil {
		err = ferr
	}
	return err
}

// fileError says which file and why, naming the file once: most errors
// start with the path already (path: or path:line:).
func fileError(e ingest.FileError) string {
	if strings.HasPrefix(e.Err, e.Path+":") {
		return e.Err
	}
	return e.Path + ": " + e.Err
}

// reportFailures lists on stderr the files a pass could not read, and
// those unchanged since a pass failed on them, and returns an error (exit
// 1) when there are any: the rest is indexed, but a script must know.
func reportFailures(env *Env, sum *ingest.Summary) error {
	for _, e := range sum.Errors {
		fmt.Fprintf(env.Stderr, "convsearch: %s\n", fileError(e))
	}
	for _, e := range sum.StillFailing {
		fmt.Fprintf(env.Stderr, "convsearch: %s (unchanged since it failed)\n", fileError(e))
	}
	if n := len(sum.Errors) + len(sum.StillFailing); n > 0 {
		return fmt.Errorf("%d of the files could not be read (listed above); everything else is indexed", n)
	}
	return nil
}

func printSummary(w io.Writer, s *ingest.Summary) {
	rate := 0.0
	if s.Elapsed > 0 {
		rate = float64(s.Messages) / s.Elapsed.Seconds()
	}
	fmt.Fprintf(w, "indexed %d files (%d unchanged, %d removed, %d failed): %d conversations, %d messages in %s (%.0f msg/s)\n",
		s.Parsed, s.Unchanged, s.Removed, s.Failed, s.Conversations, s.Messages, s.Elapsed.Round(time.Millisecond), rate)
}

// progressBar draws a one-line progress display on stderr when stderr is a
// terminal, at most ten times a second; elsewhere it stays silent. With
// NO_COLOR or TERM=dumb it writes no escape sequence at all: the line is
// overwritten with carriage returns and spaces.
type progressBar struct {
	env   *Env
	on    bool
	plain bool
	mu    sync.Mutex
	last  time.Time
	width int // of the line drawn, in runes; 0: none
}

func newProgressBar(env *Env) *progressBar {
	return &progressBar{env: env, on: isTerminal(env.Stderr), plain: env.Getenv("NO_COLOR") != "" || env.Getenv("TERM") == "dumb"}
}

// draw replaces the line on screen with line ("" clears it).
func (b *progressBar) draw(line string) {
	if !b.plain {
		fmt.Fprint(b.env.Stderr, "\r\033[K"+line)
	} else {
		n := utf8.RuneCountInString(line)
		pad := max(b.width-n, 0)
		end := ""
		if line == "" {
			end = "\r"
		}
		fmt.Fprint(b.env.Stderr, "\r"+line+strings.Repeat(" ", pad)+end)
	}
	b.width = utf8.RuneCountInString(line)
}

func (b *progressBar) update(p ingest.Progress) {
	if !b.on {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Messages) / p.Elapsed.Seconds()
	}
	b.draw(fmt.Sprintf("%d files (%d unchanged, %d failed) · %d conversations · %d messages · %.0f msg/s",
		p.Seen, p.Unchanged, p.Failed, p.Conversations, p.Messages, rate))
}

func (b *progressBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.width > 0 {
		b.draw("")
	}
	b.on = false
}

func runStats(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "stats")
	var sf storeFlags
	sf.register(fs, false)
	asJSON := fs.Bool("json", false, "print the statistics as JSON")
	if err := parseFlags(env, fs, "stats", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("stats takes no arguments")
	}
	s, err := statsOf(ctx, env, &sf)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, s)
	}
	w := env.Stdout
	fmt.Fprintf(w, "data folder: %s\n", s.Dir)
	fmt.Fprintf(w, "documents:   %d (%s)\n", s.Documents, countsLine(s.ByKind))
	fmt.Fprintf(w, "files:       %d (%d with errors)\n", s.Files, s.FileErrors)
	fmt.Fprintf(w, "sources:     %s\n", countsLine(s.BySource))
	fmt.Fprintf(w, "projects:    %s\n", countsLine(s.ByProject))
	fmt.Fprintf(w, "index size:  %s\n", humanBytes(s.IndexBytes))
	if !s.LastSync.IsZero() {
		fmt.Fprintf(w, "last sync:   %s\n", s.LastSync.Local().Format(time.RFC3339))
	}
	return nil
}

// statsOf asks the daemon when one answers, else opens the index.
func statsOf(ctx context.Context, env *Env, sf *storeFlags) (*indexer.Stats, error) {
	dir, err := sf.dataDir(env)
	if err != nil {
		return nil, err
	}
	if c, err := dialDaemon(ctx, env, dir); err == nil {
		defer c.Close()
		return c.Stats(ctx)
	}
	st, err := openStore(env, sf, storeOptions{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.ix.Stats(ctx)
}

func countsLine(m map[string]uint64) string {
	if len(m) == 0 {
		return "none"
	}
	type kv struct {
		k string
		v uint64
	}
	var list []kv
	for k, v := range m {
		list = append(list, kv{k, v})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].v != list[j].v {
			return list[i].v > list[j].v
		}
		return list[i].k < list[j].k
	})
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = fmt.Sprintf("%s %d", e.k, e.v)
	}
	return strings.Join(parts, ", ")
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// startCPUProfile writes a CPU profile to path until the returned func runs
// (a no-op when path is empty: no profile asked for).
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// indexThroughDaemon asks the daemon to reconcile the roots this command
// would have indexed.
func indexThroughDaemon(ctx context.Context, env *Env, c *server.Client, sf *storeFlags, asJSON bool) error {
	defer c.Close()
	roots, err := sf.roots(env, all.Registry())
	if err != nil {
		return err
	}
	if len(roots) == 0 {
		return usagef("index: nothing to index: give --root DIR")
	}
	fmt.Fprintf(env.Stderr, "convsearch: the daemon at %s holds the index; asking it to index\n", c.URL())
	sum, err := c.Sync(ctx, roots)
	if err != nil {
		return err
	}
	if asJSON {
		if err := writeJSON(env.Stdout, sum); err != nil {
			return err
		}
	} else {
		printSummary(env.Stdout, sum)
	}
	return reportFailures(env, sum)
}
