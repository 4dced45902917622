package query_test

import (
	"context"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// Words joined by a colon ("user:alice", "TODO:refactor") are found by
// each word and by the whole, and a query written joined finds the text
// written apart ("TODO:fix" finds "TODO: fix"); colons next to digits
// ("localhost:8080", "10:30") keep working.
func TestColonJoinedWordsSearchable(t *testing.T) {
	day := time.Date(2025, 4, 1, 9, 0, 0, 0, time.UTC)
	c := &conversation.Conversation{
		ID: "colons", Source: "portable", Title: "Access review", Date: day, File: "/fixtures/colons.json",
		Messages: []conversation.Message{
			{Role: conversation.RoleUser, Content: "Grant user:alice read access in namespace:monitoring.", Timestamp: day},
			{Role: conversation.RoleAssistant, Content: "Done. TODO:refactor the role bindings, see JIRA:ABC.", Timestamp: day},
			{Role: conversation.RoleUser, Content: "TODO: fix the dashboard on localhost:8080 before 10:30.", Timestamp: day},
		},
	}
	c.Renumber()
	e := engineOver(t, query.Options{}, fileChanges(c)...)
	tests := []messageCase{
		{"alice", []string{"m:colons#0"}},
		{"user:alice", []string{"m:colons#0"}},
		{"monitoring", []string{"m:colons#0"}},
		{"namespace:monitoring", []string{"m:colons#0"}},
		{"refactor", []string{"m:colons#1"}},
		{"TODO:refactor", []string{"m:colons#1"}},
		{"JIRA", []string{"m:colons#1"}},
		{"TODO:fix", []string{"m:colons#2"}},
		{`"TODO fix"`, []string{"m:colons#2"}},
		{"localhost:8080", []string{"m:colons#2"}},
		{"8080", []string{"m:colons#2"}},
		{"10:30", []string{"m:colons#2"}},
		// The parts in their order, else (relaxed) any of them.
		{"alice:user", []string{"m:colons#0"}},
	}
	checkMessageHits(t, e, tests, true)
	for q, relaxed := range map[string]bool{"alice:user": true, "user:alice": false} {
		res, err := e.Search(context.Background(), query.Request{Query: q, Types: []string{"message"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Relaxed != relaxed {
			t.Errorf("Search(%q).Relaxed = %v, want %v", q, res.Relaxed, relaxed)
		}
	}
}
