package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/convsearch/convsearch/bench"
	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers/all"
)

// The garbage collector's settings for a bulk index (see runIndex), and for
// a pass that reads little (see smallPass).
const (
	bulkGCPercent   = 300
	bulkMemoryLimit = 700 << 20

	smallPassBytes     = 48 << 20
	smallPassGCPercent = 100
	smallPassLimit     = 230 << 20
)

// smallPass sizes a pass's memory to its work. Bulk settings buy speed with
// headroom (a 10k-message pass peaked at 700 MB for 130 to 200 MB live);
// a pass that reads at most smallPassBytes (about 35k Claude Code messages)
// takes one writer lane and a tighter collector instead (a soft limit of
// smallPassLimit plus the bytes read): 10k messages then peak near 250 MB
// for about a tenth more CPU, seconds in all. A larger pass
// keeps the bulk settings: there the same trade costs more time than the
// build can spare (docs/PERFORMANCE.md). GOGC and GOMEMLIMIT in the
// environment still win.
func smallPass(getenv func(string) string) func(bytes int64) int {
	return func(bytes int64) int {
		if bytes > smallPassBytes {
			return 0
		}
		if getenv("GOGC") == "" {
			debug.SetGCPercent(smallPassGCPercent)
		}
		if getenv("GOMEMLIMIT") == "" {
			// The batches' analysis is bounded by BatchBytes, but a file
			// is held parsed until its last batch is written: a long
			// session (29 MB) left the collector no headroom under the
			// bare limit, and it ran without pause, half the CPU.
			debug.SetMemoryLimit(smallPassLimit + bytes)
		}
		return 1
	}
}

func runIndex(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "index")
	var sf storeFlags
	sf.register(fs, true)
	rebuild := fs.Bool("rebuild", false, "discard the index and read every file again")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	verify := fs.Bool("verify", false, "first check the index for damage, as convsearch check does, and stop if there is any")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
	if err := parseFlags(env, fs, "index", args); err != nil {
		return err
	}
	stopProfile, err := bench.StartCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if err := sf.positionalRoots(env, fs, "index"); err != nil {
		return err
	}
	so, err := sf.store(env)
	if err != nil {
		return err
	}
	so.Holder = "index"
	roots, err := sf.roots(env, all.Registry())
	if err != nil {
		return err
	}
	if len(roots) == 0 {
		return usagef("index: nothing to index: give --root DIR (no default location of a known format exists here, and %s lists no roots)", configPath(env))
	}
	if *verify && !*rebuild {
		if err := verifyBeforeIndex(ctx, env, so.Dir); err != nil {
			return err
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
	so.Sized = smallPass(env.Getenv)
	bar := term.NewStatus(env.Stderr, env.Getenv)
	so.Progress = progress(bar)
	if !sf.Verbose {
		// The files that could not be read are listed once, below.
		so.IngestLogger = slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	}
	sum, via, err := daemon.Index(ctx, daemon.ConnectOptions{Store: so, Roots: roots, Rebuild: *rebuild, Version: version, Warn: warner(env)})
	bar.Finish()
	if via != "" {
		fmt.Fprintf(env.Stderr, "convsearch: the daemon at %s holds the index; asking it to index\n", via)
	}
	if we := (*indexer.WriteError)(nil); sum == nil || errors.As(err, &we) {
		// After a failed write the summary's counts overstate what is in
		// the index: the error says what happened instead.
		return err
	}
	reportRebuild(env, sum, err)
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

// reportRebuild says on stderr that the pass rebuilt the whole index, and
// why: every file the old index held was read again, from whatever root.
// A pass that failed did not put the new index in place.
func reportRebuild(env *Env, sum *ingest.Summary, err error) {
	if sum.Rebuild == "" {
		return
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "convsearch: the full rebuild (%s) did not finish: the index is as it was, and the next `convsearch index` starts the rebuild again\n", sum.Rebuild)
		return
	}
	fmt.Fprintf(env.Stderr, "convsearch: full rebuild (%s): every file the index held was read again, %d with conversations from outside the roots given\n", sum.Rebuild, sum.Carried)
}

// verifyBeforeIndex runs the full check of `convsearch check` on an index
// that exists, its report on stderr (stdout is for the pass's summary).
func verifyBeforeIndex(ctx context.Context, env *Env, dir string) error {
	if _, err := os.Stat(indexer.IndexPath(dir)); errors.Is(err, fs.ErrNotExist) {
		return nil // nothing to check: the pass makes it
	}
	return checkIndex(ctx, &Env{Stdout: env.Stderr, Stderr: env.Stderr, Getenv: env.Getenv}, dir, true, false)
}

// reportFailures lists on stderr the files a pass could not read, and
// those unchanged since a pass failed on them, and returns an error (exit
// 1) when there are any: the rest is indexed, but a script must know.
func reportFailures(env *Env, sum *ingest.Summary) error {
	for _, e := range sum.Errors {
		fmt.Fprintf(env.Stderr, "convsearch: %s\n", term.Safe(fmt.Sprint(e))) // file names and parse errors quote file content
	}
	for _, e := range sum.StillFailing {
		fmt.Fprintf(env.Stderr, "convsearch: %s (unchanged since it failed)\n", term.Safe(fmt.Sprint(e)))
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
	fmt.Fprintf(w, "indexed %d files (%d unchanged, %d removed, %d failed, %d not conversations): %d conversations, %d messages in %s (%.0f msg/s)\n",
		s.Parsed, s.Unchanged, s.Removed, s.Failed, s.Skipped, s.Conversations, s.Messages, s.Elapsed.Round(time.Millisecond), rate)
}

// progress draws the pass's progress on stderr when it is a terminal.
func progress(bar *term.Status) func(ingest.Progress) {
	return func(p ingest.Progress) {
		bar.Update(func() string {
			rate := 0.0
			if p.Elapsed > 0 {
				rate = float64(p.Messages) / p.Elapsed.Seconds()
			}
			return fmt.Sprintf("%d files (%d unchanged, %d failed, %d not conversations) · %d conversations · %d messages · %.0f msg/s",
				p.Seen, p.Unchanged, p.Failed, p.Skipped, p.Conversations, p.Messages, rate)
		})
	}
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
	fmt.Fprintf(w, "documents:   %d (%s)\n", s.Documents, term.Counts(s.ByKind))
	fmt.Fprintf(w, "files:       %d (%d with errors)\n", s.Files, s.FileErrors)
	// Source and project names come from conversations: untrusted.
	fmt.Fprintf(w, "sources:     %s\n", term.Safe(term.Counts(s.BySource)))
	fmt.Fprintf(w, "projects:    %s\n", term.Safe(term.Counts(s.ByProject)))
	fmt.Fprintf(w, "index size:  %s\n", term.HumanBytes(s.IndexBytes))
	if !s.LastSync.IsZero() {
		fmt.Fprintf(w, "last sync:   %s\n", s.LastSync.Local().Format(time.RFC3339))
	}
	return nil
}

// statsOf asks the daemon when one answers, else opens the index.
func statsOf(ctx context.Context, env *Env, sf *storeFlags) (*indexer.Stats, error) {
	be, err := openBackend(ctx, env, sf, "stats")
	if err != nil {
		return nil, err
	}
	defer be.Close()
	return be.Stats(ctx)
}
