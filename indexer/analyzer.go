package indexer

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	unicodetok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/convsearch/convsearch/indexer/internal/concepts"
	"github.com/convsearch/convsearch/indexer/internal/irregular"
	"github.com/convsearch/convsearch/redact"
)

// AnalyzerName is the analyzer of query words: the English analyzer (lower
// case, stop words, stemming) after nameParts, with developers' words kept
// (codeWords: "C++", "C#"), accents folded ("café" is cafe) and irregular
// forms turned into their base before stemming ("ran" is run, "went" go).
const AnalyzerName = "convsearch_en"

// TextAnalyzerName is the analyzer of every text field: AnalyzerName, with
// a camelCase word also its parts and their runs ("UserProfileCard" is
// also user, profile, card, userprofile and profilecard; codeWords). Every
// term AnalyzerName gives a word, it gives too, at the word's last place.
const TextAnalyzerName = "convsearch_en_text"

const namePartsName = "convsearch_name_parts"

// ConceptAnalyzerName is the analyzer of FieldConcepts: a text's nouns
// give their broader words (package concepts), stemmed as AnalyzerName
// stems, and nothing else. A question's analysed words are looked up in
// that field as they are.
const ConceptAnalyzerName = "convsearch_concepts"

// conceptFilter replaces each token by its concept words (concepts.Load,
// parsed when the first text is analysed or a question looks a word up in
// HasConcepts, not when an index is opened), at the token's position and
// offsets. A concept word is filed once a text, at its first place: how
// often a text's nouns share a broader word says little, and the field
// stays small.
type conceptFilter struct{}

func (conceptFilter) Filter(in analysis.TokenStream) analysis.TokenStream {
	table := concepts.Load()
	seen := map[string]bool{}
	// Terms and tokens are carved out of two growing slices, not allocated
	// one by one: a slice handed out keeps its backing array, which later
	// appends never write to.
	var (
		terms []byte
		toks  []analysis.Token
		out   analysis.TokenStream
	)
	for _, t := range in {
		if len(t.Term) < 3 || t.Type != analysis.AlphaNumeric {
			continue
		}
		for rest := table.Of(t.Term); rest != ""; {
			var w string
			w, rest, _ = strings.Cut(rest, " ")
			if seen[w] {
				continue
			}
			seen[w] = true
			// The words are the table's, read-only: copied.
			at := len(terms)
			terms = append(terms, w...)
			toks = append(toks, analysis.Token{
				Term:     terms[at:len(terms):len(terms)],
				Start:    t.Start,
				End:      t.End,
				Position: t.Position,
				Type:     analysis.AlphaNumeric,
			})
			out = append(out, &toks[len(toks)-1])
		}
	}
	return out
}

// baseForms replaces an irregular form by its base (package irregular), in
// place: a question in the present ("what did he buy") then meets a story
// told in the past ("I bought a scooter"). The table's words are read-only,
// so the term is a copy.
type baseForms struct{}

func (baseForms) Filter(in analysis.TokenStream) analysis.TokenStream {
	table := irregular.Load()
	for _, t := range in {
		if b := table.Get(t.Term); b != "" {
			t.Term = []byte(b)
		}
	}
	return in
}

// codeWords is the English analyzer's tokenizer, with what it does not
// know of developers' words.
//
// A letter followed by "++" or "#" ("C++", "C#", "F#", "g++") and "NET"
// after a dot that follows no letter or digit (".NET") are a word of their
// own with their symbols: Unicode word breaking drops the symbols, which
// made C++, C# and C one term. The symbols must end the word ("C#define" is
// not C#); a version may follow ("C++17" is c++ and 17). "ASP.NET" is
// still asp and net (nameParts).
//
// With camel (TextAnalyzerName, the index's), a word in camelCase or
// PascalCase ("UserProfileCard", "getUserById", "HTMLParser") is also its
// parts (camelParts) and every run of them: part j takes place p+j, and
// each run of parts the place of its last part, the longest first. So
// "profile", "ProfileCard", "UserById" and "user profile card" find it,
// and the word typed whole ("getuserbyid" in any case) finds it. Query
// words are analysed without camel (AnalyzerName), so that a query word
// is one term: "getUserById" finds only the conversations that have it,
// and a typo or prefix applies to the whole word. A quoted phrase is
// analysed by the field's analyzer, the index's: its camelCase words are
// their parts with the runs at the same places, as in the index.
//
// With camel too, the words of a redaction marker ("[redacted: password]",
// redact.MarkerPrefix) are left out, their places kept empty: a marker is
// no word of the text, and a phrase does not run across a secret.
type codeWords struct {
	analysis.Tokenizer
	camel bool // split camelCase words, drop markers (TextAnalyzerName)
}

