// Package wordtab reads the word tables that wngen writes from WordNet:
// "word<TAB>value" lines under a "#" header.
package wordtab

import "strings"

// Table maps words to their values. It is only read once made, so it is
// safe for concurrent use.
type Table struct {
	m map[string]string
}

// New parses a table's text; hint is about how many lines it has.
func New(text string, hint int) *Table {
	m := make(map[string]string, hint)
	for line := range strings.SplitSeq(text, "\n") {
		word, value, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(word, "#") {
			continue
		}
		m[word] = value
	}
	return &Table{m: m}
}

// Get returns the value of word, or "" when the table does not hold it. It
// takes the analyser's bytes and allocates nothing.
func (t *Table) Get(word []byte) string {
	return t.m[string(word)]
}
