package loose

import (
	"strings"
	"unicode/utf8"
)

// Title derives a title from a message's text, for formats that have none:
// the first paragraph (up to the first empty line) with its white space
// collapsed to single spaces, kept whole when it has at most n runes, and
// otherwise cut after at most n runes, at the last space when that is past
// the middle, with trailing punctuation dropped and "…" appended. An n below
// 1 gives "".
func Title(text string, n int) string {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if i := strings.Index(text, "\n\n"); i > 0 {
		text = text[:i]
	}
	return cutWords(strings.Join(strings.Fields(text), " "), n)
}

// Shorten puts s on one line and cuts it to at most n runes, at a word
// boundary when there is one in the second half, ending it with "…" when
// anything was cut. Every family's derived titles go through it.
func Shorten(s string, n int) string {
	return cutWords(strings.Join(strings.Fields(s), " "), n)
}

// cutWords cuts s, already on one line, as Shorten says.
func cutWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	t := s[:cut]
	if i := strings.LastIndexByte(t, ' '); i > len(t)/2 {
		t = t[:i]
	}
	return strings.TrimRight(t, " ,.;:-") + "…"
}
