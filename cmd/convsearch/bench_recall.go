package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/convsearch/convsearch/bench"
)

// runBenchRecall is `convsearch bench recall`: the recall benchmark of
// plain questions (docs/RECALL.md).
func runBenchRecall(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "bench recall")
	repo := fs.String("repo", ".", "the convsearch checkout holding examples/, testdata/corpus and testdata/recall")
	dir := fs.String("dir", "", "work folder for the indexes and the generated corpus (default: a temporary folder, removed after)")
	questions := fs.String("questions", "", "ask this question file (JSON Lines) instead of the project's sets; needs --root")
	roots := fs.StringSlice("root", nil, "with --questions: the folders of conversation files to index")
	locomo := fs.String("locomo", "", "ask the LoCoMo benchmark's questions: the path of its data file, locomo10.json (not bundled: its licence keeps it out)")
	misses := fs.Bool("misses", false, "list the questions not answered at rank 1")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if err := parseFlags(env, fs, "bench recall", args); err != nil {
		return err
	}
	if *locomo != "" && *questions != "" {
		return usagef("bench recall: --locomo and --questions are two different sets; give one")
	}
	if (*questions == "") != (len(*roots) == 0) {
		return usagef("bench recall: --questions and --root go together")
	}
	work := *dir
	if work == "" {
		tmp, err := os.MkdirTemp("", "convsearch-recall-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	var sets []bench.RecallSet
	switch {
	case *locomo != "":
		root := filepath.Join(work, "locomo")
		qs, err := bench.ConvertLoCoMo(*locomo, root)
		if err != nil {
			return err
		}
		sets = []bench.RecallSet{{Name: "locomo", Roots: []string{root}, Questions: qs}}
	case *questions != "":
		qs, err := bench.ReadQuestions(*questions)
		if err != nil {
			return err
		}
		sets = []bench.RecallSet{{Name: "custom", Roots: *roots, Questions: qs}}
	default:
		var err error
		if sets, err = bench.RecallSets(*repo, work); err != nil {
			return err
		}
	}
	figs, err := bench.RunRecall(ctx, sets, bench.RecallOptions{Dir: work, Misses: *misses, Logger: newLogger(env, false)})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, figs)
	}
	bench.WriteRecallText(env.Stdout, figs)
	return nil
}
