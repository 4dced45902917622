package main

import (
	"context"
	"os"

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
	misses := fs.Bool("misses", false, "list the questions not answered at rank 1")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if err := parseFlags(env, fs, "bench recall", args); err != nil {
		return err
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
	if *questions != "" {
		qs, err := bench.ReadQuestions(*questions)
		if err != nil {
			return err
		}
		sets = []bench.RecallSet{{Name: "custom", Roots: *roots, Questions: qs}}
	} else {
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
