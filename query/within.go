package query

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// within is q's matches among filter's documents (a Bleve query), scored
// as q alone scores them. A Bleve filter (BooleanQuery.AddFilter) reads
// every match of q and checks each against the filter: a search within a
// few conversations read all of a broad query's matches (200k for k* on
// 200k messages) to keep a few hundred. within steps through both, each
// skipping (Advance) to the other's next document: its cost is that of the
// fewer documents, the few conversations' ones.
type within struct{ q, filter bq.Query }

func (w within) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	qs, err := w.q.Searcher(ctx, r, m, opts)
	if err != nil {
		return nil, err
	}
	// The filter neither scores nor has places to highlight.
	fs, err := w.filter.Searcher(ctx, r, m, search.SearcherOptions{Score: "none"})
	if err != nil {
		qs.Close()
		return nil, err
	}
	return &withinSearcher{q: qs, f: fs}, nil
}

type withinSearcher struct {
	q, f search.Searcher
	fcur *search.DocumentMatch // f's document at or after the last of q's looked at
	done bool
}

func (s *withinSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	if s.done {
		return nil, nil
	}
	m, err := s.q.Next(ctx)
	return s.meet(ctx, m, err)
}

func (s *withinSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	if s.done {
		return nil, nil
	}
	m, err := s.q.Advance(ctx, id)
	return s.meet(ctx, m, err)
}

// meet returns, from q's match m on, the first document that f holds too:
// f skips to m's, q to f's, until they meet or either ends.
func (s *withinSearcher) meet(ctx *search.SearchContext, m *search.DocumentMatch, err error) (*search.DocumentMatch, error) {
	for {
		if err != nil {
			return nil, err
		}
		if m == nil {
			s.done = true
			return nil, nil
		}
		if s.fcur == nil || s.fcur.IndexInternalID.Compare(m.IndexInternalID) < 0 {
			if s.fcur != nil {
				ctx.DocumentMatchPool.Put(s.fcur)
			}
			if s.fcur, err = s.f.Advance(ctx, m.IndexInternalID); err != nil {
				return nil, err
			}
			if s.fcur == nil {
				ctx.DocumentMatchPool.Put(m)
				s.done = true
				return nil, nil
			}
		}
		if s.fcur.IndexInternalID.Equals(m.IndexInternalID) {
			return m, nil
		}
		ctx.DocumentMatchPool.Put(m)
		m, err = s.q.Advance(ctx, s.fcur.IndexInternalID)
	}
}

func (s *withinSearcher) Close() error {
	err := s.q.Close()
	if ferr := s.f.Close(); err == nil {
		err = ferr
	}
	return err
}

func (s *withinSearcher) Weight() float64        { return s.q.Weight() }
func (s *withinSearcher) SetQueryNorm(n float64) { s.q.SetQueryNorm(n) }
func (s *withinSearcher) Count() uint64          { return min(s.q.Count(), s.f.Count()) }
func (s *withinSearcher) Min() int               { return 0 }
func (s *withinSearcher) Size() int              { return s.q.Size() + s.f.Size() }

func (s *withinSearcher) DocumentMatchPoolSize() int {
	return s.q.DocumentMatchPoolSize() + s.f.DocumentMatchPoolSize() + 1
}
