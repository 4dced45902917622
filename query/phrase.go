package query

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// The index leaves stop words out ("out", "of", "the", "is"…): they would
// double its size. Bleve's phrase query for "out of memory" is then the word
// memory alone, and "is it the cache" the word cache. exactPhrase restores
// the phrase: it runs Bleve's phrase query over the words the index has,
// then keeps a document only when its stored text holds the whole phrase,
// stop words included, around a match. Only candidates of the indexed words
// are read, so the check costs in proportion to their matches.

// verbatimAnalyzer returns an's pipeline without its stop-word filter: the
// same tokens, lower-casing and stemming, every word kept. nil when an is
// not a pipeline it can take apart.
func verbatimAnalyzer(an analysis.Analyzer) *analysis.DefaultAnalyzer {
	d, ok := an.(*analysis.DefaultAnalyzer)
	if !ok {
		return nil
	}
	v := *d
	v.TokenFilters = nil
	dropped := false
	for _, f := range d.TokenFilters {
		if _, isStop := f.(*stop.StopTokensFilter); isStop {
			dropped = true
			continue
		}
		v.TokenFilters = append(v.TokenFilters, f)
	}
	if !dropped {
		return nil
	}
	return &v
}

// phraseWords is a phrase analysed twice: as the index has it and word for
// word.
type phraseWords struct {
	all   []string // every word, stop words included, as analysed
	stop  []bool   // whether the index dropped all[i]
	first string   // the first word the index keeps
	lead  int      // its place in all
	size  int      // the phrase's length in bytes
}

// splitPhrase reads a phrase of size bytes analysed both ways, kept as the
// index has it and all word for word; ok is false when the index keeps every
// word (Bleve's phrase query is exact then) or none (nothing to anchor on).
func splitPhrase(kept, all analysis.TokenStream, size int) (phraseWords, bool) {
	if len(kept) == 0 || len(kept) == len(all) {
		return phraseWords{}, false
	}
	indexed := make(map[int]bool, len(kept))
	for _, t := range kept {
		indexed[t.Position] = true
	}
	p := phraseWords{first: string(kept[0].Term), lead: -1, size: size}
	for i, t := range all {
		p.all = append(p.all, string(t.Term))
		p.stop = append(p.stop, !indexed[t.Position])
		if t.Position == kept[0].Position {
			p.lead = i
		}
	}
	return p, p.lead >= 0
}

// matchPhrase matches text as a phrase in field: exactly, stop words
// included, when the index dropped some of its words; and with a run of
// its words written as one camelCase word (camelPhrases).
func (b *builder) matchPhrase(text, field string, boost float64) bq.Query {
	var q bq.Query = newSequence(text, field, boost)
	if b.e.verbatim == nil {
		return q
	}
	// Analysed once for both.
	kept, all := b.e.analyzer.Analyze([]byte(text)), b.e.verbatim.Analyze([]byte(text))
	if p, ok := splitPhrase(kept, all, len(text)); ok {
		q = &exactPhrase{inner: q.(*sequenceQuery), field: field, words: p, verbatim: b.e.verbatim}
	}
	if camel := b.camelPhrases(text, kept, all, field, boost); len(camel) > 0 {
		return disjunction(append([]bq.Query{q}, camel...))
	}
	return q
}

// Bounds of camelPhrases: the words of a phrase, and the words and bytes
// of a run of them, as the index splits camelCase words (indexer's
// maxCamelParts and maxCamelBytes).
const (
	maxCamelPhrase      = 8
	maxCamelPhraseParts = 6
	maxCamelPhraseBytes = 48
)

// camelPhrases matches text with a run of its words standing for one
// camelCase word ("user profile card" for UserProfileCard): the index puts
// a camelCase word's parts and their runs at the word's own place, so the
// parts typed as a phrase of their own are not at places one after the
// other. A run of two to six words, each of two letters or more and
// starting with a letter, two of them words the index keeps, is looked for as the index's term of the words
// run together (userprofilecard, in their order) with each of their terms at
// the same place (user, profil, card: the word was split, not written
// "userprofilecard"; so "data base" does not find database). One run a
// query, the phrase's other words its neighbours; none when a common word
// the index leaves out is outside the run (the stored text would have to
// be read to check it).
func (b *builder) camelPhrases(text string, indexed, all analysis.TokenStream, field string, boost float64) []bq.Query {
	if len(all) < 2 || len(all) > maxCamelPhrase {
		return nil
	}
	kept := map[int]string{} // the index's term of each word it keeps, by place
	for _, t := range indexed {
		if _, twice := kept[t.Position]; twice {
			return nil // a word of two terms
		}
		kept[t.Position] = string(t.Term)
	}
	fit := make([]bool, len(all)) // whether a word can be a part
	lo, hi := len(all), -1        // the first and last common word the index leaves out: a run holds them
	for i, t := range all {
		if t.Position != all[0].Position+i {
			return nil // a word the tokenizer made two or more places
		}
		if _, ok := kept[t.Position]; !ok {
			lo, hi = min(lo, i), i
		}
		w := text[t.Start:t.End]
		fit[i] = utf8.RuneCountInString(w) >= 2 && strings.IndexFunc(w, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) < 0
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsLetter(r) {
			fit[i] = false
		}
	}
	var qs []bq.Query
	for i := 0; i <= lo && i < len(all); i++ {
		for j := i + 2; j <= min(len(all), i+maxCamelPhraseParts) && fit[i] && fit[j-1]; j++ {
			if j <= hi {
				continue
			}
			if q := b.camelPhrase(text, all, kept, i, j, field, boost); q != nil {
				qs = append(qs, q)
			}
		}
	}
	return qs
}

