package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/parsers/portable"
)

// runExport writes every conversation found under the paths as a portable
// conversation file (<id>.json) plus the spec's index.json manifest, so any
// tool of that ecosystem can read convsearch's output. Into a folder
// exported to before, the manifest keeps listing the earlier conversations.
func runExport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "export")
	to := fs.String("to", "", "the folder to write into (created if needed)")
	quiet := fs.BoolP("quiet", "q", false, "do not print the per-family totals on stderr")
	asJSON := fs.Bool("json", false, "print what was written as JSON: the folder, the manifest's path, how many conversations this run wrote, and the manifest's entries")
	if err := parseFlags(env, fs, "export", args); err != nil {
		return err
	}
	if *to == "" {
		return usagef("export: --to DIR is required")
	}
	if fs.NArg() == 0 {
		return usagef("export: give at least one file or folder to export")
	}
	// A source that is not there (a typo) stops the export before it
	// creates anything: no folder, no manifest of nothing.
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("export: nothing written: %w", err)
		}
	}
	ex, err := portable.NewExport(*to)
	if err != nil {
		return err
	}
	run, err := parsePaths(ctx, env, all.Registry(), fs.Args(), func(path string, _ parsers.Parser, res *parsers.Result) error {
		for _, c := range res.Conversations {
			if prev, err := ex.Add(c, path); err != nil {
				return err
			} else if prev != "" {
				fmt.Fprintf(env.Stderr, "convsearch: %s\n", term.Safe(fmt.Sprintf("%s: conversation %s already exported from %s; skipped", path, c.ID, prev)))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := ex.Close(); err != nil {
		return err
	}
	manifest := ex.Manifest
	if !*quiet {
		printTotals(env, run)
	}
	// What was written is the result: on stdout.
	if *asJSON {
		dir, _ := filepath.Abs(*to)
		if err := writeJSON(env.Stdout, exportResult{Dir: dir, Index: filepath.Join(dir, "index.json"),
			Written: ex.Written, Conversations: manifest.Conversations}); err != nil {
			return err
		}
	} else if n := len(manifest.Conversations); n != ex.Written {
		fmt.Fprintf(env.Stdout, "wrote %d conversations to %s; its index.json lists %d, with the earlier exports' still there\n", ex.Written, *to, n)
	} else {
		fmt.Fprintf(env.Stdout, "wrote %d conversations and index.json to %s\n", ex.Written, *to)
	}
	if run.Failed > 0 {
		return errReported
	}
	return nil
}

// exportResult is export --json.
type exportResult struct {
	Dir           string                   `json:"dir"`
	Index         string                   `json:"index"`
	Written       int                      `json:"written"` // by this run
	Conversations []portable.ManifestEntry `json:"conversations"`
}