func (c codeWords) Tokenize(in []byte) analysis.TokenStream {
	toks := c.Tokenizer.Tokenize(in)
	if c.camel {
		toks = dropMarkers(in, toks)
	}
	var out analysis.TokenStream // nil until a word is split
	var ends [maxCamelParts]int  // where the parts of a word end (camelParts)
	shift := 0                   // the places paragraph breaks added so far
	for i, t := range toks {
		symbolWord(in, t)
		if i > 0 && paragraphBreak(in[toks[i-1].End:t.Start]) {
			// A blank line between two words: they are not next to each
			// other for a phrase ("react" ending one topic, "native
			// modules" the next, is no "React Native").
			shift += paragraphGap
		}
		t.Position += shift
		var parts []int
		if c.camel {
			parts = camelParts(t.Term, ends[:0])
		}
		if parts == nil {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make(analysis.TokenStream, 0, len(toks)+8), toks[:i]...)
		}
		out = append(out, t)
		out = appendRuns(out, t, parts)
	}
	if out == nil {
		return toks
	}
	return out
}

// dropMarkers returns toks less the tokens of in's redaction markers
// ("[redacted: aws-access-key-id]"), in place. Each marker's end is read
// once; the next marker is looked for from it (no "[" is inside one).
func dropMarkers(in []byte, toks analysis.TokenStream) analysis.TokenStream {
	at := bytes.Index(in, markerPrefix)
	if at < 0 {
		return toks
	}
	end := markerEnd(in, at)
	out := toks[:0]
	for _, t := range toks {
		for at >= 0 && t.Start >= end {
			if next := bytes.Index(in[end:], markerPrefix); next >= 0 {
				at = end + next
				end = markerEnd(in, at)
			} else {
				at = -1
			}
		}
		if at >= 0 && t.Start >= at {
			continue // t.Start < end: inside the marker
		}
		out = append(out, t)
	}
	return out
}

var markerPrefix = []byte(redact.MarkerPrefix)

// noMarkers is a tokenizer less the words of redaction markers: the
// concept analyzer's, so that "[redacted: password]" gives no concepts
// (watchword, secret…) of a word that is no part of the text.
type noMarkers struct{ analysis.Tokenizer }

func (n noMarkers) Tokenize(in []byte) analysis.TokenStream {
	return dropMarkers(in, n.Tokenizer.Tokenize(in))
}

// markerEnd is where the marker at in[at:] ends: after its "]", or after
// its prefix when no rule id and "]" follow.
func markerEnd(in []byte, at int) int {
	end, _ := redact.MarkerEnd(in, at)
	return end
}

// appendRuns appends to out the parts of word t, which end at ends, and
// every run of them but the whole word: the runs ending with each part,
// the longest first, all at the word's own place. The query's analyzer
// leaves a query word whole, so a phrase or a word of joined parts
// ("api.getUserById", "fix getUserById there", "api.getUser*") meets the
// word where the words around it are. Parts typed as a phrase of their
// own ("user profile card") are not at places one after the other: the
// query looks for them at one place (query's camelPhrases).
//
// The runs' tokens and terms are each one allocation: every term has a
// block of its own, capped at its length, as filters write terms in place.
func appendRuns(out analysis.TokenStream, t *analysis.Token, ends []int) analysis.TokenStream {
	start := func(k int) int { // where part k starts
		if k == 0 {
			return 0
		}
		return ends[k-1]
	}
	n, size := -1, -len(t.Term) // less the whole word
	for j, end := range ends {
		for k := 0; k <= j; k++ {
			n++
			size += end - start(k)
		}
	}
	runs := make([]analysis.Token, 0, n)
	terms := make([]byte, 0, size)
	for j, end := range ends {
		for k := 0; k <= j; k++ {
			if k == 0 && j == len(ends)-1 {
				continue // the whole word, t
			}
			at, b := start(k), len(terms)
			terms = append(terms, t.Term[at:end]...)
			runs = append(runs, analysis.Token{
				Term:     terms[b:len(terms):len(terms)],
				Start:    t.Start + at,
				End:      t.Start + end,
				Position: t.Position,
				Type:     t.Type,
			})
			out = append(out, &runs[len(runs)-1])
		}
	}
	return out
}

// paragraphGap is the places left between the words either side of a
// blank line: more than a phrase's slop of 0 needs.
const paragraphGap = 1

