package query_test

import (
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
