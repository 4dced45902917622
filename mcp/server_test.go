package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/internal/calltime"
	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
)

// fixtureID is the long session of testdata/mcp: 130 messages, a hidden
// system message (#0), a 6000-character tool output (#3), a decision (#6)
// and a 9000-character message (#7).
const fixtureID = "20250301-5e1d2a90"

var mcpRoots = []string{"testdata/mcp", "../examples"}

// newTestBackend indexes the MCP fixture and the bundled examples into a
// fresh index.
func newTestBackend(tb testing.TB) *query.Engine {
	tb.Helper()
	e, sum := convtest.Engine(tb, mcpRoots...)
	if sum.Conversations < 10 {
		tb.Fatalf("indexed %d conversations, want the fixture and the examples (errors %v)", sum.Conversations, sum.Errors)
	}
	return e
}

// connect serves b over in-memory transports and returns a connected client.
func connect(tb testing.TB, b Backend) *sdk.ClientSession {
	tb.Helper()
	return connectWith(tb, b, Options{})
}

// connectWith is connect with options; Version and Now are set for it.
func connectWith(tb testing.TB, b Backend, opts Options) *sdk.ClientSession {
	tb.Helper()
	ctx := context.Background()
	opts.Version = "test"
	opts.Now = func() time.Time { return time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC) }
	s := NewServer(b, opts)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ss.Close() })
	c := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "0"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	return res
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ok calls a tool that must succeed and decodes its structured output.
func ok[T any](t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (T, string) {
	t.Helper()
	var out T
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%v): tool error %s", name, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	// The output is what the tool's output schema says.
	if err := outputSchema(t, cs, name).Validate(res.StructuredContent); err != nil {
		t.Errorf("%s: output does not match the output schema: %v\n%s", name, err, b)
	}
	return out, text(res)
}

// outputSchema returns the resolved output schema of a tool, as a client
// sees it.
func outputSchema(t *testing.T, cs *sdk.ClientSession, name string) *jsonschema.Resolved {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != name {
			continue
		}
		data, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema: %v", name, err)
		}
		return r
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func TestMCPListsToolsAndTemplate(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"search_conversations":  {"query", "type", "project", "source", "role", "since", "until", "limit"},
		"get_conversation":      {"id", "message", "offset", "context", "max_messages", "char_offset"},
		"list_decisions":        {"query", "project", "since", "limit", "offset"},
		"list_topics":           {"project", "limit", "offset"},
		"related_conversations": {"id", "limit"},
	}
	if len(tools.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(tools.Tools), len(want))
	}
	for _, tool := range tools.Tools {
		props, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if len(tool.Description) < 100 {
			t.Errorf("%s: description too short to tell an agent when to use it: %q", tool.Name, tool.Description)
		}
		if tool.Name == "search_conversations" && !strings.Contains(tool.Description, "Unicode code points, not UTF-16 units") {
			t.Errorf("%s: description does not say in which unit snippet matches count: %q", tool.Name, tool.Description)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not marked read-only", tool.Name)
		}
		schema := tool.InputSchema.(map[string]any)
		got := schema["properties"].(map[string]any)
		for _, p := range props {
			prop, ok := got[p].(map[string]any)
			if !ok {
				t.Errorf("%s: no property %s", tool.Name, p)
				continue
			}
			if d, _ := prop["description"].(string); d == "" {
				t.Errorf("%s.%s: no description", tool.Name, p)
			}
		}
		if lim, ok := got["limit"].(map[string]any); ok {
			if lim["maximum"] == nil || lim["default"] == nil {
				t.Errorf("%s.limit: no maximum or default: %v", tool.Name, lim)
			}
		}
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "Unicode code points, not UTF-16 units") {
		t.Errorf("instructions do not say in which unit snippet matches count")
	}
	tpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tpl.ResourceTemplates) != 1 || tpl.ResourceTemplates[0].URITemplate != "convsearch://conversation/{id}" {
		t.Errorf("resource templates %+v", tpl.ResourceTemplates)
	}
}

