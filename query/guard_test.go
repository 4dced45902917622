package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// panicking is a Searcher whose every search panics, as Bleve does on a
// damaged segment; it reports statistics, so Overview gets to search.
type panicking struct{}

func (panicking) Search(context.Context, *bleve.SearchRequest) (*bleve.SearchResult, error) {
	panic("garbled segment")
}

func (panicking) Stats(context.Context) (*indexer.Stats, error) { return &indexer.Stats{}, nil }

// A panic inside any Searcher fails the request with ErrDamaged, never the
// process: for a search and for the overview alike.
func TestSearchPanicIsDamage(t *testing.T) {
	e, err := query.New(panicking{}, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Search(ctx, query.Request{Query: "anything"}); !errors.Is(err, indexer.ErrDamaged) {
		t.Errorf("Search: %v, want ErrDamaged", err)
	}
	if _, err := e.Overview(ctx); !errors.Is(err, indexer.ErrDamaged) {
		t.Errorf("Overview: %v, want ErrDamaged", err)
	}
}
