package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/term"
)

// TestNoTerminalEscapes indexes a conversation whose title, project, text
// and decision hold terminal escape sequences (colour, clear screen, OSC 0
// window title, OSC 52 clipboard, OSC 8 link, C1 CSI, carriage return):
// the printed (not JSON) output of the commands that show conversation
// text must hold none of them, only visible stand-ins.
func TestNoTerminalEscapes(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	title := "ansititle \x1b[31mRED\x1b[0m \x1b]0;pwned-title\x07 \x1b]52;c;ZWNobyBoaQ==\x07"
	c := conversationJSON("conv-esc", title,
		"ansibody please \x1b[2J\x1b[H clear and \x1b]8;;http://evil/\x07link\x1b]8;;\x07 and \u009b31m csi\rover",
		"We decided to use \x1b[31m redcolour \x1b[0m because \x1b]0;pwned\x07 it\rlooks good.",
	)
	c = strings.Replace(c, `{"id":`, `{"metadata":{"project":"proj\u001b]0;x\u0007"},"id":`, 1)
	writeConv(t, filepath.Join(root, "esc.json"), c)
	data := filepath.Join(home, "data", "convsearch")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", root); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"search", "ansititle"},
		{"search", "ansibody"},
		{"search", "--all-hits", "-C", "2", "ansibody"},
		{"search", "--type", "decision", "redcolour"},
		{"search", "--facets", "ansibody"},
		{"show", "conv-esc"},
		{"show", "--all", "--message", "1", "conv-esc"},
		{"decisions", "redcolour"},
		{"topics"},
		{"stats"},
	} {
		r := cs(t, home, append([]string{args[0], "--data-dir", data}, args[1:]...)...)
		if r.code != 0 {
			t.Errorf("%v: exit %d\n%s", args, r.code, r.stderr)
			continue
		}
		if args[0] != "topics" && args[0] != "stats" && !strings.Contains(r.stdout, "^[") {
			t.Errorf("%v: the escapes are not shown as ^[:\n%s", args, r.stdout)
		}
		if i := strings.IndexAny(r.stdout, "\x1b\x07\r\u009b"); i >= 0 {
			t.Errorf("%v: stdout holds control character %q at %d:\n%q", args, r.stdout[i], i, r.stdout)
		}
	}
}

// TestMarkSafe: with colour on, the marks are our escape sequences and the
// fragment's own are made visible.
func TestMarkSafe(t *testing.T) {
	for _, tt := range []struct {
		on         bool
		frag, want string
	}{
		{false, "a \x1b]0;t\x07 <mark>b\x1b[2J</mark> c\r", "a ^[]0;t^G «b^[[2J» c^M"},
		{true, "a \x1b]0;t\x07 <mark>b\x1b[2J</mark> c\r", "a ^[]0;t^G \x1b[1;33mb^[[2J\x1b[0m c^M"},
		{true, "x &lt;<mark>y</mark>&gt; \u009b", "x <\x1b[1;33my\x1b[0m> M-^["},
	} {
		if got := (style{term.Style{On: tt.on}}).mark(tt.frag); got != tt.want {
			t.Errorf("mark(%q), on %v = %q, want %q", tt.frag, tt.on, got, tt.want)
		}
	}
}
