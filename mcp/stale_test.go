package mcp

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// staleBackend reads every conversation's file as if it had been rewritten
// with its first three messages since it was indexed.
type staleBackend struct{ *query.Engine }

func (b staleBackend) Load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	c, fromIndex, err := b.Engine.Load(ctx, id)
	if err != nil {
		return nil, false, err
	}
	c.Messages = c.Messages[:min(3, len(c.Messages))]
	return c, fromIndex, nil
}

// A hit's id whose message the file no longer has is an error, as a
// message past the end is, not the whole conversation.
func TestMCPStaleHit(t *testing.T) {
	cs := connect(t, staleBackend{newTestBackend(t)})
	for _, tc := range []struct {
		args map[string]any
		want string // "" for success
	}{
		{map[string]any{"id": "m/" + fixtureID + "/8"}, "no message 8"},
		{map[string]any{"id": fixtureID, "message": 8}, "no message 8"},
		{map[string]any{"id": "m/" + fixtureID + "/2"}, ""},
	} {
		res := call(t, cs, "get_conversation", tc.args)
		if msg := text(res); res.IsError != (tc.want != "") || !strings.Contains(msg, tc.want) || (tc.want != "" && strings.Contains(msg, "All 3 messages")) {
			t.Errorf("get_conversation(%v): error %v, %q; want %q", tc.args, res.IsError, msg, tc.want)
		}
	}
	_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: ConversationURI("m/" + fixtureID + "/8")})
	if err == nil || !strings.Contains(err.Error(), "no message 8") {
		t.Errorf("read m/%s/8: %v, want no message 8", fixtureID, err)
	}
}
