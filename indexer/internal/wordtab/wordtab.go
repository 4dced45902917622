// Package wordtab reads the word tables that wngen writes from WordNet:
// "word<TAB>value" lines under a "#" header.
package wordtab

import "strings"

// Parse returns the table's words and values; hint is about how many lines
// it has.
func Parse(table string, hint int) map[string]string {
	m := make(map[string]string, hint)
	for line := range strings.SplitSeq(table, "\n") {
		word, value, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(word, "#") {
			continue
		}
		m[word] = value
	}
	return m
}
