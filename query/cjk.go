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
// the terms of a CJK run, each next to the one before in text and
// position, are one word, and so are the parts of a word joined by
// punctuation (127.0.0.1, os.path.exists, src/components/Button.tsx): one
// thing pasted, its parts next to each other, as a keyword search takes
// them (see joiner). Counted a word a part, one address was a question of
// four words that found any message with a 0 or a 1 in it. A hyphen joins
// words of prose ("self-care", "e-mail"), each its own as ever, and a part
// a stop word left out ("state-of-the-art") breaks the word there.
func queryWords(an analysis.Analyzer, text string) []word {
	var out []word
	var prev *analysis.Token
	for _, t := range an.Analyze([]byte(text)) {
		if prev != nil && prev.Position+1 == t.Position && (prev.End < t.Start && joiner(text[prev.End:t.Start]) || isCJK(prev) && isCJK(t) && prev.End == t.Start) {
			out[len(out)-1] = append(out[len(out)-1], string(t.Term))
		} else {
			out = append(out, word{string(t.Term)})
		}
		prev = t
	}
	return out
}

// joiner reports whether sep, the text between two parts of a word, joins
// them into one thing pasted: dots, slashes, underscores, colons and at
// signs (an address, a path, a dotted name, an identifier, an email), not
// a hyphen of prose or the punctuation of CJK text (日本語、テスト).
func joiner(sep string) bool {
	return sep != "" && strings.Trim(sep, joiners) == ""
}

// joiners are the characters that join the parts of one thing pasted.
const joiners = `./\_:@`

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
