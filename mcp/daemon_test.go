package mcp_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/mcp"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

// slow is an index whose searches run out of time.
type slow struct{ *query.Engine }

func (slow) Search(context.Context, query.Request) (*query.Result, error) {
	return nil, fmt.Errorf("search: %w", context.DeadlineExceeded)
}

// TestMCPErrorsThroughDaemon checks that an agent reads the same error
// whether the tools answer from the index or through a daemon's client:
// the daemon's HTTP status and prefix must not leak, and the query
// language's help must not be lost.
func TestMCPErrorsThroughDaemon(t *testing.T) {
	engine := mcp.NewTestBackend(t)
	for _, tc := range []struct {
		name    string
		backend interface {
			mcp.Backend
			server.Backend
		}
		tool string
		args map[string]any
		says string
	}{
		{"common words", engine, "search_conversations", map[string]any{"query": "the"}, "nothing to search for"},
		{"common words in a phrase", engine, "search_conversations", map[string]any{"query": `outbox "of the"`}, "only common words"},
		{"bad type", engine, "search_conversations", map[string]any{"query": "outbox type:bogus"}, "type:bogus"},
		{"decisions", engine, "list_decisions", map[string]any{"query": "outbox type:bogus"}, "type:bogus"},
		{"too long", slow{engine}, "search_conversations", map[string]any{"query": "outbox"}, "took too long"},
		// A hit's id past its conversation's end: the index's words, as
		// get_conversation gives them, not the daemon's 404.
		{"hit past the end", engine, "search_conversations", map[string]any{"conversation_id": "m/20250301-5e1d2a90/999"}, "no message 999"},
		{"hit past the end, read", engine, "get_conversation", map[string]any{"id": "m/20250301-5e1d2a90/999"}, "no message 999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(server.NewHandler(server.HandlerOptions{Backend: tc.backend}))
			defer ts.Close()
			client := daemon.NewClient(ts.URL, "")
			defer client.Close()
			var got []string
			for _, b := range []mcp.Backend{tc.backend, client} {
				res, err := mcp.Connect(t, b).CallTool(context.Background(), &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
				if err != nil {
					t.Fatal(err)
				}
				var txt string
				for _, c := range res.Content {
					if c, ok := c.(*sdk.TextContent); ok {
						txt += c.Text
					}
				}
				if !res.IsError || !strings.Contains(txt, tc.says) {
					t.Errorf("%s(%v) over %T: error %v %q, want it to say %q", tc.tool, tc.args, b, res.IsError, txt, tc.says)
				}
				got = append(got, txt)
			}
			if got[0] != got[1] {
				t.Errorf("%s(%v): the index says\n%s\nthrough the daemon:\n%s", tc.tool, tc.args, got[0], got[1])
			}
		})
	}
}
