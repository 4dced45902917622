package loose

import (
	"strings"
	"testing"
)

func TestTitle(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"  Fix the flaky test  ", 80, "Fix the flaky test"},
		{"First paragraph\nstill first.\n\nSecond paragraph.", 80, "First paragraph still first."},
		{"Intro line\r\n\r\nBody", 80, "Intro line"},
		{"\n\n \n  Question here\n\nmore", 80, "Question here"},
		{strings.Repeat("word ", 30), 80, "word word word word word word word word word word word word word word word word…"},
		{strings.Repeat("é", 100), 80, strings.Repeat("é", 80) + "…"},
		{"abcde", 5, "abcde"},
		{"abcdef", 5, "abcde…"},
		{"alpha, beta, gamma, delta", 14, "alpha, beta…"},               // cut at a space, the comma dropped
		{"a bcdefghijklmnop", 10, "a bcdefghi…"},                        // no space past the middle: cut mid-word
		{"tabs\tand   runs of\n spaces", 80, "tabs and runs of spaces"}, // white space collapsed
		{"", 80, ""},
		{" \n\t ", 80, ""},
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		if got := Title(tt.in, tt.n); got != tt.want {
			t.Errorf("Title(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
