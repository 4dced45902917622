package extract

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

// Background is term statistics to score a conversation's phrases against.
// DocFreq returns the number of background documents holding term (a lower
// case word or space-separated phrase, plurals folded as the extractor folds
// them) and the number of documents. It must be safe for concurrent use.
type Background interface {
	DocFreq(term string) (df int, n int)
}

//go:generate go run ./internal/bggen -o background.txt

// backgroundText is the document frequency of words and 2–3 word phrases in
// the comments of the Go distribution's source: technical English. See
// internal/bggen for how it is made.
//
//go:embed background.txt
var backgroundText string

// table is a read-only Background held in memory.
type table struct {
	df map[string]int32
	n  int
	// phrasesHaveWords is set when every word of every phrase the table
	// holds is in it too (true of a model bggen made), so that a phrase with
	// an unknown word need not be looked up.
	phrasesHaveWords bool
}

func (t *table) DocFreq(term string) (int, int) { return int(t.df[term]), t.n }

// lookup is DocFreq for a key held in a byte slice, without allocating.
func (t *table) lookup(term []byte) int { return int(t.df[string(term)]) }

// parseTable reads the "term<TAB>df" lines of a background file; "#n<TAB>N"
// gives the number of documents, other '#' lines are comments.
func parseTable(text string) *table {
	t := &table{df: make(map[string]int32, strings.Count(text, "\n"))}
	for line := range strings.SplitSeq(text, "\n") {
		term, num, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		v, err := strconv.Atoi(num)
		if err != nil || v < 0 {
			continue
		}
		if term == "#n" {
			t.n = v
			continue
		}
		if strings.HasPrefix(term, "#") {
			continue
		}
		t.df[term] = int32(v)
	}
	if t.n == 0 {
		t.n = 1
	}
	t.phrasesHaveWords = true
	for term, v := range t.df {
		if v == 0 || !strings.Contains(term, " ") {
			continue
		}
		for w := range strings.SplitSeq(term, " ") {
			if t.df[w] == 0 {
				t.phrasesHaveWords = false
			}
		}
	}
	return t
}

// defaultTable is parsed on first use and never written afterwards.
var defaultTable = sync.OnceValue(func() *table { return parseTable(backgroundText) })

// DefaultBackground returns the embedded background model: word and phrase
// document frequencies over the comments of the Go distribution's source, a
// body of general technical English (see internal/bggen).
func DefaultBackground() Background { return defaultTable() }