func TestMCPSearch(t *testing.T) {
	cs := connect(t, newTestBackend(t))

	out, txt := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "outbox replay batches"})
	if len(out.Hits) == 0 || out.Hits[0].ConversationID != fixtureID {
		t.Fatalf("hits %+v, want the fixture first", out.Hits)
	}
	if !strings.Contains(txt, "conversation_id: "+fixtureID) {
		t.Errorf("text does not name the conversation id:\n%s", txt)
	}
	for _, h := range out.Hits {
		if len(h.Sort) > 0 || len(h.Fragments) > mcpFragmentsMax {
			t.Errorf("hit %s: sort %v, %d fragments", h.ID, h.Sort, len(h.Fragments))
		}
	}

	// "billing" is in some 60 messages: the default limit, a next page.
	page1, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "billing lag", "type": "message", "group": false})
	if len(page1.Hits) != mcpSearchDefault || !page1.Truncated || page1.NextOffset != mcpSearchDefault || page1.Total <= mcpSearchDefault {
		t.Fatalf("page 1: %d hits of %d, truncated %v, next %d", len(page1.Hits), page1.Total, page1.Truncated, page1.NextOffset)
	}
	page2, txt := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "billing lag", "type": "message", "group": false, "offset": page1.NextOffset, "limit": 50})
	if len(page2.Hits) != min(50, int(page1.Total)-10) || page2.Hits[0].ID == page1.Hits[0].ID {
		t.Errorf("page 2: %d hits, first %s", len(page2.Hits), page2.Hits[0].ID)
	}
	if !strings.Contains(txt, "showing 11–") {
		t.Errorf("page 2 text: %s", firstLine(txt))
	}
	all, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "postgres 16 upgrade", "limit": 50})
	if all.Truncated && all.NextOffset == 0 {
		t.Errorf("truncated without a next page and no text cut: %+v", all)
	}

	// Filters.
	for _, tc := range []struct {
		args  map[string]any
		check func(h query.Hit) bool
	}{
		{map[string]any{"query": "outbox", "type": "decision"}, func(h query.Hit) bool { return h.Kind == "decision" && h.Rationale != "" }},
		{map[string]any{"query": "outbox", "role": "user"}, func(h query.Hit) bool { return h.Role == "user" }},
		{map[string]any{"query": "outbox", "project": "ledger"}, func(h query.Hit) bool { return h.Project == "ledger" }},
		{map[string]any{"query": "outbox", "source": "portable"}, func(h query.Hit) bool { return h.Source == "portable" }},
		{map[string]any{"query": "outbox", "since": "2025-03-01", "until": "2025-03-02"}, func(h query.Hit) bool { return h.ConversationID == fixtureID }},
		{map[string]any{"query": "outbox", "since": "10d"}, func(h query.Hit) bool { return h.ConversationID == fixtureID }},
		{map[string]any{"query": "environment_context", "include_hidden": true}, func(h query.Hit) bool { return h.Hidden }},
	} {
		out, _ := ok[searchOutput](t, cs, "search_conversations", tc.args)
		if len(out.Hits) == 0 {
			t.Errorf("%v: no hits", tc.args)
		}
		for _, h := range out.Hits {
			if !tc.check(h) {
				t.Errorf("%v: hit %+v does not pass the filter", tc.args, h)
			}
		}
	}
	hidden, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "environment_context"})
	// No hit here is right (every message with the word is hidden): the
	// table above checked that include_hidden finds them.
	for _, h := range hidden.Hits {
		if h.Hidden {
			t.Errorf("hidden message %s found without include_hidden", h.ID)
		}
	}
	none, txt := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "outbox", "project": "ledgr"})
	if len(none.Hits) != 0 || !strings.Contains(txt, "projects in the index") || !strings.Contains(txt, "ledger") {
		t.Errorf("unknown project: %d hits, text %q", len(none.Hits), txt)
	}
	// A source the index holds none of, or an unknown conversation, says
	// so too, not just "No match" (an unknown source is refused).
	for args, says := range map[string]string{"source": "sources in the index", "conversation_id": "holds no conversation"} {
		value := "nonexistent"
		if args == "source" {
			value = "kiro-session"
		}
		none, txt = ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "outbox", args: value})
		if len(none.Hits) != 0 || !strings.Contains(txt, says) {
			t.Errorf("unknown %s: %d hits, text %q", args, len(none.Hits), txt)
		}
	}
	// A conversation that exists but holds no match is not called unknown;
	// its hit id names it as well as its own id does.
	for _, id := range []string{fixtureID, "m/" + fixtureID + "/3"} {
		none, txt = ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "zzyzxnomatch", "conversation_id": id})
		if len(none.Hits) != 0 || strings.Contains(txt, "holds no conversation") {
			t.Errorf("known conversation %s with no match: %d hits, text %q", id, len(none.Hits), txt)
		}
	}
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func TestMCPGetConversation(t *testing.T) {
	cs := connect(t, newTestBackend(t))

	w, txt := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID})
	if w.MessageCount != 130 || w.First != 0 || w.Last != mcpWindowDefault-1 || len(w.Messages) != mcpWindowDefault {
		t.Fatalf("default window: %d messages %d–%d of %d", len(w.Messages), w.First, w.Last, w.MessageCount)
	}
	if !w.Truncated || w.NextMessage == nil || *w.NextMessage != mcpWindowDefault {
		t.Errorf("default window: truncated %v, next %v", w.Truncated, w.NextMessage)
	}
	if w.Project != "ledger" || len(w.Decisions) != 1 || w.Decisions[0].Rationale == "" || w.URI != "convsearch://conversation/"+fixtureID {
		t.Errorf("head: project %q, decisions %+v, uri %q", w.Project, w.Decisions, w.URI)
	}
	if !w.Messages[0].Hidden || w.Messages[2].ToolCalls[0].Name != "Bash" {
		t.Errorf("messages lost their structure: %+v", w.Messages[:3])
	}

	// A hit's id given for the conversation id: the window is at its
	// message, as get_conversation(conversation_id, message) would give.
	byHit, _ := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": "m/" + fixtureID + "/6", "context": 0, "max_messages": 1})
	if byHit.ID != fixtureID || byHit.First != 6 || len(byHit.Messages) != 1 {
		t.Errorf("by a hit's id: conversation %q, window from %d, %d messages", byHit.ID, byHit.First, len(byHit.Messages))
	}
	// The tool output (6000 characters) and the long message (9000) are cut
	// with a marker.
	out := w.Messages[3].ToolResults[0].Content
	if n := len([]rune(out)); n > mcpToolTextMax+40 || !strings.Contains(out, "more characters cut]") {
		t.Errorf("tool output: %d characters, ends %q", n, out[max(len(out)-60, 0):])
	}
	long := w.Messages[7].Content
	if n := len([]rune(long)); n > mcpContentMax+40 || n < mcpContentMax/2 || !strings.Contains(long, "more characters cut]") {
		t.Errorf("long message: %d characters, ends %q", n, long[max(len(long)-60, 0):])
	}
	if !strings.Contains(txt, "## #3 tool") || !strings.Contains(txt, "more characters cut]") || !strings.Contains(txt, "offset=20)") {
		t.Errorf("text rendering:\n%s", txt)
	}

	// A window around a message: context before it, then forward.
	w, txt = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "message": 50, "context": 2, "max_messages": 5})
	if w.First != 48 || w.Last != 52 || len(w.Messages) != 5 || w.Messages[2].Index != 50 || *w.NextMessage != 53 {
		t.Errorf("window around 50: %d–%d, next %v", w.First, w.Last, w.NextMessage)
	}
	if !strings.Contains(txt, "#50 ") || !strings.Contains(txt, "asked for") {
		t.Errorf("focus not marked:\n%s", txt)
	}
	// Default context; a context wider than the window keeps the message.
	w, _ = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "message": 50})
	if w.First != 50-mcpContextDefault || len(w.Messages) != mcpWindowDefault {
		t.Errorf("default context: %d–%d", w.First, w.Last)
	}
	w, _ = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "message": 50, "context": 90, "max_messages": 10})
	if w.Last != 50 || len(w.Messages) != 10 {
		t.Errorf("context wider than the window: %d–%d", w.First, w.Last)
	}
	// The end of the conversation; the hard cap.
	w, _ = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "message": 125, "context": 0})
	if w.First != 125 || w.Last != 129 || w.NextMessage != nil || !w.Truncated {
		t.Errorf("tail: %d–%d next %v truncated %v", w.First, w.Last, w.NextMessage, w.Truncated)
	}
	w, _ = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "max_messages": mcpWindowMax})
	if len(w.Messages) != mcpWindowMax || *w.NextMessage != mcpWindowMax {
		t.Errorf("cap: %d messages", len(w.Messages))
	}
	size := 0
	for i := range w.Messages {
		size += messageSize(&w.Messages[i])
	}
	if size > mcpWindowBudget+mcpContentMax*2 {
		t.Errorf("window of %d characters, budget %d", size, mcpWindowBudget)
	}

	// A short conversation comes whole, not truncated.
	ex, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "advisory locks lease", "type": "conversation"})
	if len(ex.Hits) == 0 {
		t.Fatal("example conversation not found")
	}
	w, _ = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": ex.Hits[0].ConversationID})
	if w.Truncated || w.NextMessage != nil || len(w.Messages) != w.MessageCount {
		t.Errorf("short conversation: %d of %d, truncated %v", len(w.Messages), w.MessageCount, w.Truncated)
	}
}

