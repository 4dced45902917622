package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/redact"
)

// familyTotals counts what one format family yielded.
type familyTotals struct {
	Files, Conversations, Messages int
}

// parseRun is the outcome of parsing a list of paths.
type parseRun struct {
	Totals map[string]*familyTotals
	Failed int
}

// parsePaths parses every conversation file under paths, calling fn for
// each parsed file with the secrets taken out (unless the config file turns
// redaction off: what is printed or exported is an answer too). Errors and
// warnings go to stderr naming the file; a bad file never stops the run.
func parsePaths(ctx context.Context, env *Env, reg *parsers.Registry, paths []string, fn func(path string, p parsers.Parser, res *parsers.Result) error) (*parseRun, error) {
	cfg, err := loadConfig(env)
	if err != nil {
		return nil, err
	}
	var red *redact.Redactor
	if cfg.redacts() {
		red = redact.New()
	}
	// An error or warning may quote the file: its secrets are taken out too.
	clean := func(s string) string {
		if red != nil {
			s, _ = red.String(s)
		}
		return term.Safe(s)
	}
	out := &parseRun{Totals: map[string]*familyTotals{}}
	err = reg.ParsePaths(ctx, paths, func(path string, p parsers.Parser, res *parsers.Result, err error) error {
		if err != nil {
			out.Failed++
			fmt.Fprintf(env.Stderr, "convsearch: %s\n", clean(err.Error()))
			return nil
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(env.Stderr, "convsearch: warning: %s\n", clean(fmt.Sprint(w)))
		}
		t := out.Totals[p.Info().Name]
		if t == nil {
			t = &familyTotals{}
			out.Totals[p.Info().Name] = t
		}
		t.Files++
		t.Conversations += len(res.Conversations)
		for _, c := range res.Conversations {
			t.Messages += len(c.Messages)
			if red != nil {
				red.Conversation(c)
			}
		}
		return fn(path, p, res)
	})
	return out, err
}

func printTotals(env *Env, run *parseRun) {
	names := make([]string, 0, len(run.Totals))
	for n := range run.Totals {
		names = append(names, n)
	}
	sort.Strings(names)
	var files, convs, msgs int
	parts := make([]string, 0, len(names))
	for _, n := range names {
		t := run.Totals[n]
		files += t.Files
		convs += t.Conversations
		msgs += t.Messages
		parts = append(parts, fmt.Sprintf("%s: %d files, %d conversations, %d messages", n, t.Files, t.Conversations, t.Messages))
	}
	fmt.Fprintf(env.Stderr, "parsed %d files: %d conversations, %d messages", files, convs, msgs)
	if run.Failed > 0 {
		fmt.Fprintf(env.Stderr, "; %d failed", run.Failed)
	}
	fmt.Fprintln(env.Stderr)
	for _, p := range parts {
		fmt.Fprintf(env.Stderr, "  %s\n", p)
	}
}

func runParse(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "parse")
	asJSON := fs.Bool("json", false, "print the conversations in the canonical model as a JSON array")
	asJSONL := fs.Bool("jsonl", false, "print one conversation per line as JSON")
	quiet := fs.BoolP("quiet", "q", false, "do not print the per-family totals on stderr")
	if err := parseFlags(env, fs, "parse", args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("parse: give at least one file or folder")
	}
	if *asJSON && *asJSONL {
		return usagef("parse: --json and --jsonl exclude each other")
	}
	reg := all.Registry()
	var tw *tabwriter.Writer
	first := true
	switch {
	case *asJSON:
		fmt.Fprint(env.Stdout, "[")
	case *asJSONL:
	default:
		tw = tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSOURCE\tDATE\tMESSAGES\tTITLE")
	}
	run, err := parsePaths(ctx, env, reg, fs.Args(), func(path string, p parsers.Parser, res *parsers.Result) error {
		for _, c := range res.Conversations {
			switch {
			case *asJSON, *asJSONL:
				b, err := json.Marshal(c)
				if err != nil {
					return fmt.Errorf("encode %s: %w", c.ID, err)
				}
				if *asJSON && !first {
					fmt.Fprint(env.Stdout, ",")
				}
				if *asJSON {
					fmt.Fprint(env.Stdout, "\n")
				}
				first = false
				env.Stdout.Write(b)
				if *asJSONL {
					fmt.Fprintln(env.Stdout)
				}
			default:
				// The id and title come from the file: untrusted.
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", term.Safe(c.ID), c.Source, shortDate(c.Date), len(c.Messages), term.Safe(conversation.OneLine(c.Title, 70)))
			}
		}
		return nil
	})
	switch {
	case *asJSON:
		fmt.Fprintln(env.Stdout, "\n]")
	case tw != nil:
		tw.Flush()
	}
	if err != nil {
		return err
	}
	if !*quiet {
		printTotals(env, run)
	}
	if run.Failed > 0 {
		return errReported
	}
	return nil
}

func shortDate(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02")
}
