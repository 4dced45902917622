package query

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// Bleve's phrase searcher finds a phrase's places in a document by trying,
// for every place of its first word, every place of the next: the product
// of the two counts. A long message in Chinese or Japanese, where every
// character is a word and a few characters make most of the text, has tens
// of thousands of each, and one phrase took seconds in one document.
// sequenceQuery matches the same documents with the same scores (the
// conjunction of the words, as Bleve's), and finds the places by looking
// each next word up where it must be: in proportion to the words' places.

// sequenceQuery is a phrase of analysed terms in one field, a Bleve query.
type sequenceQuery struct {
	text  string     // analysed when searched, by the field's analyzer
	terms [][]string // or, when text is "", the terms by position from the first; an empty one is any word
	with  [][]string // when text is "", terms that must each stand at the place of terms[k] too (camelPhrases), or nil
	field string
	boost float64
}

// newSequence matches text as a phrase in field, as Bleve's
// MatchPhraseQuery does.
func newSequence(text, field string, boost float64) *sequenceQuery {
	return &sequenceQuery{text: text, field: field, boost: boost}
}

// newTermSequence matches terms, already analysed, next to each other in
// field, as Bleve's PhraseQuery does.
func newTermSequence(terms []string, field string, boost float64) *sequenceQuery {
	q := &sequenceQuery{field: field, boost: boost}
	for _, t := range terms {
		q.terms = append(q.terms, []string{t})
	}
	return q
}

func (q *sequenceQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	terms := q.terms
	if q.text != "" {
		an := m.AnalyzerNamed(m.AnalyzerNameForPath(q.field))
		if an == nil {
			return nil, fmt.Errorf("phrase: no analyzer for field %s", q.field)
		}
		terms = phraseTerms(an.Analyze([]byte(q.text)))
	}
	if len(terms) == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	opts.IncludeTermVectors = true // the places of the words
	var parts []search.Searcher
	closeAll := func() {
		for _, s := range parts {
			_ = s.Close()
		}
	}
	for k, alts := range terms {
		if k < len(q.with) {
			for _, t := range q.with[k] {
				s, err := searcher.NewTermSearcher(ctx, r, t, q.field, q.boost, opts)
				if err != nil {
					closeAll()
					return nil, fmt.Errorf("phrase: %w", err)
				}
				parts = append(parts, s)
			}
		}
		var alt []search.Searcher
		for _, t := range alts {
			if t == "" {
				continue
			}
			s, err := searcher.NewTermSearcher(ctx, r, t, q.field, q.boost, opts)
			if err != nil {
				closeAll()
				for _, s := range alt {
					_ = s.Close()
				}
				return nil, fmt.Errorf("phrase: %w", err)
			}
			alt = append(alt, s)
		}
		switch len(alt) {
		case 0: // a dropped word's place
		case 1:
			parts = append(parts, alt[0])
		default:
			s, err := searcher.NewDisjunctionSearcher(ctx, r, alt, 1, opts)
			if err != nil {
				closeAll()
				return nil, fmt.Errorf("phrase: %w", err)
			}
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	must, err := searcher.NewConjunctionSearcher(ctx, r, parts, opts)
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("phrase: %w", err)
	}
	// The norm Bleve's phrase searcher gives its conjunction: the same
	// scores.
	must.SetQueryNorm(1 / math.Sqrt(must.Weight()))
	return searcher.NewFilteringSearcher(ctx, must, func(_ *search.SearchContext, dm *search.DocumentMatch) bool {
		return keepSequences(dm, q.field, terms, q.with)
	}), nil
}

// phraseTerms is Bleve's reading of an analysed phrase: the terms at each
// position from the first, nil where the analyzer dropped a word.
func phraseTerms(toks analysis.TokenStream) [][]string {
	if len(toks) == 0 {
		return nil
	}
	first, last := toks[0].Position, toks[0].Position
	for _, t := range toks {
		first, last = min(first, t.Position), max(last, t.Position)
	}
	out := make([][]string, last-first+1)
	for _, t := range toks {
		out[t.Position-first] = append(out[t.Position-first], string(t.Term))
	}
	return out
}

// place is where a term is: its term, its value's array positions (as
// bytes) and its position.
type place struct {
	term string
	ap   string
	pos  uint64
}

// apKey is array positions as a map key: "" for a field of one value.
func apKey(ap search.ArrayPositions) string {
	if len(ap) == 0 {
		return ""
	}
	var buf []byte
	for _, p := range ap {
		buf = binary.AppendUvarint(buf, p)
	}
	return string(buf)
}

// keepSequences keeps in dm's term locations only the phrases of terms
// (every word at its place after the first's, within one value of field),
// and says whether there is one. with[k], when there, are terms that must
// stand at the place of terms[k] too; their locations are not kept (the
// term of terms[k] covers them). Each place is looked up once: the cost is
// in proportion to the locations, not to their product.
func keepSequences(dm *search.DocumentMatch, field string, terms, with [][]string) bool {
	locs := dm.FieldTermLocations
	at := make(map[place]int, len(locs))
	for i, l := range locs {
		if l.Field == field {
			at[place{l.Term, apKey(l.Location.ArrayPositions), l.Location.Pos}] = i
		}
	}
	var found []search.FieldTermLocation
	path := make([]int, 0, len(terms))
	for i, l := range locs {
		if l.Field != field || !slices.Contains(terms[0], l.Term) {
			continue
		}
		ap := apKey(l.Location.ArrayPositions)
		if at[place{l.Term, ap, l.Location.Pos}] != i {
			continue // a place twice ("文文" searches 文 twice): one start
		}
		path = path[:0]
		holds := true
		for k, alts := range terms {
			if len(alts) == 0 || len(alts) == 1 && alts[0] == "" {
				continue
			}
			j := -1
			for _, t := range alts {
				if i, ok := at[place{t, ap, l.Location.Pos + uint64(k)}]; ok {
					j = i
					break
				}
			}
			if k < len(with) {
				for _, t := range with[k] {
					if _, ok := at[place{t, ap, l.Location.Pos + uint64(k)}]; !ok {
						j = -1
						break
					}
				}
			}
			if j < 0 {
				holds = false
				break
			}
			path = append(path, j)
		}
		if holds {
			for _, j := range path {
				found = append(found, locs[j])
			}
		}
	}
	if len(found) == 0 {
		return false
	}
	// Other fields' locations go: Bleve's phrase searcher keeps only its
	// paths, and so would a highlighter reading them.
	dm.FieldTermLocations = found
	return true
}
