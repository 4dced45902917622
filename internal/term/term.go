// Package term holds what the command line needs of a terminal: whether a
// stream is one, whether to colour it (NO_COLOR, TERM=dumb), ANSI styles,
// a status line redrawn in place, and small formatting helpers.
package term

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Plain reports whether escape sequences are unwelcome: NO_COLOR set
// (https://no-color.org) or TERM=dumb.
func Plain(getenv func(string) string) bool {
	return getenv("NO_COLOR") != "" || getenv("TERM") == "dumb"
}

// Color reports whether to colour output to w: a terminal, and not Plain.
func Color(getenv func(string) string, w io.Writer) bool {
	return IsTerminal(w) && !Plain(getenv)
}

// Style colours terminal output; its zero value prints plain text.
type Style struct{ On bool }

// Wrap wraps text in the SGR code when the style is on.
func (s Style) Wrap(code, text string) string {
	if !s.On {
		return text
	}
	return "\033[" + code + "m" + text + "\033[0m"
}

func (s Style) Bold(t string) string { return s.Wrap("1", t) }
func (s Style) Dim(t string) string  { return s.Wrap("2", t) }

// Status is a one-line display redrawn in place on a terminal, at most
// ten times a second; elsewhere it stays silent. When Plain it writes no
// escape sequence at all: the line is overwritten with carriage returns
// and spaces.
type Status struct {
	w     io.Writer
	on    bool
	plain bool
	mu    sync.Mutex
	last  time.Time
	width int // of the line drawn, in runes; 0: none
}

// NewStatus returns a status line on w, drawn only if w is a terminal.
func NewStatus(w io.Writer, getenv func(string) string) *Status {
	return &Status{w: w, on: IsTerminal(w), plain: Plain(getenv)}
}

// Update redraws the line with line() unless it was drawn less than 100 ms
// ago (line is not called then).
func (s *Status) Update(line func() string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.on || time.Since(s.last) < 100*time.Millisecond {
		return
	}
	s.last = time.Now()
	s.draw(line())
}

// Finish clears the line; later updates draw nothing.
func (s *Status) Finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.width > 0 {
		s.draw("")
	}
	s.on = false
}

// draw replaces the line on screen with line ("" clears it).
func (s *Status) draw(line string) {
	n := utf8.RuneCountInString(line)
	if !s.plain {
		fmt.Fprint(s.w, "\r\033[K"+line)
	} else {
		end := ""
		if line == "" {
			end = "\r"
		}
		fmt.Fprint(s.w, "\r"+line+strings.Repeat(" ", max(s.width-n, 0))+end)
	}
	s.width = n
}

// HumanBytes writes n bytes as 512 B, 1.5 KiB, 2.0 GiB.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// ShellQuote quotes s for a POSIX shell when it needs quoting, so a
// command printed for the user can be pasted back, or one written in an
// agent's hook runs as meant. A leading ~ would be expanded: it is quoted.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Counts writes counts by name as "a 3, b 2", largest first, or "none".
func Counts(m map[string]uint64) string {
	if len(m) == 0 {
		return "none"
	}
	type kv struct {
		k string
		v uint64
	}
	var list []kv
	for k, v := range m {
		list = append(list, kv{k, v})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].v != list[j].v {
			return list[i].v > list[j].v
		}
		return list[i].k < list[j].k
	})
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = fmt.Sprintf("%s %d", e.k, e.v)
	}
	return strings.Join(parts, ", ")
}

// bidiControl reports the embedding, override and isolate controls of
// Unicode's bidirectional algorithm (U+202A–U+202E, U+2066–U+2069): they
// reorder what follows on the line, so text can read otherwise than it is
// ("Trojan Source").
func bidiControl(r rune) bool { return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 }

// Safe makes the control characters in untrusted text (conversations are
// written by others: web pages, tool output, pasted logs) visible, so that
// printing it cannot move the cursor, clear the screen, set the window
// title or write the clipboard (OSC 52). C0 controls and DEL become caret
// notation (ESC is ^[, CR ^M), C1 controls cat -v's M-^ form (CSI 0x9b is
// M-^[) and invalid UTF-8 U+FFFD, since some terminals read a lone 0x9b
// byte as CSI; bidi controls are named (<U+202E>). Newlines and tabs are
// kept: they only lay text out.
func Safe(s string) string {
	if safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 0x40)
		case r == 0x7f:
			b.WriteString("^?")
		case r >= 0x80 && r < 0xa0:
			b.WriteString("M-^")
			b.WriteByte(byte(r-0x80) + 0x40)
		case bidiControl(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// safe reports whether s can be printed as it is.
func safe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			// C1 controls are encoded as 0xc2 0x80–0x9f; anything else
			// is checked rune by rune only when it is not valid UTF-8.
			if c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0 {
				return false
			}
			if c == 0xe2 && i+2 < len(s) && (s[i+1] == 0x80 && s[i+2] >= 0xaa && s[i+2] <= 0xae || s[i+1] == 0x81 && s[i+2] >= 0xa6 && s[i+2] <= 0xa9) {
				return false // a bidi control
			}
		}
	}
	return utf8.ValidString(s)
}
