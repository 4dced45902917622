package query

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// readCounter is a Searcher that counts the postings of the content field
// its searches read (Next and Advance of each term's reader): what a
// search costs, without timing it.
type readCounter struct {
	s     Searcher
	reads int
}

func (c *readCounter) Search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	r := *req
	r.Query = countedQuery{req.Query, &c.reads}
	return c.s.Search(ctx, &r)
}

type countedQuery struct {
	q bq.Query
	n *int
}

func (c countedQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	return c.q.Searcher(ctx, countedReader{r, c.n}, m, opts)
}

type countedReader struct {
	index.IndexReader
	n *int
}

func (r countedReader) TermFieldReader(ctx context.Context, term []byte, field string, freq, norm, vectors bool) (index.TermFieldReader, error) {
	tfr, err := r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	if err != nil || field != indexer.FieldContent {
		return tfr, err
	}
	return countedTerm{tfr, r.n}, nil
}

type countedTerm struct {
	index.TermFieldReader
	n *int
}

func (t countedTerm) Next(p *index.TermFieldDoc) (*index.TermFieldDoc, error) {
	d, err := t.TermFieldReader.Next(p)
	if d != nil {
		*t.n++
	}
	return d, err
}

func (t countedTerm) Advance(id index.IndexInternalID, p *index.TermFieldDoc) (*index.TermFieldDoc, error) {
	d, err := t.TermFieldReader.Advance(id, p)
	if d != nil {
		*t.n++
	}
	return d, err
}

// TestCountWithinConversations: a grouped search counts each
// conversation's hits as a count of every hit of the query by conversation
// does; within a few conversations (the count of the command line's printed
// list) it reads fewer postings than the query has in the whole index, not
// every one of them once a page.
func TestCountWithinConversations(t *testing.T) {
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	day := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	var changes []indexer.Change
	for i := range 24 {
		c := &conversation.Conversation{ID: fmt.Sprintf("c%02d", i), Source: "rao", Title: fmt.Sprintf("Census %d", i), Date: day, Project: "p", File: fmt.Sprintf("/fixtures/c%02d.json", i)}
		for j := range 60 + 10*(i%5) {
			text := fmt.Sprintf("quokka census, day %d", j)
			if j%3 == 0 {
				text = fmt.Sprintf("wallaby count, day %d", j)
			}
			c.Messages = append(c.Messages, conversation.Message{Role: conversation.RoleUser, Content: text, Timestamp: day})
		}
		c.Renumber()
		changes = append(changes, indexer.Change{State: indexer.FileState{Path: c.File, Parser: c.Source}, Conversations: []*conversation.Conversation{c}})
	}
	if err := ix.Apply(context.Background(), changes); err != nil {
		t.Fatal(err)
	}
	// Every hit of quokka, counted by conversation in one facet.
	all := bleve.NewSearchRequestOptions(bleve.NewTermQuery("quokka"), 0, 0, false)
	all.Query.(*bq.TermQuery).SetField(indexer.FieldContent)
	all.AddFacet("c", bleve.NewFacetRequest(indexer.FieldConversationID, 100))
	sr, err := ix.Search(context.Background(), all)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, tf := range sr.Facets["c"].Terms.Terms() {
		want[tf.Term] = tf.Count
	}
	for _, tt := range []struct {
		name     string
		r        Request
		maxReads int // 0: no bound
	}{
		{"grouped", Request{Query: "quokka", Group: true, Limit: 5}, 0},
		{"grouped, newest first", Request{Query: "quokka", Group: true, Limit: 5, Sort: SortNewest}, 0},
		{"within three conversations", Request{Query: "quokka", Group: true, Limit: 3, Conversations: []string{"c03", "c11", "c17"}}, int(sr.Total)},
		{"within two, by a hit's id", Request{Query: "quokka", Group: true, Limit: 2, Conversations: []string{"m/c04/1", "c20"}}, int(sr.Total)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rc := &readCounter{s: ix}
			e, err := New(rc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Search(context.Background(), tt.r)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != tt.r.Limit {
				t.Fatalf("%d conversations, want %d", len(res.Hits), tt.r.Limit)
			}
			for _, h := range res.Hits {
				if h.Count != want[h.ConversationID] {
					t.Errorf("%s: %d hits counted, want %d", h.ConversationID, h.Count, want[h.ConversationID])
				}
			}
			if tt.maxReads > 0 && rc.reads >= tt.maxReads {
				t.Errorf("read %d postings of the content field, want fewer than the %d of the query in the whole index", rc.reads, tt.maxReads)
			}
		})
	}
}