// TestMCPPagesDecisionsAndTopics: list_decisions and list_topics page
// with offset; a page others follow gives next_offset and, in its text,
// the exact call that reads on; the pages together are the whole list.
func TestMCPPagesDecisionsAndTopics(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	all, _ := ok[searchOutput](t, cs, "list_decisions", map[string]any{"limit": 50})
	if len(all.Hits) < 3 || uint64(len(all.Hits)) != all.Total {
		t.Fatalf("decisions: %d of %d, want all of at least 3", len(all.Hits), all.Total)
	}
	paged, pages := convtest.FollowPages(t, len(all.Hits)+2, func(offset int) ([]string, int) {
		d, txt := ok[searchOutput](t, cs, "list_decisions", map[string]any{"limit": 4, "offset": offset})
		var ids []string
		for _, h := range d.Hits {
			ids = append(ids, h.ID)
		}
		if d.NextOffset == 0 {
			if d.Truncated || strings.Contains(txt, "More:") {
				t.Errorf("last page of decisions at %d: truncated %v\n%s", offset, d.Truncated, txt)
			}
			return ids, 0
		}
		call := fmt.Sprintf("More: list_decisions(limit=4, offset=%d)", d.NextOffset)
		if d.NextOffset != offset+4 || !d.Truncated || !strings.Contains(txt, call) {
			t.Errorf("decisions at %d: next_offset %d, truncated %v, want %d saying %s:\n%s", offset, d.NextOffset, d.Truncated, offset+4, call, txt)
		}
		return ids, d.NextOffset
	})
	if pages > len(all.Hits)+1 {
		t.Fatal("decisions: paging does not end")
	}
	var want []string
	for _, h := range all.Hits {
		want = append(want, h.ID)
	}
	if !slices.Equal(paged, want) {
		t.Errorf("decisions paged: %v, want %v", paged, want)
	}

	allTopics, _ := ok[topicsOutput](t, cs, "list_topics", map[string]any{"limit": 100})
	if len(allTopics.Topics) < 3 || allTopics.Truncated {
		t.Fatalf("topics: %d, truncated %v; want all of at least 3", len(allTopics.Topics), allTopics.Truncated)
	}
	var wantTopics []string
	pagedTopics, pages := convtest.FollowPages(t, len(allTopics.Topics)+2, func(offset int) ([]string, int) {
		tp, txt := ok[topicsOutput](t, cs, "list_topics", map[string]any{"limit": 2, "offset": offset})
		var names []string
		for _, tc := range tp.Topics {
			names = append(names, tc.Name)
		}
		if tp.NextOffset == 0 {
			return names, 0
		}
		call := fmt.Sprintf("More: list_topics(limit=2, offset=%d)", tp.NextOffset)
		if tp.NextOffset != offset+2 || !tp.Truncated || !strings.Contains(txt, call) {
			t.Errorf("topics at %d: next_offset %d, want %d saying %s:\n%s", offset, tp.NextOffset, offset+2, call, txt)
		}
		return names, tp.NextOffset
	})
	if pages > len(allTopics.Topics)+1 {
		t.Fatal("topics: paging does not end")
	}
	for _, tc := range allTopics.Topics {
		wantTopics = append(wantTopics, tc.Name)
	}
	if !slices.Equal(pagedTopics, wantTopics) {
		t.Errorf("topics paged: %v, want %v", pagedTopics, wantTopics)
	}
}

