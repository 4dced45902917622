package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// pflag reads a back-quoted word in a flag's usage as the name of its
// value: on a boolean, --help would show a value it does not take
// ("--verify convsearch check").
func TestBoolFlagUsageHasNoValueName(t *testing.T) {
	var sets []*pflag.FlagSet
	flagSetMade = func(fs *pflag.FlagSet) { sets = append(sets, fs) }
	defer func() { flagSetMade = nil }()
	home := t.TempDir()
	var names []string
	for _, c := range append(commands(), subcommands()...) {
		names = append(names, c.name)
	}
	for _, name := range names {
		n := len(sets)
		r := cs(t, home, append(strings.Fields(name), "--help")...)
		if r.code != 0 {
			t.Errorf("%s --help: exit %d: %s", name, r.code, r.stderr)
		}
		if len(sets) == n {
			t.Errorf("%s --help made no flag set", name)
		}
	}
	for _, fs := range sets {
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "bool" {
				return
			}
			if v, _ := pflag.UnquoteUsage(f); v != "" {
				t.Errorf("%s --%s: a boolean, but its usage names a value %q (back-quotes in %q)", fs.Name(), f.Name, v, f.Usage)
			}
		})
	}
}

// index, serve and watch take the arguments after their flags as roots,
// which must exist: a word that does not is a usage error naming it (and
// the flag it is when it is one without its dashes), not a walk that
// fails or a daemon that waits for a folder of that name.
func TestPositionalRoots(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "d")
	r := cs(t, home, "index", "--no-default-roots", "--data-dir", data, "--json", filepath.Join(examples, "codex"))
	if r.code != 0 || !strings.Contains(r.stdout, `"files_parsed": `) || strings.Contains(r.stdout, `"files_parsed": 0`) {
		t.Fatalf("index DIR: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"index", "--no-default-roots", "--data-dir", data, "rebuild"}, "did you mean --rebuild?"},
		{[]string{"index", "--no-default-roots", "--data-dir", data, "--json", "verify"}, "did you mean --verify?"},
		{[]string{"index", "--no-default-roots", "--data-dir", data, "no-such-folder"}, `"no-such-folder"`},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--no-default-roots", "--data-dir", data, "extra"}, "--root extra"},
		{[]string{"watch", "--no-default-roots", "--data-dir", data, filepath.Join(examples, "codex"), "extra"}, "--root extra"},
	} {
		// The real binary: a serve or watch that took the word would not stop.
		r := runBinary(t, home, 20*time.Second, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q on stderr:\n%s%s", tc.args, r.code, tc.want, r.stdout, r.stderr)
		}
	}
}
