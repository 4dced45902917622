package query_test

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// TestProjectAnyCase checks that a project matches in any case, as a
// source does, whether given as a filter or as project:, and only whole.
func TestProjectAnyCase(t *testing.T) {
	var convs []*conversation.Conversation
	for _, p := range []struct{ id, project string }{{"l1", "Ledger"}, {"l2", "ledger"}, {"s", "Straße.io"}, {"x", "ledger-old"}} {
		c := &conversation.Conversation{ID: p.id, Source: "rao", Title: "notes", Project: p.project, File: "/fixtures/" + p.id + ".json",
			Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "hello"}}}
		c.Renumber()
		convs = append(convs, c)
	}
	e := engineOver(t, query.Options{}, fileChanges(convs...)...)
	for _, tt := range []struct {
		name string
		req  query.Request
		want []string
	}{
		{"filter, as indexed", query.Request{Projects: []string{"Ledger"}}, []string{"c:l1", "c:l2"}},
		{"filter, lower case", query.Request{Projects: []string{"ledger"}}, []string{"c:l1", "c:l2"}},
		{"filter, upper case", query.Request{Projects: []string{"LEDGER"}}, []string{"c:l1", "c:l2"}},
		{"filter, non-ASCII and a dot", query.Request{Projects: []string{"STRAßE.IO"}}, []string{"c:s"}},
		{"filter, no such project", query.Request{Projects: []string{"ledger.*"}}, []string{}},
		{"field", query.Request{Query: "project:LEDGER"}, []string{"c:l1", "c:l2"}},
		{"field, prefix", query.Request{Query: "project:LEDG*"}, []string{"c:l1", "c:l2", "c:x"}},
		{"with words", query.Request{Query: "notes", Projects: []string{"lEdGeR"}}, []string{"c:l1", "c:l2"}},
		{"several", query.Request{Projects: []string{"LEDGER-OLD", "straße.io"}}, []string{"c:s", "c:x"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Types = []string{"conversation"}
			res, err := e.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(res); !slices.Equal(got, tt.want) {
				t.Errorf("%+v: %v, want %v", tt.req, got, tt.want)
			}
		})
	}
}
