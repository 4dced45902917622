package query

import (
	"slices"
	"testing"
)

func TestOneEdit(t *testing.T) {
	got := oneEdit("ab")
	for _, w := range []string{"a", "b", "ba", "xab", "axb", "abx", "xb", "ax"} {
		if !slices.Contains(got, w) {
			t.Errorf("oneEdit(ab) lacks %q", w)
		}
	}
	if slices.Contains(got, "ab") {
		t.Error("oneEdit(ab) holds ab itself")
	}
	// 2 deletions, 1 swap, 3×26 insertions, 2×25 replacements, less the
	// ones made twice (aab, abb by insertion).
	if n := len(got); n != 2+1+78+50-2 {
		t.Errorf("oneEdit(ab): %d words", n)
	}
	for _, w := range []string{"", "Ab", "a-b", "naïve", "abcdefghijklmnopqrstuvwxy"} {
		if got := oneEdit(w); got != nil {
			t.Errorf("oneEdit(%q) = %d words, want none", w, len(got))
		}
	}
}
