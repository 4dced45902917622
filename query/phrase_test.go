package query

import (
	"strings"
	"testing"

	"github.com/convsearch/convsearch/indexer"
)

// TestExactPhraseAt checks the word-for-word check of a phrase whose stop
// words the index dropped, deep inside long text, where only a window around
// the match is read.
func TestExactPhraseAt(t *testing.T) {
	e := analyzersOnly(t)
	an, verbatim := e.analyzer, e.verbatim
	filler := strings.Repeat("lorem ipsum dolor ", 400)
	tests := []struct {
		phrase, text string
		want         bool
	}{
		{"out of memory", filler + "the worker ran out of memory at noon", true},
		{"out of memory", filler + "the worker ran out of the memory at noon", false},
		{"out of memory", filler + "memory ran out of", false},
		{"Out Of Memories", filler + "it ran OUT of memory", true},           // case and stem as the index has them
		{"out of memory", "out\n\n   of    memory " + filler, true},          // spacing is not a word
		{"is it the cache", filler + "so is it the cache or the disk", true}, // stop words on both sides
		{"is it the cache", filler + "so is it a cache or the disk", false},
		{"the codebook.pdf", filler + "attach the codebook.pdf here", true}, // file names split at the dot
		{"memory leak", filler + "a memory leak", true},                     // not a stop-word phrase: never wrapped
		{"the key", strings.Repeat("x", 600) + " the key", true},            // a long word before the window
		{"the key", strings.Repeat("x", 600) + "the key", false},            // the same word, glued on
		{"key of the", "key of" + strings.Repeat(" ", 300) + "the end", true},
		{"key of the", "key of" + strings.Repeat(" ", 300) + strings.Repeat("y", 600), false},
		{"memory of the", filler + "ran out of memory", false}, // the text ends before the phrase does
		{"the cache", "the cache " + filler, true},             // the text starts where the phrase does
		{"is the cache", "the cache " + filler, false},
	}
	for _, tt := range tests {
		t.Run(tt.phrase, func(t *testing.T) {
			p, ok := splitPhrase(an.Analyze([]byte(tt.phrase)), verbatim.Analyze([]byte(tt.phrase)), len(tt.phrase))
			if !ok {
				if tt.phrase != "memory leak" {
					t.Fatalf("splitPhrase(%q) found no stop word to check", tt.phrase)
				}
				return
			}
			q := &exactPhrase{field: indexer.FieldContent, words: p, verbatim: verbatim}
			got := false
			for _, tok := range an.Analyze([]byte(tt.text)) {
				if string(tok.Term) != p.first {
					continue
				}
				ok, stops := q.at([]byte(tt.text), tok.Start)
				if !ok {
					continue
				}
				got = true
				for _, w := range stops {
					// Highlighted: the bytes must be that word of the phrase.
					if found, want := strings.ToLower(tt.text[w.start:w.end]), strings.ToLower(strings.Fields(tt.phrase)[w.k]); found != want {
						t.Errorf("stop word %d of %q found as %q", w.k, tt.phrase, found)
					}
				}
			}
			if got != tt.want {
				t.Errorf("phrase %q in …%q = %v, want %v", tt.phrase, tt.text[max(0, len(tt.text)-40):], got, tt.want)
			}
		})
	}
}

// analyzersOnly is the Engine New makes, over no index: for its analyzers.
func analyzersOnly(t *testing.T) *Engine {
	t.Helper()
	e, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.verbatim == nil {
		t.Fatal("no verbatim analyzer: the index analyzer has no stop-word filter to take out")
	}
	return e
}
