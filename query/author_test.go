package query_test

import (
	"context"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// TestQuestionAboutAuthor checks that a question naming who said something
// finds the message that person wrote when the format names people in an
// author field ("What did Caroline paint?" where Caroline wrote "I painted a
// sunrise"), not the conversation where the other person painted.
func TestQuestionAboutAuthor(t *testing.T) {
	day := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	// chatOn's chat, each message written by the person named first.
	authored := func(id string, lines ...[2]string) *conversation.Conversation {
		texts := make([]string, len(lines))
		for i, l := range lines {
			texts[i] = l[1]
		}
		c := chatOn(id, day, texts...)
		for i, l := range lines {
			c.Messages[i].Author = l[0]
		}
		return c
	}
	// Without the author the shorter message, Melanie's, would rank first.
	melanie := authored("s1", [2]string{"Melanie", "I painted a lake."}, [2]string{"Caroline", "Lovely, send me a photo!"})
	caroline := authored("s2", [2]string{"Caroline", "I painted a sunrise over the harbour at dawn last weekend."}, [2]string{"Melanie", "Wow, how long did it take?"})
	e := engineOver(t, query.Options{}, fileChanges(melanie, caroline)...)
	askFirst(t, e, "What did Caroline paint?", "s2") // Caroline painted there
	// The hit says who wrote it; a message without a person's name says
	// nobody.
	for _, tt := range []struct{ q, author string }{{"sunrise harbour", "Caroline"}, {"lake", "Melanie"}, {"photo", "Caroline"}} {
		res, err := e.Search(context.Background(), query.Request{Query: tt.q, Types: []string{"message"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 || res.Hits[0].Author != tt.author {
			t.Errorf("%q: hits %+v, want one by %s", tt.q, res.Hits, tt.author)
		}
	}
	anon := authored("s3", [2]string{"user-139", "The zeppelin timetable is out."})
	e = engineOver(t, query.Options{}, fileChanges(anon)...)
	res, err := e.Search(context.Background(), query.Request{Query: "zeppelin", Types: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Author != "" {
		t.Errorf("an id is no author: hits %+v", res.Hits)
	}
}
