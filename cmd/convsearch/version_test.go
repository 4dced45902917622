package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// version is a command like the others: listed in the help, --json prints
// JSON, and an argument it does not take is a usage error.
func TestVersion(t *testing.T) {
	home := t.TempDir()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if r := cs(t, home, args...); r.code != 0 || r.stdout != "convsearch "+version+"\n" {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
	r := cs(t, home, "version", "--json")
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); r.code != 0 || err != nil || v["version"] != version || v["go"] != runtime.Version() {
		t.Errorf("version --json: exit %d, %v, stdout %q", r.code, err, r.stdout)
	}
	for _, args := range [][]string{{"version", "extra"}, {"version", "--nosuchflag"}} {
		if r := cs(t, home, args...); r.code != 2 || r.stderr == "" {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
	}
	if r := cs(t, home, "help"); !strings.Contains(r.stdout, "\n  version ") {
		t.Errorf("help does not list version:\n%s", r.stdout)
	}
}
