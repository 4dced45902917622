package main

import (
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/ingest"
)

// TestProgressBar: the line is redrawn in place and cleared at the end;
// with NO_COLOR or TERM=dumb without any escape sequence.
func TestProgressBar(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		esc  bool
	}{
		{"terminal", map[string]string{"TERM": "xterm"}, true},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1", "TERM": "xterm"}, false},
		{"dumb terminal", map[string]string{"TERM": "dumb"}, false},
	} {
		var out strings.Builder
		b := newProgressBar(&Env{Stderr: &out, Getenv: func(k string) string { return tt.env[k] }})
		b.on = true // a strings.Builder is no terminal
		b.update(ingest.Progress{Seen: 12345, Messages: 99999, Elapsed: time.Second})
		b.last = time.Time{}
		b.update(ingest.Progress{Seen: 7, Elapsed: time.Second})
		b.finish()
		got := out.String()
		if strings.Contains(got, "\033") != tt.esc {
			t.Errorf("%s: escape sequences %v, want %v: %q", tt.name, !tt.esc, tt.esc, got)
		}
		start := "\r"
		if tt.esc {
			start = "\r\033[K"
		}
		if !strings.HasPrefix(got, start+"12345 files") || !strings.Contains(got, start+"7 files") {
			t.Errorf("%s: both lines drawn from the start of the line: %q", tt.name, got)
		}
		if !tt.esc {
			// The shorter second line covers the first, and the end leaves
			// a blank line with the cursor at its start.
			first := strings.Split(got, "\r")[1]
			second := strings.Split(got, "\r")[2]
			if len([]rune(second)) != len([]rune(first)) || !strings.HasSuffix(got, "\r") || strings.TrimSpace(strings.Split(got, "\r")[3]) != "" {
				t.Errorf("%s: lines not overwritten in full: %q", tt.name, got)
			}
		}
	}
}
