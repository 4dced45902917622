package query

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
)

// lateSearcher answers every search in full, but only once ctx is done:
// as Bleve does when the time runs out while it highlights or checks the
// last document, where it does not look at ctx.
type lateSearcher struct{ searches int }

func (s *lateSearcher) Search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	s.searches++
	<-ctx.Done()
	return &bleve.SearchResult{Total: 1, Hits: search.DocumentMatchCollection{{ID: "m/c/0", Score: 1, Fields: map[string]any{"type": "message", "conversation_id": "c"}}}}, nil
}

// TestTimeoutCoversTheWholeSearch: a request whose time runs out fails
// with the deadline (a 504 in HTTP) after the search that overran, even
// when Bleve answered, and goes on to no other search.
func TestTimeoutCoversTheWholeSearch(t *testing.T) {
	for _, r := range []Request{
		{Query: "retry"},
		{Query: "retry policy backoff", Group: true},
		{Query: `"retry policy"`, Group: true},
	} {
		t.Run(r.Query, func(t *testing.T) {
			s := &lateSearcher{}
			e, err := New(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			e.timeout = time.Millisecond
			res, err := e.Search(context.Background(), r)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %+v, %v; want context.DeadlineExceeded", res, err)
			}
			if s.searches != 1 {
				t.Errorf("%d searches, want 1: the first overran", s.searches)
			}
		})
	}
}
