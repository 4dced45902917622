package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClip checks that clip cuts long text at a space when one is near the
// end, never inside a character, and says how much it left out.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		name, s string
		n       int
		want    string
	}{
		{"short", "héllo", 10, "héllo"},
		{"all", strings.Repeat("é", 20), 0, strings.Repeat("é", 20)},
		{"at a space", "aaaa bbbb", 7, "aaaa … [5 more bytes; --all shows everything]"},
		{"inside a character", strings.Repeat("é", 10), 5, "éé … [16 more bytes; --all shows everything]"},
	} {
		got := clip(tc.s, tc.name == "all", tc.n)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("%s: clip(%q, %d) = %q, want %q", tc.name, tc.s, tc.n, got, tc.want)
		}
	}
}
