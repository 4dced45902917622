// Package golden compares test output with files under testdata/, which
// `go test -update` rewrites: one flag and one comparison for every
// package's golden tests.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is -update: rewrite the golden files instead of comparing.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Updating reports whether this run rewrites the golden files.
func Updating() bool { return *update }

// Check compares got with the file at path; with -update it writes got
// there first (creating its folder).
func Check(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("output differs from %s (run go test -update and review the diff):\n%s", path, FirstDiff(string(got), string(want)))
	}
}

// FirstDiff returns the first line where got and want differ, or "".
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got  %.200q\n want %.200q", i+1, a, b)
		}
	}
	return ""
}
