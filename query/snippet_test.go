package query

import (
	"strings"
	"testing"
)

// TestSnippet checks snippet against its definition: the words of s joined
// by single spaces, cut to n-1 runes and "…" when longer than n.
func TestSnippet(t *testing.T) {
	want := func(s string, n int) string {
		r := []rune(strings.Join(strings.Fields(s), " "))
		if len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return string(r)
	}
	inputs := []string{
		"", "   ", "one", "  two  words ", "line\nbreaks\tand  tabs",
		"exactly5", "abcde", "abcd e", "abcde f", "ab cd", "ab  cd ef",
		"é à ü ö ß", "日本語のテキスト", strings.Repeat("x", 1000),
		strings.Repeat("word ", 200), "\n\n  leading and trailing  \n",
	}
	for _, s := range inputs {
		for _, n := range []int{1, 2, 4, 5, 6, 10, 240} {
			if got, w := snippet(s, n), want(s, n); got != w {
				t.Errorf("snippet(%q, %d) = %q, want %q", s, n, got, w)
			}
		}
	}
	// Not UTF-8: kept as it is when it fits.
	if got := snippet("a \xff b", 10); got != "a \xff b" {
		t.Errorf("snippet of invalid UTF-8 = %q", got)
	}
}