func TestMCPDecisionsTopicsRelated(t *testing.T) {
	cs := connect(t, newTestBackend(t))

	d, txt := ok[searchOutput](t, cs, "list_decisions", map[string]any{"query": "outbox"})
	if len(d.Hits) == 0 || d.Hits[0].ConversationID != fixtureID || !strings.Contains(d.Hits[0].Rationale, "reordering") || d.Hits[0].Source != "portable" {
		t.Fatalf("decisions: %+v", d.Hits)
	}
	if !strings.Contains(txt, "because: ") || !strings.Contains(txt, "conversation_id: "+fixtureID) {
		t.Errorf("decisions text:\n%s", txt)
	}
	d, _ = ok[searchOutput](t, cs, "list_decisions", map[string]any{})
	if len(d.Hits) != mcpDecisionsDefault || !d.Truncated {
		t.Errorf("newest decisions: %d of %d, truncated %v", len(d.Hits), d.Total, d.Truncated)
	}
	for i := 1; i < len(d.Hits); i++ {
		if d.Hits[i].Date.After(d.Hits[i-1].Date) {
			t.Errorf("decisions not newest first: %v after %v", d.Hits[i].Date, d.Hits[i-1].Date)
		}
	}
	d, _ = ok[searchOutput](t, cs, "list_decisions", map[string]any{"project": "ledger", "since": "2025-02-01", "limit": 50})
	if len(d.Hits) == 0 {
		t.Error("no decision of project ledger since February")
	}
	for _, h := range d.Hits {
		if h.Project != "ledger" || h.Kind != "decision" {
			t.Errorf("decision %+v", h)
		}
	}

	tp, txt := ok[topicsOutput](t, cs, "list_topics", map[string]any{"project": "ledger"})
	if len(tp.Topics) == 0 || !strings.Contains(txt, "outbox replay") {
		t.Errorf("topics of ledger: %+v", tp)
	}
	tp, _ = ok[topicsOutput](t, cs, "list_topics", map[string]any{"limit": 1})
	if len(tp.Topics) != 1 || !tp.Truncated {
		t.Errorf("one topic: %+v", tp)
	}
	tp, _ = ok[topicsOutput](t, cs, "list_topics", map[string]any{"project": "no-such-project"})
	if tp.Topics == nil || len(tp.Topics) != 0 {
		t.Errorf("topics of an unknown project: %+v", tp)
	}

	r, txt := ok[searchOutput](t, cs, "related_conversations", map[string]any{"id": fixtureID})
	if len(r.Hits) == 0 {
		t.Fatalf("nothing related to the fixture:\n%s", txt)
	}
	for _, h := range r.Hits {
		if h.ConversationID == fixtureID {
			t.Error("a conversation is related to itself")
		}
	}
}

func TestMCPResource(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	ctx := context.Background()
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ConversationURI(fixtureID)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/markdown" {
		t.Fatalf("contents %+v", res.Contents)
	}
	md := res.Contents[0].Text
	for _, want := range []string{"# Replaying the ledger outbox", "project ledger", "decision: replay the outbox", "## #129 assistant", "more characters cut]"} {
		if !strings.Contains(md, want) {
			t.Errorf("resource lacks %q", want)
		}
	}
	if len(md) > mcpResourceBudget+mcpContentMax*2 {
		t.Errorf("resource of %d bytes", len(md))
	}
	for _, uri := range []string{"convsearch://conversation/nosuch", "convsearch://conversation/", "convsearch://other/x"} {
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("read %s: error %v, want not found", uri, err)
		}
	}
}

