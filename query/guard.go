package query

import (
	"context"
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/indexer"
)

// search runs req on the Engine's Searcher so that a panic inside Bleve
// (reading a damaged segment) fails this request with an error naming the
// fix, never the process that serves it. The indexer's Search recovers too;
// this covers any Searcher. A search that ends after ctx's deadline fails
// with it: Bleve looks at ctx only between documents while it collects,
// not while it highlights them, and an answer past the deadline would let a
// request run on search after search.
func (e *Engine) search(ctx context.Context, req *bleve.SearchRequest) (res *bleve.SearchResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &indexer.DamagedError{Reason: fmt.Sprintf("a search failed inside Bleve: %v", p)}
		}
	}()
	res, err = e.s.Search(ctx, req)
	if err == nil {
		err = stopped(ctx)
	}
	return res, err
}

// stopped returns ctx's error, named as the stop of a search, once ctx is
// done; nil before. What a request does between searches (grouping,
// conversations' titles) checks it too, so that its time limit covers all
// of it.
func stopped(ctx context.Context) error {
	err := ctx.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("stopped at its time limit: %w", err)
	}
	return fmt.Errorf("stopped: %w", err)
}
