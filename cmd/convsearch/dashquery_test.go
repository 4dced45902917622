package main

import (
	"strings"
	"testing"
)

// TestDashQueryHint: a pasted command's flag taken for one of ours is a
// usage error that says how to search for it: after --, quoted, without
// the flags of ours that were given.
func TestDashQueryHint(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "git", "commit", "--no-verify"}, `put it after --: convsearch search -- '"git commit --no-verify"'`},
		{[]string{"search", "--json", "-n", "5", "rm", "-rf", "it's"}, `convsearch search -- '"rm -rf it'\''s"'`},
		{[]string{"search", "-n5", "-Xmx512m"}, `convsearch search -- '"-Xmx512m"'`},
		{[]string{"decisions", "--project", "p", "--force"}, `convsearch decisions -- '"--force"'`},
		// After --, every word is the query's, one named like our flag too.
		{[]string{"search", "--no-verify", "--", "--json", "-n", "5"}, `convsearch search -- '"--no-verify --json -n 5"'`},
	} {
		r := cs(t, home, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("convsearch %q: exit %d, stderr %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if r := cs(t, home, "stats", "--bogus"); strings.Contains(r.stderr, "put it after --") {
		t.Errorf("stats --bogus: %q, a hint about searching", r.stderr)
	}
}
