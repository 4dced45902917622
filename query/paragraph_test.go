package query_test

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// A phrase does not run from one topic into the next, nor across a blank
// line in a message: "react" ending one topic and "native modules" the
// next is no "React Native".
func TestPhraseStaysInItsParagraph(t *testing.T) {
	decoy := chat("decoy", "we plan the app\n\nnative modules come later", "ok, react first")
	decoy.Title = "Mobile app planning"
	decoy.Topics = []conversation.Topic{{Name: "react"}, {Name: "native modules"}}
	target := chat("target", "the React Native app crashes on start", "check the Metro logs")
	e := engineOver(t, query.Options{}, fileChanges(decoy, target)...)
	checkConversations(t, e, []convCase{
		{`"React Native"`, []string{"target"}},
		{`"react native"`, []string{"target"}},
		{`"app native"`, nil},
		{`"native modules"`, []string{"decoy"}},
		{`"mobile app planning"`, []string{"decoy"}},
	})
}

// A filter by an id that is both a conversation's own ("m/x/1") and a hit
// id's form reads it as the conversation, as reading it does; a hit's id
// of another conversation names that one.
func TestConversationFilterReadsAnIDOneWay(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("x", "zebra one", "zebra two", "zebra three"),
		chat("m/x/1", "zebra literal"),
	)...)
	for _, tt := range []struct {
		id   string
		want []string
	}{
		{"m/x/1", []string{"m/x/1"}},
		{"m/x/2", []string{"x"}},
		{"x", []string{"x"}},
	} {
		res, err := e.Search(context.Background(), query.Request{Query: "zebra", Group: true, Limit: 10, Conversations: []string{tt.id}})
		if err != nil {
			t.Fatal(err)
		}
		if got := convOrder(res); !slices.Equal(got, tt.want) {
			t.Errorf("within %s: %v, want %v", tt.id, got, tt.want)
		}
	}
}
