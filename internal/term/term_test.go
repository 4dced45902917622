package term

import (
	"strings"
	"testing"
	"time"
)

// TestStatus: the line is redrawn in place and cleared at the end; with
// NO_COLOR or TERM=dumb without any escape sequence.
func TestStatus(t *testing.T) {
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
		s := NewStatus(&out, func(k string) string { return tt.env[k] })
		s.on = true // a strings.Builder is no terminal
		s.Update(func() string { return "12345 files · 99999 messages" })
		s.Update(func() string { t.Errorf("%s: redrawn within 100 ms", tt.name); return "" })
		s.last = time.Time{}
		s.Update(func() string { return "7 files" })
		s.Finish()
		s.Update(func() string { t.Errorf("%s: drawn after Finish", tt.name); return "" })
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
			parts := strings.Split(got, "\r")
			if len(parts) != 5 || len([]rune(parts[2])) != len([]rune(parts[1])) || strings.TrimSpace(parts[3]) != "" || parts[4] != "" {
				t.Errorf("%s: lines not overwritten in full: %q", tt.name, got)
			}
		}
	}
}

func TestStatusSilentOffTerminal(t *testing.T) {
	var out strings.Builder
	s := NewStatus(&out, func(string) string { return "" })
	s.Update(func() string { return "x" })
	s.Finish()
	if out.Len() != 0 {
		t.Errorf("wrote %q to a non-terminal", out.String())
	}
}

func TestHumanBytesAndShellQuote(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 30: "5.0 GiB"} {
		if got := HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
	for s, want := range map[string]string{"20250101-abcd1234": "20250101-abcd1234", "a b": "'a b'", "it's": `'it'\''s'`, "": "''", "$(x)": "'$(x)'", "~root/x": "'~root/x'", "/nix/store/a-cs-1.2+3/bin/cs": "/nix/store/a-cs-1.2+3/bin/cs", "user@host:50%": "user@host:50%"} {
		if got := ShellQuote(s); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestCounts(t *testing.T) {
	for _, tc := range []struct {
		m    map[string]uint64
		want string
	}{
		{nil, "none"},
		{map[string]uint64{"a": 1}, "a 1"},
		{map[string]uint64{"b": 2, "a": 2, "c": 9}, "c 9, a 2, b 2"},
	} {
		if got := Counts(tc.m); got != tc.want {
			t.Errorf("Counts(%v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

// TestSafe: control characters in untrusted text are made visible; text,
// newlines and tabs are kept.
func TestSafe(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain text, «marked» — ünïcode ✓", "plain text, «marked» — ünïcode ✓"},
		{"a\nb\tc", "a\nb\tc"},
		{"\x1b[31mRED\x1b[0m", "^[[31mRED^[[0m"},
		{"\x1b]0;pwned-title\x07", "^[]0;pwned-title^G"},
		{"\x1b]52;c;ZWNobyBoaQ==\x07", "^[]52;c;ZWNobyBoaQ==^G"},
		{"\x1b]8;;http://evil/\x1b\\link", "^[]8;;http://evil/^[\\link"},
		{"over\rwrite", "over^Mwrite"},
		{"del\x7f nul\x00", "del^? nul^@"},
		{"\u009b31m csi, \u0085 nel", "M-^[31m csi, M-^E nel"},
		{"raw \x9b31m byte", "raw \uFFFD31m byte"},
		{"\u00a0nbsp kept", "\u00a0nbsp kept"},
		{"access \u202eevil\u202c level", "access <U+202E>evil<U+202C> level"},
		{"isolate \u2066x\u2069", "isolate <U+2066>x<U+2069>"},
		{"arrows \u2190\u2192 kept", "arrows \u2190\u2192 kept"},
	} {
		if got := Safe(tt.in); got != tt.want {
			t.Errorf("Safe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