// TestMCPBadArguments checks every kind of mistake gets a tool error an
// agent can act on, and that the server goes on serving.
func TestMCPBadArguments(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	tests := []struct {
		tool string
		args map[string]any
		want string // in the error text
	}{
		{"search_conversations", map[string]any{"query": ""}, "query"},
		{"search_conversations", map[string]any{"query": "   "}, "query is empty"},
		{"search_conversations", map[string]any{}, "query"},
		{"search_conversations", map[string]any{"query": "x", "limit": 0}, "limit"},
		{"search_conversations", map[string]any{"query": "x", "limit": 51}, "limit"},
		{"search_conversations", map[string]any{"query": "x", "limit": -3}, "limit"},
		{"search_conversations", map[string]any{"query": "x", "limit": "ten"}, "limit"},
		{"search_conversations", map[string]any{"query": "x", "offset": -1}, "offset"},
		{"search_conversations", map[string]any{"query": "x", "since": "yesterday"}, "since"},
		{"search_conversations", map[string]any{"query": "x", "until": "2025-13-45"}, "until"},
		{"search_conversations", map[string]any{"query": "x", "since": "2025-03-02", "until": "2025-03-01"}, "before since"},
		{"search_conversations", map[string]any{"query": "x", "type": "bogus"}, "type"},
		{"search_conversations", map[string]any{"query": "x", "role": "robot"}, "role"},
		{"search_conversations", map[string]any{"query": "x", "role": "User"}, "use user"},
		{"search_conversations", map[string]any{"query": "x", "type": "messages"}, "use conversation"},
		{"search_conversations", map[string]any{"query": "x", "sort": "random"}, "sort"},
		{"search_conversations", map[string]any{"query": "x", "source": "bogus"}, `source "bogus" is unknown: use one of`},
		{"search_conversations", map[string]any{"query": `"unclosed phrase`}, "closing"},
		{"search_conversations", map[string]any{"query": "a OR"}, "OR needs"},
		{"search_conversations", map[string]any{"query": "x", "nosuch": 1}, "nosuch"},
		{"get_conversation", map[string]any{"id": "no-such-id"}, "ids come from search_conversations"},
		{"get_conversation", map[string]any{}, "id"},
		{"get_conversation", map[string]any{"id": " "}, "id is missing"},
		{"search_conversations", map[string]any{"query": "x", "limit": 2.5}, "limit"},
		{"list_topics", map[string]any{"project": []string{"a", "b"}}, "project"},
		{"get_conversation", map[string]any{"id": fixtureID, "message": 500}, "130 messages"},
		{"get_conversation", map[string]any{"id": fixtureID, "message": -1}, "message"},
		{"get_conversation", map[string]any{"id": fixtureID, "max_messages": 0}, "max_messages"},
		{"get_conversation", map[string]any{"id": fixtureID, "max_messages": 101}, "max_messages"},
		{"get_conversation", map[string]any{"id": fixtureID, "context": -2}, "context"},
		{"get_conversation", map[string]any{"id": 42}, "id"},
		{"list_decisions", map[string]any{"limit": 51}, "limit"},
		{"list_decisions", map[string]any{"since": "last tuesday"}, "since"},
		{"list_decisions", map[string]any{"query": "(unbalanced"}, "query syntax error"},
		{"list_topics", map[string]any{"limit": 101}, "limit"},
		{"list_topics", map[string]any{"limit": 0}, "limit"},
		{"list_decisions", map[string]any{"offset": -1}, "offset -1 out of range: 0 to 10000"},
		{"list_decisions", map[string]any{"offset": query.MaxOffset + 1}, "offset"},
		{"list_topics", map[string]any{"offset": -1}, "offset -1 out of range: 0 to 10000"},
		{"list_topics", map[string]any{"offset": query.MaxOffset + 1}, "offset"},
		{"related_conversations", map[string]any{"id": "no-such-id"}, "ids come from search_conversations"},
		{"related_conversations", map[string]any{"id": fixtureID, "limit": 21}, "limit"},
		{"related_conversations", map[string]any{}, "id"},
	}
	for _, tc := range tests {
		res := call(t, cs, tc.tool, tc.args)
		msg := text(res)
		if !res.IsError {
			t.Errorf("%s(%v): no error, got %.200s", tc.tool, tc.args, msg)
			continue
		}
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s(%v): error %q does not mention %q", tc.tool, tc.args, msg, tc.want)
		}
		t.Logf("%s(%v): %s", tc.tool, tc.args, msg)
		// Still serving.
		if res := call(t, cs, "list_topics", map[string]any{"limit": 1}); res.IsError {
			t.Fatalf("after %s(%v): %s", tc.tool, tc.args, text(res))
		}
	}
	// An unknown tool is a protocol error; the session survives it.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Error("unknown tool: no error")
	}
	if res := call(t, cs, "list_topics", map[string]any{"limit": 1}); res.IsError {
		t.Fatal("not serving after an unknown tool")
	}
}

// TestMCPOffsetMax: search_conversations pages as deep as the engine and
// the HTTP API do (query.MaxOffset), no shallower, and says how deep past it.
func TestMCPOffsetMax(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	for _, tc := range []struct {
		offset int
		want   string // in the error text; "" for an answer
	}{
		{query.MaxLimit, ""},
		{query.MaxLimit + 1, ""},
		{query.MaxOffset, ""},
		{query.MaxOffset + 1, fmt.Sprintf("0 to %d", query.MaxOffset)},
	} {
		res := call(t, cs, "search_conversations", map[string]any{"query": "outbox", "offset": tc.offset})
		if msg := text(res); res.IsError != (tc.want != "") || !strings.Contains(msg, tc.want) {
			t.Errorf("offset %d: error %v %.200q, want error %q", tc.offset, res.IsError, msg, tc.want)
		}
	}
}

// failing is a backend whose index fails or times out.
type failing struct {
	Backend
	err error
}

func (f failing) Search(context.Context, query.Request) (*query.Result, error) { return nil, f.err }

func TestMCPBackendErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, "took too long"},
		{errFake("disk on fire"), "disk on fire"},
	} {
		cs := connect(t, failing{Backend: newTestBackend(t), err: tc.err})
		res := call(t, cs, "search_conversations", map[string]any{"query": "outbox"})
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("backend error %v: %v %q", tc.err, res.IsError, text(res))
		}
	}
}

// TestMCPIndexing checks that answers given during the first indexing pass
// say they may be incomplete, in the structure and in the text, and that
// the others do not.
func TestMCPIndexing(t *testing.T) {
	b := newTestBackend(t)
	for _, indexing := range []bool{true, false} {
		cs := connectWith(t, b, Options{Indexing: func(context.Context) bool { return indexing }})
		for _, tc := range []struct {
			tool string
			args map[string]any
		}{
			{"search_conversations", map[string]any{"query": "outbox"}},
			{"search_conversations", map[string]any{"query": "zzqxnothing"}},
			{"list_decisions", map[string]any{}},
			{"list_topics", map[string]any{}},
			{"related_conversations", map[string]any{"id": fixtureID}},
		} {
			out, txt := ok[struct {
				Indexing *bool `json:"indexing"`
			}](t, cs, tc.tool, tc.args)
			got := out.Indexing != nil && *out.Indexing
			noted := strings.HasPrefix(txt, "Note: convsearch is still indexing")
			if got != indexing || noted != indexing {
				t.Errorf("indexing %v: %s(%v): indexing field %v, note in text %v", indexing, tc.tool, tc.args, got, noted)
			}
		}
		res := call(t, cs, "get_conversation", map[string]any{"id": "20990101-00000000"})
		if !res.IsError || strings.Contains(text(res), "still indexing") != indexing {
			t.Errorf("indexing %v: unknown id: error %v %q", indexing, res.IsError, text(res))
		}
	}
}

type errFake string

func (e errFake) Error() string { return string(e) }

func TestMCPHandler(t *testing.T) {
	ts := httptest.NewServer(Handler(newTestBackend(t), Options{}))
	defer ts.Close()
	ctx := context.Background()
	c := sdk.NewClient(&sdk.Implementation{Name: "http-client", Version: "0"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	out, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "outbox replay"})
	if len(out.Hits) == 0 {
		t.Error("no hits over HTTP")
	}

	// A page of another site may not call it from the user's browser.
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site request: status %d, want 403", resp.StatusCode)
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in       string
		n        int
		want     string
		wantsCut bool
	}{
		{"short", 10, "short", false},
		{"ééééé", 5, "ééééé", false},
		{"ééééééé", 5, "ééééé [… 2 more characters cut]", true},
		{"one two three four five six seven eight nine ten", 45, "one two three four five six seven eight nine [… 4 more characters cut]", true},
		{"abcdefghij", 4, "abcd [… 6 more characters cut]", true},
	} {
		got, cut := clip(tc.in, tc.n)
		if got != tc.want || cut != tc.wantsCut {
			t.Errorf("clip(%q, %d) = %q, %v; want %q, %v", tc.in, tc.n, got, cut, tc.want, tc.wantsCut)
		}
	}
}

// BenchmarkMCPSearch compares a search through the MCP server (SDK client,
// in-memory transport: the protocol's encoding and dispatch, no pipe) with
// the same query on the engine alone. cmd/convsearch's BenchmarkMCPStdio
// adds the pipe and a separate process.
func BenchmarkMCPSearch(b *testing.B) {
	l := newTestBackend(b)
	cs := connect(b, l)
	ctx := context.Background()
	for _, q := range []struct{ name, query string }{{"rare", "outbox replay"}, {"common", "billing lag"}} {
		b.Run("query="+q.name+"/path=bare", func(b *testing.B) {
			req := query.Request{Query: q.query, Limit: mcpSearchDefault, ExcludeHidden: true}
			calltime.Measure(b, func() {
				res, err := l.Search(ctx, req)
				if err != nil || len(res.Hits) == 0 {
					b.Fatal(err)
				}
			})
		})
		b.Run("query="+q.name+"/path=inmemory", func(b *testing.B) {
			args := map[string]any{"query": q.query}
			calltime.Measure(b, func() {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_conversations", Arguments: args})
				if err != nil || res.IsError {
					b.Fatal(err)
				}
			})
		})
	}
}

func TestMCPCompleteConversationID(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	ctx := context.Background()
	complete := func(ref *sdk.CompleteReference, name, value string) []string {
		t.Helper()
		res, err := cs.Complete(ctx, &sdk.CompleteParams{Ref: ref, Argument: sdk.CompleteParamsArgument{Name: name, Value: value}})
		if err != nil {
			t.Fatalf("complete %q: %v", value, err)
		}
		if res.Completion.Values == nil || len(res.Completion.Values) > 100 {
			t.Fatalf("complete %q: values %v", value, res.Completion.Values)
		}
		return res.Completion.Values
	}
	tpl := &sdk.CompleteReference{Type: "ref/resource", URI: "convsearch://conversation/{id}"}
	for _, typed := range []string{"20250301-5e", "ledger outb", "Replaying", ""} {
		if got := complete(tpl, "id", typed); !slices.Contains(got, fixtureID) {
			t.Errorf("complete %q: %v, want %s among them", typed, got, fixtureID)
		}
	}
	for _, typed := range []string{`"(`, "zzzzqqq"} {
		if got := complete(tpl, "id", typed); len(got) != 0 {
			t.Errorf("complete %q: %v, want nothing", typed, got)
		}
	}
	if got := complete(&sdk.CompleteReference{Type: "ref/prompt", Name: "nosuch"}, "x", "a"); len(got) != 0 {
		t.Errorf("prompt completion: %v", got)
	}
}

