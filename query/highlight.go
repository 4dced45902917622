package query

import (
	"cmp"
	"context"
	"slices"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// maxHighlighted bounds the matched places of one field that Bleve's
// highlighter is given: it makes a fragment around every place and scores
// each fragment against every place, the square of their number. A long
// message in Chinese or Japanese, where each character is a word, has tens
// of thousands of places of a common one, and was seconds to highlight.
// The first places in the text are kept: a fragment shows a few of them.
const maxHighlighted = 256

// boundedPlaces is q whose hits keep at most maxHighlighted matched places
// a field (a Bleve query).
type boundedPlaces struct{ q bq.Query }

func (b boundedPlaces) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	s, err := b.q.Searcher(ctx, r, m, opts)
	if err != nil {
		return nil, err
	}
	return searcher.NewFilteringSearcher(ctx, s, func(_ *search.SearchContext, dm *search.DocumentMatch) bool {
		boundPlaces(dm, maxHighlighted)
		return true
	}), nil
}

// boundPlaces keeps the first n places of each field of dm, in text order.
func boundPlaces(dm *search.DocumentMatch, n int) {
	locs := dm.FieldTermLocations
	if len(locs) <= n {
		return
	}
	slices.SortFunc(locs, func(a, b search.FieldTermLocation) int {
		if c := cmp.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		if c := slices.Compare(a.Location.ArrayPositions, b.Location.ArrayPositions); c != 0 {
			return c
		}
		return cmp.Compare(a.Location.Start, b.Location.Start)
	})
	kept := locs[:0]
	field, count := "", 0
	for _, l := range locs {
		if l.Field != field {
			field, count = l.Field, 0
		}
		if count < n {
			kept = append(kept, l)
		}
		count++
	}
	dm.FieldTermLocations = kept
}
