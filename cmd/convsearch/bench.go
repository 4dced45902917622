package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/convsearch/convsearch/bench"
	"github.com/convsearch/convsearch/internal/term"
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

// benchSubcommands are what may follow `bench`, in its usage's order ("bare",
// the child process that indexes with bare Bleve, is not for users).
var benchSubcommands = []string{"index", "query", "recall", "all"}

func runBench(ctx context.Context, env *Env, args []string) error {
	name, sub := "bench", ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
		switch sub {
		case "bare":
			return runBenchBare(ctx, env, args)
		case "recall":
			return runBenchRecall(ctx, env, args)
		case "index", "query":
			name += " " + sub
		case "all":
		default:
			return usagef("bench: unknown subcommand %q: give %s, or none for all", sub, strings.Join(benchSubcommands, ", "))
		}
	}
	fs := newFlags(env, name)
	sizes := fs.String("sizes", "10k,100k", "corpus sizes in messages (10k, 100k, 1m)")
	dir := fs.String("dir", "", "work folder; corpora and indexes are kept there between runs (default $XDG_CACHE_HOME/convsearch-bench)")
	phases := fs.StringSlice("phases", nil, "only these phases: gen, index, cc (the Claude Code copy), bare, reconcile, sync, query, watch, mcp, process, grep (default: all; bench index and bench query add theirs)")
	iterations := fs.Int("iterations", 200, "runs per query class, 1 or more")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	verbose := fs.BoolP("verbose", "v", false, "log progress on stderr")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the in-process phases (sync, query) to this file")
	if err := parseFlags(env, fs, name, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q: a subcommand (%s) comes first, before the flags", name, fs.Arg(0), strings.Join(benchSubcommands, ", "))
	}
	if err := bench.CheckPhases(*phases); err != nil {
		return usagef("%s: --phases: %v", name, err)
	}
	if *iterations < 1 {
		return usagef("%s: --iterations %d: give 1 or more runs per query class", name, *iterations)
	}
	switch {
	case sub == "all" && fs.Changed("phases"):
		return usagef("bench all runs every phase: leave out --phases, or leave out all")
	case sub == "index" || sub == "query":
		// `bench index` is `bench --phases index`; other phases given add to it.
		if !slices.Contains(*phases, sub) {
			*phases = append(*phases, sub)
		}
	}
	stopProfile, err := bench.StartCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := bench.ParseCount(s)
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
	cfg, err := loadConfig(env) // the child `convsearch index` reads it too
	if err != nil {
		return err
	}
	rep := benchReport{Started: time.Now().UTC(), Reports: []*bench.Report{}}
	rep.Machine.CPUs, rep.Machine.OS, rep.Machine.Go = runtime.NumCPU(), runtime.GOOS+"/"+runtime.GOARCH, runtime.Version()
	opts := bench.Options{
		Dir: *dir, Exe: exe, Phases: *phases, Iterations: *iterations, NoRedaction: !cfg.redacts(),
		Logger: newLogger(env, true).With("component", "bench"),
	}
	if !*verbose && !term.IsTerminal(env.Stderr) {
		opts.Logger = nil
	}
	for _, n := range ns {
		r, err := bench.Run(ctx, n, opts)
		if err != nil {
			return err
		}
		rep.Reports = append(rep.Reports, r)
		if !*asJSON {
			r.WriteText(env.Stdout)
		}
	}
	if *asJSON {
		return writeJSON(env.Stdout, rep)
	}
	return nil
}

// runBenchBare is the child process that indexes with bare Bleve, so its
// peak memory is measured on its own.
func runBenchBare(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "bench")
	dir := fs.String("dir", "", "where to write the bare index")
	size := fs.String("size", "10k", "messages")
	if err := parseFlags(env, fs, "bench", args); err != nil {
		return err
	}
	n, err := bench.ParseCount(*size)
	if err != nil || *dir == "" {
		return usagef("bench bare: --dir and a valid --size are required")
	}
	msgs, spent, err := bench.BareIndex(ctx, *dir, bench.GenOptions{Messages: n})
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, map[string]any{"messages": msgs, "seconds": spent.Seconds()})
}
