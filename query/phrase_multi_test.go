package query

import (
	"context"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// TestExactPhraseInLaterValue checks an exact phrase with stop words in a
// field of many values (a conversation's topics): the dropped words are
// checked in the value that matched, not in the first.
func TestExactPhraseInLaterValue(t *testing.T) {
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	day := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	c := &conversation.Conversation{
		ID: "oom", Source: "rao", Title: "A crash", Date: day, Project: "p",
		Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "the worker died", Timestamp: day}},
		Topics: []conversation.Topic{
			{Name: "worker restarts", Origin: conversation.OriginExplicit},
			{Name: "running out of memory", Origin: conversation.OriginExplicit},
		},
	}
	c.Renumber()
	c.File = "/fixtures/oom.json"
	if err := ix.Apply(context.Background(), []indexer.Change{{State: indexer.FileState{Path: c.File, Parser: c.Source}, Conversations: []*conversation.Conversation{c}}}); err != nil {
		t.Fatal(err)
	}
	e, err := New(ix, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{ctx: context.Background(), e: e}
	for _, tt := range []struct {
		phrase string
		want   uint64
	}{
		{"out of memory", 1},
		{"out the memory", 0},
	} {
		q := b.matchPhrase(tt.phrase, indexer.FieldTopics, 1)
		if _, ok := q.(*exactPhrase); !ok {
			t.Fatalf("matchPhrase(%q) = %T, want an exact phrase", tt.phrase, q)
		}
		res, err := ix.Search(context.Background(), bleve.NewSearchRequest(q))
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != tt.want {
			t.Errorf("%q in the second topic: %d hits, want %d", tt.phrase, res.Total, tt.want)
		}
	}
}
