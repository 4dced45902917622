package roots

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNormalize(t *testing.T) {
	dir := t.TempDir()
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	p := func(s string) string { return filepath.Join(dir, s) }
	for _, d := range []string{"a/b/c", "a/node_modules/x", "other"} {
		if err := os.MkdirAll(p(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(p("a/f.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p("a"), p("link")); err != nil {
		t.Fatal(err)
	}
	skip := func(name string) bool { return name == "node_modules" }
	for _, tc := range []struct {
		name  string
		in    []string
		want  []string
		noSkp bool
	}{
		{"one", []string{p("a")}, []string{p("a")}, false},
		{"inner after outer", []string{p("a"), p("a/b")}, []string{p("a")}, false},
		{"inner before outer", []string{p("a/b/c"), p("a")}, []string{p("a")}, false},
		{"trailing slash", []string{p("a") + "/", p("a/b") + "/"}, []string{p("a")}, false},
		{"unclean", []string{p("a/b/../b"), p("a/./")}, []string{p("a")}, false},
		{"same twice", []string{p("a"), p("a")}, []string{p("a")}, false},
		{"a file inside", []string{p("a/f.json"), p("a")}, []string{p("a")}, false},
		{"link and target", []string{p("link"), p("a")}, []string{p("link")}, false},
		{"inside the link's target", []string{p("link"), p("a/b")}, []string{p("link")}, false},
		{"inside through the link", []string{p("a"), p("link/b")}, []string{p("a")}, false},
		{"siblings", []string{p("a/b"), p("other")}, []string{p("a/b"), p("other")}, false},
		{"prefix, not inside", []string{p("a"), p("a2")}, []string{p("a"), p("a2")}, false},
		{"missing inside", []string{p("a"), p("a/gone")}, []string{p("a"), p("a/gone")}, false},
		{"missing twice", []string{p("gone"), p("gone/")}, []string{p("gone")}, false},
		{"under a skipped folder", []string{p("a"), p("a/node_modules/x")}, []string{p("a"), p("a/node_modules/x")}, false},
		{"a skipped folder", []string{p("a"), p("a/node_modules")}, []string{p("a"), p("a/node_modules")}, false},
		{"no skip", []string{p("a"), p("a/node_modules/x")}, []string{p("a")}, true},
	} {
		s := skip
		if tc.noSkp {
			s = nil
		}
		if got := Normalize(tc.in, s); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Normalize(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