// paragraphBreak reports whether gap, the text between two words, holds a
// blank line: a paragraph's end in a message, and between the parts of a
// conversation's own document (its title, each summary, each topic).
func paragraphBreak(gap []byte) bool {
	newline := false // a newline, then only blanks since
	for _, c := range gap {
		switch c {
		case '\n':
			if newline {
				return true
			}
			newline = true
		case ' ', '\t', '\r':
		default:
			newline = false
		}
	}
	return false
}

// symbolWord widens a token to "C++", "C#" or ".NET" (codeWords).
func symbolWord(in []byte, t *analysis.Token) {
	switch n := t.End - t.Start; {
	case n == 1 && alpha(in[t.Start]):
		end := t.End
		switch {
		case strings.HasPrefix(string(in[end:min(end+2, len(in))]), "++"):
			end += 2
		case end < len(in) && in[end] == '#':
			end++
		default:
			return
		}
		if end < len(in) && (alpha(in[end]) || in[end] == '+' || in[end] == '#' || in[end] >= utf8.RuneSelf) {
			return
		}
		t.Term = append([]byte(nil), in[t.Start:end]...)
		t.End = end
	case n == 3 && t.Start > 0 && in[t.Start-1] == '.' && strings.EqualFold(string(in[t.Start:t.End]), "net") &&
		(t.Start == 1 || !wordBefore(in[:t.Start-1])) && (t.End == len(in) || !wordAfter(in[t.End:])):
		t.Start--
		t.Term = append([]byte(nil), in[t.Start:t.End]...)
	}
}

// Bounds of a word split into its parts: longer words and words of more
// parts are most often not names but keys, hashes and encoded data
// ("aGVsbG8gV29ybGQ"), whose parts would only fill the index.
const (
	maxCamelBytes = 48
	maxCamelParts = 6
)

// camelParts returns where the parts of a camelCase or PascalCase word
// end, in bytes, or nil when it is not split: a part starts at a capital
// after a small letter ("getUser"), at the last of a run of capitals that
// goes on in small letters ("HTMLParser" is HTML and Parser), and at a
// capital after a digit that goes on in small letters ("utf8Decode").
// Digits stay with the part before them ("base64Encode"). A word is split
// only when it has a small letter, two to maxCamelParts parts of two
// letters or more ("iPhone" and "getX" are not split, nor most random
// keys). The ends go in ends, given empty with room for maxCamelParts.
func camelParts(w []byte, ends []int) []int {
	if len(w) < 4 || len(w) > maxCamelBytes {
		return nil
	}
	var (
		start, runes     int // the current part's start and length in runes
		prev             rune
		lower, anyChange bool
	)
	for i, r := range string(w) {
		if i > 0 {
			split := unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev) && lowerAfter(w[i:]))
			if unicode.IsUpper(prev) && unicode.IsUpper(r) && lowerAfter(w[i:]) && runes > 1 {
				split = true
			}
			if split {
				if runes < 2 || len(ends) == maxCamelParts-1 {
					return nil
				}
				ends = append(ends, i)
				start, runes = i, 0
				anyChange = true
			}
		}
		if unicode.IsLower(r) {
			lower = true
		} else if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return nil // marks, CJK, symbols: not a camelCase word
		}
		prev = r
		runes++
	}
	if !anyChange || !lower || runes < 2 || start == len(w) {
		return nil
	}
	return append(ends, len(w))
}

// lowerAfter reports a small letter after the first rune of b.
func lowerAfter(b []byte) bool {
	_, n := utf8.DecodeRune(b)
	r, _ := utf8.DecodeRune(b[n:])
	return unicode.IsLower(r)
}

// foldAccents folds a term's accented Latin letters into ASCII ("café" is
// cafe, "Ærø" aero, "straße" strasse), as Lucene's ASCII folding does, so
// that a word typed with or without its accents finds both. Only the term
// changes: offsets still point at the text as written, which the stored
// text and highlights show. Other scripts (CJK, Greek, Cyrillic) are left
// as they are; full-width Latin letters become ASCII.
type foldAccents struct {
	fold *asciifolding.AsciiFoldingFilter
}

func (f foldAccents) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		for _, c := range t.Term {
			if c >= utf8.RuneSelf {
				t.Term = f.fold.Filter(t.Term)
				break
			}
		}
	}
	return in
}

// nameParts turns the dot, underscore or colon between two letters or
// digits into a space, so that "codebook.pdf", "main.go", "retry_policy",
// "user:alice" and "TODO:refactor" are searchable by their words: Unicode
// word breaking keeps them whole (a colon between letters joins them as an
// apostrophe does; between digits, or a letter and a digit, it already
// breaks, as in "localhost:8080" and "10:30"). The text keeps its length,
// so highlight offsets stay right.
type nameParts struct{}

