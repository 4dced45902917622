package query

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/indexer"
)

// search runs req on the Engine's Searcher so that a panic inside Bleve
// (reading a damaged segment) fails this request with an error naming the
// fix, never the process that serves it. The indexer's Search recovers too;
// this covers any Searcher.
func (e *Engine) search(ctx context.Context, req *bleve.SearchRequest) (res *bleve.SearchResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &indexer.DamagedError{Reason: fmt.Sprintf("a search failed inside Bleve: %v", p)}
		}
	}()
	return e.s.Search(ctx, req)
}
