package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFirstDiff(t *testing.T) {
	tests := []struct{ got, want, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nx\n", "a\nb\n", "line 2"},
		{"a\nb\nc", "a\nb", "line 3"},
		{"", "a", "line 1"},
	}
	for _, tt := range tests {
		d := FirstDiff(tt.got, tt.want)
		if (tt.diff == "") != (d == "") || !strings.HasPrefix(d, tt.diff) {
			t.Errorf("FirstDiff(%q, %q) = %q, want it to start %q", tt.got, tt.want, d, tt.diff)
		}
	}
}

// TestCheck runs Check against a file that matches and one that does not,
// through a recording testing.TB.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		got  string
		fail bool
	}{{"one\ntwo\n", false}, {"one\nthree\n", true}} {
		r := &recorder{TB: t}
		Check(r, path, []byte(tc.got))
		if r.failed != tc.fail {
			t.Errorf("Check(%q): failed %v, want %v", tc.got, r.failed, tc.fail)
		}
	}
}

type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}