func (nameParts) Filter(in []byte) []byte {
	var out []byte
	for i := 1; i+1 < len(in); i++ {
		if (in[i] == '.' || in[i] == '_' || in[i] == ':') && wordBefore(in[:i]) && wordAfter(in[i+1:]) {
			if out == nil {
				out = append([]byte(nil), in...)
			}
			out[i] = ' '
		}
	}
	if out == nil {
		return in
	}
	return out
}

// wordBefore and wordAfter report a letter or digit at the end or start of
// b; a non-ASCII one ("über:straße", "café.pdf") is decoded.
func wordBefore(b []byte) bool {
	if c := b[len(b)-1]; c < utf8.RuneSelf {
		return alnum(c)
	}
	r, _ := utf8.DecodeLastRune(b)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func wordAfter(b []byte) bool {
	if c := b[0]; c < utf8.RuneSelf {
		return alnum(c)
	}
	r, _ := utf8.DecodeRune(b)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func alpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// english is Bleve's English analyzer with nameParts, codeWords, accents
// folded and irregular forms turned into their base.
func english(name string, camel bool, config map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
	a, err := en.AnalyzerConstructor(config, cache)
	if err != nil {
		return nil, err
	}
	// Bleve's English analyzer ends on its Porter stemmer; should a
	// Bleve upgrade change that, indexing fails here rather than
	// index words without their base forms or names' parts.
	d, ok := a.(*analysis.DefaultAnalyzer)
	n := 0
	if ok {
		n = len(d.TokenFilters)
	}
	if n == 0 {
		return nil, fmt.Errorf("analyzer %s: Bleve's English analyzer is no longer a chain of token filters", name)
	}
	if _, ok := d.TokenFilters[n-1].(*porter.PorterStemmer); !ok {
		return nil, fmt.Errorf("analyzer %s: Bleve's English analyzer no longer ends on the Porter stemmer", name)
	}
	if _, ok := d.TokenFilters[1].(*lowercase.LowerCaseFilter); !ok {
		return nil, fmt.Errorf("analyzer %s: Bleve's English analyzer no longer lower-cases second", name)
	}
	d.CharFilters = append([]analysis.CharFilter{nameParts{}}, d.CharFilters...)
	d.Tokenizer = codeWords{Tokenizer: d.Tokenizer, camel: camel}
	// The base goes in before the stemmer, so "ran" and "running" meet
	// at "run".
	d.TokenFilters = slices.Insert(d.TokenFilters, n-1, analysis.TokenFilter(baseForms{}))
	// Accents go before lower-casing, which then sees the folded letters;
	// after the possessive filter, which knows "’s".
	d.TokenFilters = slices.Insert(d.TokenFilters, 1, analysis.TokenFilter(foldAccents{asciifolding.New()}))
	return d, nil
}

// Bleve finds analyzers by name in its registry, so ours are registered
// once, like Bleve's own.
func init() {
	err := registry.RegisterCharFilter(namePartsName, func(map[string]any, *registry.Cache) (analysis.CharFilter, error) {
		return nameParts{}, nil
	})
	if err != nil {
		panic(err) // a second registration: a programming error
	}
	for name, camel := range map[string]bool{AnalyzerName: false, TextAnalyzerName: true} {
		err = registry.RegisterAnalyzer(name, func(config map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
			return english(name, camel, config, cache)
		})
		if err != nil {
			panic(err)
		}
	}
	err = registry.RegisterAnalyzer(ConceptAnalyzerName, func(config map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
		tok, err := cache.TokenizerNamed(unicodetok.Name)
		if err != nil {
			return nil, err
		}
		var filters []analysis.TokenFilter
		for _, name := range []string{en.PossessiveName, lowercase.Name, en.StopName} {
			f, err := cache.TokenFilterNamed(name)
			if err != nil {
				return nil, err
			}
			filters = append(filters, f)
		}
		return &analysis.DefaultAnalyzer{
			Tokenizer:    noMarkers{tok},
			TokenFilters: append(filters, conceptFilter{}),
		}, nil
	})
	if err != nil {
		panic(err)
	}
}

// HasConcepts reports whether a lower-case word is a noun with concept words
// (a regular plural as its singular): only such a word of a question is
// looked up among the concepts, so "second" in "her second cat" does not
// meet "moment" (whose broader words hold "second").
func HasConcepts(word string) bool { return concepts.Load().Of([]byte(word)) != "" }
