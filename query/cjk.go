package query

import (
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
)

// The index's analyzer breaks text at Unicode word boundaries, which makes
// a term of every Han and Hiragana character (日本語 is 日, 本, 語), of a
// run of Katakana (データベース) and of a Hangul word (데이터베이스). People
// writing Chinese or Japanese put no spaces between words, so a run of such
// characters typed without a break is one word: its terms next to each
// other, in order. Counted as one word a term, 日本語 made a three-word
// question that found messages holding 日 or 本 alone.

// word is a query word as the index holds it: one term, or the terms of a
// CJK run in order.
type word []string

func (w word) key() string { return strings.Join(w, " ") }

// queryWords analyses text, one word of a query as typed, into its words:
// each term its own ("e-mail" is e and mail, as ever), but the terms of a
// CJK run, each next to the one before in text and position, one word.
func queryWords(an analysis.Analyzer, text string) []word {
	var out []word
	var prev *analysis.Token
	for _, t := range an.Analyze([]byte(text)) {
		if prev != nil && isCJK(prev) && isCJK(t) && prev.End == t.Start && prev.Position+1 == t.Position {
			out[len(out)-1] = append(out[len(out)-1], string(t.Term))
		} else {
			out = append(out, word{string(t.Term)})
		}
		prev = t
	}
	return out
}

// isCJK reports whether a token is Chinese, Japanese or Korean: Bleve types
// Han, kana and their marks (ー, 々) ideographic, and Hangul alphanumeric.
func isCJK(t *analysis.Token) bool {
	if t.Type == analysis.Ideographic {
		return true
	}
	for _, r := range string(t.Term) {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}
