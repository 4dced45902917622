package query

import (
	"cmp"
	"container/heap"
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
	return filtered(ctx, b.q, r, m, opts, func(dm *search.DocumentMatch) bool {
		boundPlaces(dm, maxHighlighted)
		return true
	})
}

// filtered is inner's searcher, keeping the documents keep accepts (keep
// may also trim what a document matched): the wrapper of the queries that
// check Bleve's hits by hand (bounded places, exact phrases, versions).
func filtered(ctx context.Context, inner bq.Query, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions, keep func(*search.DocumentMatch) bool) (search.Searcher, error) {
	s, err := inner.Searcher(ctx, r, m, opts)
	if err != nil {
		return nil, err
	}
	return searcher.NewFilteringSearcher(ctx, s, func(_ *search.SearchContext, dm *search.DocumentMatch) bool {
		return keep(dm)
	}), nil
}

// boundPlaces keeps the first n places of each field of dm, in text order
// (value by value, then by offset). It finds the n-th place of a field
// with more by a heap of n, not by sorting them all: a long message has
// hundreds of thousands, and the places come term by term, each term's in
// order, so most are refused at a glance.
func boundPlaces(dm *search.DocumentMatch, n int) {
	locs := dm.FieldTermLocations
	if len(locs) <= n || n <= 0 {
		return
	}
	counts := map[string]int{}
	for _, l := range locs {
		counts[l.Field]++
	}
	nth := map[string]search.Location{} // of each field with more than n
	for f, c := range counts {
		if c <= n {
			continue
		}
		h := make(latest, 0, n)
		for _, l := range locs {
			if l.Field != f {
				continue
			}
			switch {
			case len(h) < n:
				heap.Push(&h, l.Location)
			case textOrder(l.Location, h[0]) < 0:
				h[0] = l.Location
				heap.Fix(&h, 0)
			}
		}
		nth[f] = h[0]
	}
	kept := locs[:0]
	taken := map[string]int{}
	for _, l := range locs {
		if last, ok := nth[l.Field]; ok {
			if textOrder(l.Location, last) > 0 || taken[l.Field] == n {
				continue
			}
			taken[l.Field]++
		}
		kept = append(kept, l)
	}
	dm.FieldTermLocations = kept
}

// textOrder orders places by their value, then their offset in it.
func textOrder(a, b search.Location) int {
	if c := slices.Compare(a.ArrayPositions, b.ArrayPositions); c != 0 {
		return c
	}
	return cmp.Compare(a.Start, b.Start)
}

// latest is a heap of places whose top is the last in text order.
type latest []search.Location

func (h latest) Len() int           { return len(h) }
func (h latest) Less(i, j int) bool { return textOrder(h[i], h[j]) > 0 }
func (h latest) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *latest) Push(x any)        { *h = append(*h, x.(search.Location)) }
func (h *latest) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
