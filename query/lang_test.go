package query_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// TestFieldNames checks that a field name the language does not know, or a
// role it does not have, is a syntax error naming what is, instead of text
// that silently matches something else or nothing.
func TestFieldNames(t *testing.T) {
	e := newEngine(t)
	for _, tt := range []struct {
		q    string
		pos  int
		says []string // "" for no error
	}{
		{"conversation:20251211-93ffce75", 0, []string{"conversation: is not a field", "id:ID", "conversation filter"}},
		{"conversation_id:boot", 0, []string{"conversation_id: is not a field", "id:ID"}},
		{"bleve since:2025-01-01", 6, []string{"since: is not a field", "--since"}},
		{"until:2025-06", 0, []string{"until: is not a field", "until="}},
		{"date:2025-01-01", 0, []string{"date: is not a field", "role:, project:, source:", `quote it: "date:2025-01-01"`}},
		{"-since:2025-01-01", 1, []string{"since: is not a field"}},
		{`conversation:"a b"`, 0, []string{"conversation: is not a field"}},
		{"projects:ledger", 0, []string{"did you mean project:?"}},
		{"kind:decision", 0, []string{"type:"}},
		{"Role:bogus", 0, []string{"role:bogus: the roles are user, assistant, system, tool"}},
		{"bleve role:users", 6, []string{"role:users"}},
		{"role:x*", 0, []string{"role:x"}},
		{"type:bogus", 0, []string{"type:bogus"}},
		// Fields, as before.
		{"bleve role:user", 0, nil},
		{"bleve ROLE:Assistant", 0, nil},
		{"role:assist*", 0, nil},
		{"project:ledger type:conversation", 0, nil},
		{`title:"retry policy"`, 0, nil},
		// Text with a colon that is no field: words, as before.
		{"http://example.com/docs", 0, nil},
		{"https://x", 0, nil},
		{"10:30", 0, nil},
		{`C:\Users\me`, 0, nil},
		{"C:/Users/me", 0, nil},
		{"std::vector", 0, nil},
		{"file.go:12", 0, nil},
		{"Note: bleve", 0, nil},
		{":smile:", 0, nil},
		{`"foo:bar"`, 0, nil},
		// A name no one takes for a field is text: a host and port, an
		// image tag, a scheme.
		{"localhost:8080", 0, nil},
		{"postgres:16", 0, nil},
		{"mailto:ops", 0, nil},
		{"foo:bar", 0, nil},
		{`"conversation:20251211"`, 0, nil},
	} {
		_, err := e.Search(context.Background(), query.Request{Query: tt.q})
		var se *query.SyntaxError
		if len(tt.says) == 0 {
			if errors.As(err, &se) && !strings.Contains(se.Msg, "nothing to search for") {
				t.Errorf("%q: %v, want no syntax error", tt.q, err)
			}
			continue
		}
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a syntax error", tt.q, err)
			continue
		}
		if se.Pos != tt.pos {
			t.Errorf("%q: error at %d, want %d", tt.q, se.Pos, tt.pos)
		}
		for _, s := range tt.says {
			if !strings.Contains(se.Msg, s) {
				t.Errorf("%q: %q, want it to say %q", tt.q, se.Msg, s)
			}
		}
	}
}

// TestColonWordsFindTheirText checks that words with a colon that are no
// field still find the text that has them.
func TestColonWordsFindTheirText(t *testing.T) {
	c := &conversation.Conversation{ID: "colons", Source: "rao", Title: "notes", File: "/fixtures/colons.json",
		Messages: []conversation.Message{
			{Role: conversation.RoleUser, Content: `See http://example.com/docs at 10:30, copy C:\Users\me\app.toml, and use std::vector in main.go:12 with postgres:16 on localhost:8080.`},
			{Role: conversation.RoleAssistant, Content: "Nothing else here."},
		}}
	c.Renumber()
	e := engineOver(t, query.Options{}, fileChanges(c)...)
	for _, q := range []string{"http://example.com/docs", "10:30", `C:\Users\me\app.toml`, "std::vector", "main.go:12", `"foo:bar" OR std::vector`, "postgres:16", "localhost:8080"} {
		res, err := e.Search(context.Background(), query.Request{Query: q, Types: []string{"message"}})
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if got := ids(res); len(got) != 1 || got[0] != "m:colons#0" {
			t.Errorf("%q: %v, want m:colons#0", q, got)
		}
	}
}
