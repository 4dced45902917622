package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBenchArgumentsChecked: what bench does not know is a usage
// error that names what they take, not a run that ignores it (a misspelt
// phase measured nothing; an unknown subcommand ran every phase). Each case
// is a quick run of the generation alone should the argument be ignored.
func TestBenchArgumentsChecked(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(t.TempDir(), "bench")
	quick := []string{"--sizes", "100", "--dir", dir, "--phases", "gen"}
	cases := []struct {
		args []string
		want string // in stderr
	}{
		{append([]string{"bench", "bogus"}, quick...), `unknown subcommand "bogus": give index, query, recall, all`},
		{append([]string{"bench"}, append(quick, "extra")...), `unexpected argument "extra"`},
		{append([]string{"bench", "index"}, append(quick, "extra")...), `bench index: unexpected argument "extra"`},
		{[]string{"bench", "--sizes", "100", "--dir", dir, "--phases", "gen,foo"}, `unknown phase "foo": the phases are gen, index, cc,`},
		{[]string{"bench", "query", "--sizes", "100", "--dir", dir, "--phases", "qeury"}, `unknown phase "qeury"`},
		{append([]string{"bench", "all"}, quick...), "leave out --phases"},
		{append([]string{"bench", "--iterations", "0"}, quick...), "--iterations 0: give 1 or more"},
		{append([]string{"bench", "--iterations", "-1"}, quick...), "--iterations -1: give 1 or more"},
	}
	for _, tc := range cases {
		r := cs(t, home, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("convsearch %q: exit %d, stderr %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestBenchSubcommands: `bench index` and `bench query` run their phase
// (query indexes first when there is no index yet), not every phase.
func TestBenchSubcommands(t *testing.T) {
	cases := []struct {
		sub         string
		wantQueries bool
	}{
		{"index", false},
		{"query", true},
	}
	for _, tc := range cases {
		t.Run(tc.sub, func(t *testing.T) {
			home := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, binary, "bench", tc.sub, "--sizes", "500", "--iterations", "2", "--dir", filepath.Join(home, "bench"), "--json")
			cmd.Env = daemonEnv(home)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bench %s: %v\n%s", tc.sub, err, out)
			}
			var rep struct {
				Reports []map[string]json.RawMessage `json:"reports"`
			}
			if err := json.Unmarshal(out, &rep); err != nil || len(rep.Reports) != 1 {
				t.Fatalf("bench %s --json: %v\n%s", tc.sub, err, out)
			}
			r := rep.Reports[0]
			if r["index"] == nil {
				t.Errorf("bench %s: no index figures", tc.sub)
			}
			if got := r["queries"] != nil; got != tc.wantQueries {
				t.Errorf("bench %s: query figures %v, want %v", tc.sub, got, tc.wantQueries)
			}
			for _, other := range []string{"bare_bleve", "watch", "mcp", "process", "index_claude_code", "no_change_reconcile_ms"} {
				if r[other] != nil {
					t.Errorf("bench %s ran another phase: %s", tc.sub, other)
				}
			}
			if tc.wantQueries {
				var qs []struct {
					Class string `json:"class"`
					Hits  uint64 `json:"hits"`
				}
				json.Unmarshal(r["queries"], &qs)
				if len(qs) == 0 || qs[0].Class != "common term" || qs[0].Hits == 0 {
					t.Errorf("bench query: %+v, want hits for the common term", qs)
				}
			}
		})
	}
}