// bigBackend serves one generated conversation of n long messages, each
// with a long tool output.
type bigBackend struct {
	Backend
	c *conversation.Conversation
}

func (b bigBackend) Load(_ context.Context, id string) (*conversation.Conversation, bool, error) {
	if id != b.c.ID {
		return nil, false, query.ErrNotFound
	}
	c := *b.c
	return &c, false, nil
}

func newBig(n int) bigBackend {
	c := &conversation.Conversation{ID: "big", Source: "portable", Title: "A very long session"}
	for i := range n {
		c.Messages = append(c.Messages, conversation.Message{
			Index: i, Role: conversation.RoleAssistant, Content: strings.Repeat("word ", 2000),
			ToolResults: []conversation.ToolResult{{Content: strings.Repeat("log line\n", 500)}},
		})
	}
	return bigBackend{c: c}
}

// TestMCPSizeBudgets: a window and a resource stop at their budget however
// many messages they were asked for, and say where to read on.
func TestMCPSizeBudgets(t *testing.T) {
	cs := connect(t, newBig(3000))
	w, txt := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": "big", "max_messages": 100})
	if len(w.Messages) == 0 || len(w.Messages) >= 100 || !w.Truncated || w.NextMessage == nil || *w.NextMessage != len(w.Messages) {
		t.Errorf("window: %d messages, truncated %v, next %v", len(w.Messages), w.Truncated, w.NextMessage)
	}
	if len(txt) > 2*mcpWindowBudget {
		t.Errorf("window text of %d bytes", len(txt))
	}
	// The message asked for is there even past the budget.
	w, _ = ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": "big", "message": 2000, "context": 99, "max_messages": 100})
	if w.Last < 2000 || w.First > 2000 || w.First < 1901 || len(w.Messages) != w.Last-w.First+1 || w.Messages[2000-w.First].Index != 2000 {
		t.Errorf("window %d–%d (%d messages) around message 2000", w.First, w.Last, len(w.Messages))
	}
	if size := len(mustJSON(t, w)); size > 2*mcpWindowBudget {
		t.Errorf("window around message 2000: %d bytes", size)
	}
	res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: ConversationURI("big")})
	if err != nil {
		t.Fatal(err)
	}
	md := res.Contents[0].Text
	if len(md) > mcpResourceBudget+2*mcpContentMax || !strings.Contains(md, `Read on with get_conversation(id="big", offset=`) {
		t.Errorf("resource of %d bytes, ends %q", len(md), md[max(len(md)-200, 0):])
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFitHits: the answer keeps the most hits that fit mcpAnswerMax (what
// dropping the last hit one at a time finds), and at least one.
func TestFitHits(t *testing.T) {
	long := strings.Repeat("word ", 1000) // ~5 KB of text, twice in each answer
	for _, n := range []int{0, 1, 2, 7, 8, 9, 50} {
		for _, size := range []int{10, len(long)} {
			hits := make([]query.Hit, n)
			for i := range hits {
				hits[i] = query.Hit{ID: fmt.Sprintf("m/c/%d", i), Kind: indexer.KindMessage, Text: long[:size]}
			}
			render := func(out *searchOutput) func() string {
				return func() string {
					var b strings.Builder
					for _, h := range out.Hits {
						b.WriteString(h.Text)
					}
					return b.String()
				}
			}
			want := &searchOutput{Result: query.Result{Hits: slices.Clone(hits)}}
			for len(want.Hits) > 1 && answerSize(render(want)(), want) > mcpAnswerMax {
				want.Hits, want.Truncated = want.Hits[:len(want.Hits)-1], true
			}
			got := &searchOutput{Result: query.Result{Hits: slices.Clone(hits)}}
			text := fitHits(got, render(got))
			if len(got.Hits) != len(want.Hits) || got.Truncated != want.Truncated || text != render(want)() {
				t.Errorf("%d hits of %d bytes: kept %d (truncated %v), want %d (truncated %v)", n, size, len(got.Hits), got.Truncated, len(want.Hits), want.Truncated)
			}
			if len(got.Hits) > 1 && answerSize(text, got) > mcpAnswerMax {
				t.Errorf("%d hits of %d bytes: answer of %d bytes, over %d", n, size, answerSize(text, got), mcpAnswerMax)
			}
		}
	}
}

// TestMCPHeadBounded: a conversation with hundreds of long topics and
// decisions still answers under mcpAnswerMax with its messages in it, says
// how many it left out, and a read on moves on.
func TestMCPHeadBounded(t *testing.T) {
	b := newBig(3)
	long := strings.Repeat("a long reason that goes on ", 12)
	for i := range 300 {
		b.c.Topics = append(b.c.Topics, conversation.Topic{Name: fmt.Sprintf("topic %d %s", i, long)})
		b.c.Decisions = append(b.c.Decisions, conversation.Decision{Decision: fmt.Sprintf("decision %d %s", i, long), Rationale: long + long, MessageIndex: i % 3})
	}
	for i := range b.c.Messages {
		b.c.Messages[i].Content = "short"
		b.c.Messages[i].ToolResults = nil
	}
	cs := connect(t, b)
	w, txt := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": "big"})
	if size := answerSize(txt, &w); size > mcpAnswerMax {
		t.Errorf("answer of %d bytes, over %d", size, mcpAnswerMax)
	}
	if len(w.Messages) != 3 || w.NextMessage != nil {
		t.Errorf("%d messages, next %v: want all 3 beside the head", len(w.Messages), w.NextMessage)
	}
	if w.MoreTopics != 300-mcpNamesShown || w.MoreDecisions != 300-mcpDecisionsShown || !w.Truncated {
		t.Errorf("more topics %d, more decisions %d, truncated %v", w.MoreTopics, w.MoreDecisions, w.Truncated)
	}
	if !strings.Contains(txt, fmt.Sprintf("%d more decisions", 300-mcpDecisionsShown)) {
		t.Errorf("the text does not say decisions were left out")
	}
}

// TestMCPResourceList: resources/list names every conversation, newest
// first, each readable by its URI; the cursor pages it and a bad one is
// refused.
func TestMCPResourceList(t *testing.T) {
	ctx := context.Background()
	b := newTestBackend(t)
	cs := connect(t, b)
	all, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := b.Search(ctx, query.Request{Types: []string{indexer.KindConversation}, Sort: query.SortNewest, Limit: 100, NoHighlight: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Resources) != len(want.Hits) || len(all.Resources) < 10 || all.NextCursor != "" {
		t.Fatalf("%d resources (next cursor %q), want the %d conversations on one page", len(all.Resources), all.NextCursor, len(want.Hits))
	}
	for i, r := range all.Resources {
		h := want.Hits[i]
		if r.URI != ConversationURI(h.ConversationID) || r.Title != h.Title || r.MIMEType != "text/markdown" || !strings.HasPrefix(r.Description, h.Source) {
			t.Errorf("resource %d: %+v, want conversation %s %q of %s", i, r, h.ConversationID, h.Title, h.Source)
		}
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: all.Resources[0].URI}); err != nil {
		t.Errorf("reading the first listed resource: %v", err)
	}
	page, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: "3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Resources) != len(all.Resources)-3 || page.Resources[0].URI != all.Resources[3].URI {
		t.Errorf("cursor 3: %d resources, want the list from its 4th", len(page.Resources))
	}
	if _, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: "page-two"}); err == nil || !strings.Contains(err.Error(), "nextCursor") {
		t.Errorf("a cursor that is no offset: %v, want an error saying to pass nextCursor", err)
	}
}