// camelPhrase is camelPhrases' query for the run of words i to j-1, each
// fit to be a part and holding every common word the index leaves out, or
// nil.
func (b *builder) camelPhrase(text string, all analysis.TokenStream, kept map[int]string, i, j int, field string, boost float64) bq.Query {
	var run strings.Builder
	var parts []string
	for k := i; k < j; k++ {
		run.WriteString(strings.ToLower(text[all[k].Start:all[k].End]))
		if term, ok := kept[all[k].Position]; ok {
			parts = append(parts, term)
		}
	}
	if run.Len() > maxCamelPhraseBytes || len(parts) < 2 {
		return nil
	}
	whole := analyze(b.e.analyzer, run.String())
	if len(whole) != 1 {
		return nil
	}
	q := &sequenceQuery{field: field, boost: boost}
	for k := 0; k < len(all); k++ {
		switch {
		case k == i:
			q.terms = append(q.terms, whole)
			q.with = append(q.with, parts)
			k = j - 1
		default:
			q.terms = append(q.terms, []string{kept[all[k].Position]})
			q.with = append(q.with, nil)
		}
	}
	return q
}

// exactPhrase is a Bleve query (it implements bq.Query).
type exactPhrase struct {
	inner    *sequenceQuery
	field    string
	words    phraseWords
	verbatim *analysis.DefaultAnalyzer
}

func (q *exactPhrase) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	return filtered(ctx, q.inner, r, m, opts, func(dm *search.DocumentMatch) bool { return q.holds(r, dm) })
}

// holds says whether a document the inner phrase matched has the whole
// phrase at one of its matches. A document whose text cannot be read is
// kept: the check narrows, it must not lose a hit to an I/O error.
func (q *exactPhrase) holds(r index.IndexReader, dm *search.DocumentMatch) bool {
	var anchors []search.Location
	for _, l := range dm.FieldTermLocations {
		if l.Field == q.field && l.Term == q.words.first {
			anchors = append(anchors, l.Location)
		}
	}
	if len(anchors) == 0 {
		return true
	}
	values, ok := storedValues(r, dm.IndexInternalID, q.field)
	if !ok {
		return true
	}
	var held []search.Location
	var found []search.FieldTermLocation
	for _, a := range anchors {
		text, ok := valueText(values, a.ArrayPositions)
		if !ok {
			return true
		}
		ok, stops := q.at(text, int(a.Start))
		if !ok {
			continue
		}
		held = append(held, a)
		// The dropped words are part of the match: highlighted with it.
		for _, w := range stops {
			found = append(found, search.FieldTermLocation{
				Field: q.field,
				Term:  q.words.all[w.k],
				Location: search.Location{
					Pos:            uint64(int(a.Pos) + w.k - q.words.lead),
					Start:          uint64(w.start),
					End:            uint64(w.end),
					ArrayPositions: slices.Clone(a.ArrayPositions), // a match's positions are recycled
				},
			})
		}
	}
	if len(held) == 0 {
		return false
	}
	// Only the matches that hold are highlighted, not every match of the
	// indexed words: a location is kept when a held match starts at most
	// span-1 places before it, in its value. Looked up by place, not
	// compared with every held match: a long message has thousands.
	span := uint64(len(q.words.all) - q.words.lead)
	starts := make(map[place]bool, len(held))
	for _, h := range held {
		starts[place{ap: apKey(h.ArrayPositions), pos: h.Pos}] = true
	}
	locs := dm.FieldTermLocations[:0]
	for _, l := range dm.FieldTermLocations {
		in := l.Field != q.field
		ap := apKey(l.Location.ArrayPositions)
		for d := uint64(0); !in && d < span && d <= l.Location.Pos; d++ {
			in = starts[place{ap: ap, pos: l.Location.Pos - d}]
		}
		if in {
			locs = append(locs, l)
		}
	}
	dm.FieldTermLocations = append(locs, found...)
	return true
}

// value is one stored value of a field. A field of many values (a
// conversation's topics) is stored value by value; a match's offsets are in
// the value its array positions name.
type value struct {
	ap   search.ArrayPositions
	text []byte
}

