// Package concepts gives the broader words of an English noun, from
// WordNet: "goulash" is a stew and a dish, "Lisbon" a capital and a city,
// "physiotherapy" a therapy. The index files them beside a message's own
// words, so that a question asked in the broader words ("which dish did
// she learn", "what therapy is he doing") finds the message that names
// the thing.
package concepts

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/convsearch/convsearch/indexer/internal/wordtab"
)

//go:generate go run ./wngen -o concepts.txt -irregular ../irregular/irregular.txt

// table is "noun<TAB>concept words" lines written by wngen; the concept
// words are already stemmed as indexer.AnalyzerName stems.
//
//go:embed concepts.txt
var table string

// Table looks up nouns' concept words. Its zero value is not usable: get
// one from Load.
type Table struct {
	words *wordtab.Table
}

// Load returns the table, parsed on first use (some 55,000 nouns) and only
// read afterwards, so it is safe for concurrent use.
var Load = sync.OnceValue(func() *Table {
	return &Table{words: wordtab.New(table, 56000)}
})

// Of returns the concept words of a lower-case word, nearest first and
// separated by single spaces, or "" when it is no known noun. A regular
// plural is looked up as its singular. It takes the analyser's bytes and
// allocates nothing: it runs for every word the index files.
func (t *Table) Of(word []byte) string {
	if w := t.words.Get(word); w != "" {
		return w // wngen writes no noun without concept words
	}
	n := len(word)
	if n < 4 || word[n-1] != 's' || word[n-2] == 's' {
		return ""
	}
	switch {
	case bytes.HasSuffix(word, []byte("ies")):
		var buf [64]byte
		if n-2 <= len(buf) {
			if w := t.words.Get(append(append(buf[:0], word[:n-3]...), 'y')); w != "" {
				return w
			}
		}
	case bytes.HasSuffix(word, []byte("es")):
		if w := t.words.Get(word[:n-2]); w != "" {
			return w
		}
	}
	return t.words.Get(word[:n-1])
}