// pagedBackend answers a conversation listing with a full page of a
// longer list.
type pagedBackend struct{ Backend }

func (pagedBackend) Search(_ context.Context, r query.Request) (*query.Result, error) {
	res := &query.Result{Total: 120}
	for i := r.Offset; i < min(r.Offset+r.Limit, 120); i++ {
		res.Hits = append(res.Hits, query.Hit{Kind: indexer.KindConversation, ConversationID: fmt.Sprintf("c%d", i), Source: "codex"})
	}
	return res, nil
}

func TestMCPResourceListPages(t *testing.T) {
	cs := connect(t, pagedBackend{})
	var ids []string
	cursor, pages := "", 0
	for {
		p, err := cs.ListResources(context.Background(), &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range p.Resources {
			ids = append(ids, r.Name)
		}
		if cursor = p.NextCursor; cursor == "" || pages > 5 {
			break
		}
	}
	if pages != 3 || len(ids) != 120 || ids[50] != "c50" || ids[119] != "c119" {
		t.Errorf("%d pages, %d resources (%v…), want 3 pages of the 120 in order", pages, len(ids), ids[:min(3, len(ids))])
	}
}

// TestListCall: the call an answer gives to read on names only the
// arguments given, strings quoted as JSON, so it can be sent as it is.
func TestListCall(t *testing.T) {
	two := 2
	for _, c := range []struct {
		q, project, since string
		limit             *int
		want              string
	}{
		{"", "", "", nil, "list_decisions(offset=10)"},
		{`say "hi"`, "ledger", "7d", &two, `list_decisions(query="say \"hi\"", project="ledger", since="7d", limit=2, offset=10)`},
	} {
		if got := listCall("list_decisions", c.q, c.project, c.since, "", c.limit, 10); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

// TestMCPNotice: what Options.Notice returns goes in front of the next
// answer (the daemon answering is another build), then no more.
func TestMCPNotice(t *testing.T) {
	b := newTestBackend(t)
	for _, notice := range []string{"", "the daemon of /d (pid 7) is another build of convsearch"} {
		pending := notice
		cs := connectWith(t, b, Options{Notice: func(context.Context) string { n := pending; pending = ""; return n }})
		for i := range 2 {
			res := call(t, cs, "search_conversations", map[string]any{"query": "outbox"})
			noted := strings.HasPrefix(text(res), "Note: "+notice+"\n\n")
			if want := notice != "" && i == 0; res.IsError || noted != want {
				t.Errorf("notice %q, call %d: error %v, noted %v, want %v: %q", notice, i, res.IsError, noted, want, firstLine(text(res)))
			}
		}
	}
}
