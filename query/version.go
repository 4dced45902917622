package query

import (
	"context"
	"strings"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// A version number is split by the analyzer into its numbers: v1.2.3 into
// v1 2 3, 1.2.3 and 10.1.2.3 into 1 2 3 and 10 1 2 3. Its phrase alone
// would match inside an IP address, a longer version or a decimal (v2.3
// in 5.2.3). versionPhrase keeps a match only when it stands whole in the
// stored text, as exactPhrase checks a phrase's dropped words there.

// version matches text, a version number ("1.2.3", "v1.2.3"), written
// with or without its v (the index holds v1 for the one, 1 for the other),
// standing whole. open is a prefix ("v1.2.*"): any number may follow.
func (b *builder) version(text string, open bool) bq.Query {
	alt := otherVersion(text)
	bare, typedV := alt, true
	if text[0] != 'v' && text[0] != 'V' {
		bare, typedV = text, false
	}
	parts := strings.Count(bare, ".") + 1
	var qs []bq.Query
	for _, form := range []string{text, alt} {
		terms := analyze(b.e.analyzer, form)
		if len(terms) == 0 {
			continue
		}
		for _, f := range textFields {
			qs = append(qs, &versionPhrase{
				inner: newTermSequence(terms, f.name, f.boost),
				field: f.name,
				n:     len(terms),
				open:  open,
				// v1.5 typed with its v is a version: its bare form
				// "1.5" is one only with three numbers or more, or
				// after the word version, not in "1.5 seconds".
				worded: typedV && form == bare && parts < 3,
			})
		}
	}
	return disjunction(qs)
}

// versionPhrase is a Bleve query (it implements bq.Query).
type versionPhrase struct {
	inner  *sequenceQuery
	field  string
	n      int  // the phrase's terms: its matches' locations come n by n
	open   bool // a prefix: no check after the match
	worded bool // a match must follow the word version, or be followed by more numbers when open
}

func (q *versionPhrase) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	return filtered(ctx, q.inner, r, m, opts, func(dm *search.DocumentMatch) bool { return q.holds(r, dm) })
}

// holds keeps in dm the matches (n locations each, in order, as
// keepSequences leaves them) that stand whole in the stored text, and
// says whether there is one. A document whose text cannot be read is kept.
func (q *versionPhrase) holds(r index.IndexReader, dm *search.DocumentMatch) bool {
	locs := dm.FieldTermLocations
	if q.n == 0 || len(locs)%q.n != 0 {
		return true
	}
	values, ok := storedValues(r, dm.IndexInternalID, q.field)
	if !ok {
		return true
	}
	kept := locs[:0]
	for i := 0; i < len(locs); i += q.n {
		first, last := locs[i].Location, locs[i+q.n-1].Location
		text, ok := valueText(values, first.ArrayPositions)
		if !ok {
			return true
		}
		if q.whole(text, int(first.Start), int(last.End)) && dotted(text, locs[i:i+q.n]) {
			kept = append(kept, locs[i:i+q.n]...)
		}
	}
	if len(kept) == 0 {
		return false
	}
	dm.FieldTermLocations = kept
	return true
}

// whole says whether text[start:end], a version's match, is not part of a
// longer number: no digit, nor digit and dot, before it, and unless open
// no dot and digit after it.
func (q *versionPhrase) whole(text []byte, start, end int) bool {
	if start < 0 || end > len(text) || start >= end {
		return false
	}
	if start > 0 && (isDigit(text[start-1]) || text[start-1] == '.' && start > 1 && isDigit(text[start-2])) {
		return false
	}
	more := end+1 < len(text) && text[end] == '.' && isDigit(text[end+1])
	if more && !q.open {
		return false
	}
	if !q.worded || q.open && more {
		return true
	}
	// "version 1.5", "Version: 1.5": the word before, past blanks and a colon.
	i := start
	for i > 0 && (isSpace(text[i-1]) || text[i-1] == ':') {
		i--
	}
	const word = "version"
	if i < len(word) || !strings.EqualFold(string(text[i-len(word):i]), word) {
		return false
	}
	return i == len(word) || !isASCIILetter(text[i-len(word)-1])
}

// dotted says whether a match's numbers are joined by a single '.' each
// in text, as in 1.2.3, not "1, 2, 3", "1/2/3", "1-2-3" or "1 2 3".
func dotted(text []byte, locs []search.FieldTermLocation) bool {
	for j := 1; j < len(locs); j++ {
		end, next := int(locs[j-1].Location.End), int(locs[j].Location.Start)
		if next != end+1 || end < 0 || end >= len(text) || text[end] != '.' {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
