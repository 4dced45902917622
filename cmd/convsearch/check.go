package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/internal/term"
)

func runCheck(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "check")
	var sf storeFlags
	sf.register(fs, false)
	quick := fs.Bool("quick", false, "check only the metadata and the segments' sizes and footers (the check every open does), not their CRCs")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parseFlags(env, fs, "check", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("check takes no arguments")
	}
	dir, err := sf.dataDir(env)
	if err != nil {
		return err
	}
	return checkIndex(ctx, env, dir, !*quick, *asJSON)
}

// checkIndex verifies the index in dir, prints the report, and returns the
// damage it found as an error (exit 1) that names the fix.
func checkIndex(ctx context.Context, env *Env, dir string, full, asJSON bool) error {
	r, err := indexer.Verify(ctx, dir, full)
	if errors.Is(err, indexer.ErrLocked) {
		return fmt.Errorf("%w: a writer (`convsearch serve`, `watch` or `index`) holds it; stop it to check the index", err)
	}
	if err != nil {
		return err
	}
	if asJSON {
		if err := writeJSON(env.Stdout, r); err != nil {
			return err
		}
		return r.Err()
	}
	w := env.Stdout
	what := "sizes and footers"
	if r.CRC {
		what = "sizes, footers and CRCs"
	}
	fmt.Fprintf(w, "index:    %s\n", r.Index)
	fmt.Fprintf(w, "segments: %d (%s), %s checked\n", r.Segments, term.HumanBytes(r.Bytes), what)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "damaged:  %s: %s\n", p.File, p.Problem)
	}
	if r.OK() {
		fmt.Fprintln(w, "ok")
	}
	return r.Err()
}