// valueText returns the text of the value of values that ap names; ok is
// false when there is none.
func valueText(values []value, ap search.ArrayPositions) (text []byte, ok bool) {
	i := slices.IndexFunc(values, func(v value) bool { return v.ap.Equals(ap) })
	if i < 0 {
		return nil, false
	}
	return values[i].text, true
}

// segmented is Bleve's scorch snapshot, which reads a document's stored
// fields by its number: Document(id) would first look the id up in the
// _id field, which was half the cost of checking a candidate.
type segmented interface {
	Segments() []*scorch.SegmentSnapshot
}

// storedValues returns the stored values of field in the document r numbers
// id; ok is false when they cannot be read.
func storedValues(r index.IndexReader, id index.IndexInternalID, field string) (values []value, ok bool) {
	if s, isScorch := r.(segmented); isScorch {
		num := id.Value()
		for _, seg := range s.Segments() {
			n := uint64(seg.FullSize())
			if num >= n {
				num -= n
				continue
			}
			err := seg.VisitDocument(num, func(name string, _ byte, v []byte, pos []uint64) bool {
				if name == field {
					// Bleve's buffers: copied to outlive the visit.
					values = append(values, value{append(search.ArrayPositions(nil), pos...), append([]byte(nil), v...)})
				}
				return true
			})
			return values, err == nil
		}
		return nil, false
	}
	ext, err := r.ExternalID(id)
	if err != nil {
		return nil, false
	}
	doc, err := r.Document(ext)
	if err != nil || doc == nil {
		return nil, false
	}
	doc.VisitFields(func(f index.Field) {
		if f.Name() == field {
			values = append(values, value{f.ArrayPositions(), f.Value()})
		}
	})
	return values, true
}

// stopWord is where one of the phrase's dropped words was found.
type stopWord struct{ k, start, end int } // its place in the phrase, its bytes

// at says whether the phrase's words run through text with its first
// indexed word starting at byte a. Bleve's phrase match has put the indexed
// words in place, stop-word gaps counted, so only the dropped words are
// checked, in a window around a (messages can be long) that widens while
// it holds too few words.
func (q *exactPhrase) at(text []byte, a int) (bool, []stopWord) {
	if a < 0 || a >= len(text) {
		return false, nil
	}
	before, after := 12+12*q.words.lead, 12+q.words.size
	for {
		lo, hi := max(0, a-before), min(len(text), a+after)
		// Whole words at the window's edges: a cut word would be another
		// word. Within bounds: a blob without spaces is not read whole for
		// each match; a word cut at an edge is not compared.
		for n := 0; lo > 0 && !isSpace(text[lo-1]) && n < 256; n++ {
			lo--
		}
		for n := 0; hi < len(text) && !isSpace(text[hi]) && n < 256; n++ {
			hi++
		}
		cutLo := lo > 0 && !isSpace(text[lo-1])
		cutHi := hi < len(text) && !isSpace(text[hi])
		holds, shortBefore, shortAfter, stops := q.within(text[lo:hi], a-lo, cutLo, cutHi)
		if !shortBefore && !shortAfter {
			for i := range stops {
				stops[i].start += lo
				stops[i].end += lo
			}
			return holds, stops
		}
		// Too few words on a side that is already the text's edge: no
		// wider window can find them.
		if shortBefore && lo == 0 || shortAfter && hi == len(text) {
			return false, nil
		}
		if shortBefore {
			before *= 2
		}
		if shortAfter {
			after *= 2
		}
	}
}

// within checks the phrase in win, its first indexed word at byte a;
// shortBefore and shortAfter say win has too few whole words on that side
// of a to tell.
func (q *exactPhrase) within(win []byte, a int, cutLo, cutHi bool) (holds, shortBefore, shortAfter bool, stops []stopWord) {
	for _, cf := range q.verbatim.CharFilters {
		win = cf.Filter(win)
	}
	toks := q.verbatim.Tokenizer.Tokenize(win)
	first, end := 0, len(toks)
	if cutLo {
		first++
	}
	if cutHi {
		end--
	}
	for j, t := range toks {
		if t.Start != a {
			continue
		}
		s := j - q.words.lead
		if s < first || s+len(q.words.all) > end {
			return false, s < first, s+len(q.words.all) > end, nil
		}
		for k, w := range q.words.all {
			if !q.words.stop[k] {
				continue
			}
			t := toks[s+k]
			if q.term(t) != w {
				return false, false, false, nil
			}
			stops = append(stops, stopWord{k: k, start: t.Start, end: t.End})
		}
		return true, false, false, stops
	}
	return false, false, false, nil
}

// term is what the verbatim pipeline makes of one token.
func (q *exactPhrase) term(t *analysis.Token) string {
	c := *t
	c.Term = append([]byte(nil), t.Term...) // filters may write in place
	ts := analysis.TokenStream{&c}
	for _, f := range q.verbatim.TokenFilters {
		ts = f.Filter(ts)
	}
	if len(ts) != 1 {
		return ""
	}
	return string(ts[0].Term)
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
