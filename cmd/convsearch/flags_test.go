package main

import (
	"strings"
	"testing"

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
