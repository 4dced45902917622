package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// The contract of issue 14: one hit per conversation by default, filters,
// hit ids wherever a conversation id goes, plain snippets, answers that fit
// an agent's context.

func TestMCPSearchGroupsAndFilters(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	grouped, txt := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "billing lag", "limit": 50})
	seen := map[string]bool{}
	for _, h := range grouped.Hits {
		if seen[h.ConversationID] {
			t.Errorf("default search: conversation %s twice", h.ConversationID)
		}
		seen[h.ConversationID] = true
		if h.Count < 1 {
			t.Errorf("grouped hit %s: count %d", h.ID, h.Count)
		}
	}
	if len(grouped.Hits) == 0 || !strings.Contains(txt, "the best of each conversation") {
		t.Fatalf("default search: %d hits, text %q", len(grouped.Hits), firstLine(txt))
	}
	all, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "billing lag", "group": false, "limit": 50})
	if len(all.Hits) <= len(grouped.Hits) {
		t.Errorf("group=false: %d hits, want more than the %d conversations", len(all.Hits), len(grouped.Hits))
	}

	for _, tc := range []struct {
		name string
		args map[string]any
		want func(h query.Hit) bool
	}{
		{"conversation id", map[string]any{"query": "billing", "conversation_id": fixtureID, "group": false},
			func(h query.Hit) bool { return h.ConversationID == fixtureID }},
		{"hit id as conversation", map[string]any{"query": "billing", "conversation_id": indexer.MessageDocID(fixtureID, 6), "group": false},
			func(h query.Hit) bool { return h.ConversationID == fixtureID }},
		{"project, source, dates", map[string]any{"query": "outbox", "project": "ledger", "source": "portable", "since": "2025-03-01", "until": "2025-03-02"},
			func(h query.Hit) bool { return h.Project == "ledger" && h.Source == "portable" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := ok[searchOutput](t, cs, "search_conversations", tc.args)
			if len(out.Hits) == 0 {
				t.Fatalf("%v: no hits", tc.args)
			}
			for _, h := range out.Hits {
				if !tc.want(h) {
					t.Errorf("hit %s (%s, %s, %s) does not pass the filter", h.ID, h.ConversationID, h.Project, h.Source)
				}
			}
		})
	}
}

func TestMCPSnippetsArePlain(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	res := call(t, cs, "search_conversations", map[string]any{"query": "boot tickets", "group": false, "limit": 20})
	raw, _ := json.Marshal(res.StructuredContent)
	for _, bad := range []string{"<mark>", "&lt;", "&#34;", `"fragments"`} {
		if strings.Contains(string(raw), bad) {
			t.Errorf("structured answer holds %q", bad)
		}
	}
	out, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "boot tickets", "group": false, "limit": 20})
	var code bool
	for _, h := range out.Hits {
		for _, sn := range h.Snippets {
			code = code || strings.Contains(sn.Text, "b <- boot(")
			n := utf8.RuneCountInString(sn.Text)
			for _, m := range sn.Matches {
				if m[0] < 0 || m[1] > n || m[0] >= m[1] {
					t.Fatalf("snippet %q: match %v out of range", sn.Text, m)
				}
				word := strings.ToLower(string([]rune(sn.Text)[m[0]:m[1]]))
				if !strings.HasPrefix(word, "boot") && !strings.HasPrefix(word, "ticket") {
					t.Errorf("snippet %q: match %v is %q", sn.Text, m, word)
				}
			}
		}
	}
	if !code {
		t.Errorf("no snippet holds the R code as written (b <- boot()")
	}
}

func TestMCPHitIDsEverywhere(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	hit := indexer.MessageDocID(fixtureID, 6)

	w, _ := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": hit})
	if w.ID != fixtureID || w.First > 6 || w.Last < 6 {
		t.Errorf("get_conversation(%s): %s messages %d–%d", hit, w.ID, w.First, w.Last)
	}
	rel, _ := ok[searchOutput](t, cs, "related_conversations", map[string]any{"id": hit})
	for _, h := range rel.Hits {
		if h.ConversationID == fixtureID {
			t.Errorf("related_conversations(%s) lists the conversation itself", hit)
		}
	}
	for _, id := range []string{hit, indexer.ConversationDocID(fixtureID)} {
		rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: ConversationURI(id)})
		if err != nil {
			t.Fatalf("read %s: %v", ConversationURI(id), err)
		}
		if txt := rr.Contents[0].Text; !strings.Contains(txt, "id "+fixtureID) {
			t.Errorf("read %s: %.200s", id, txt)
		}
	}
	// Unescaped, as an agent may write it.
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: ConversationURIPrefix + url.PathEscape(fixtureID)}); err != nil {
		t.Errorf("read by conversation id: %v", err)
	}
}

// TestMCPHiddenMatches checks that a search finding nothing says when
// hidden messages (left out by default) would match, and how to see them.
func TestMCPHiddenMatches(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	for _, tc := range []struct {
		args   map[string]any
		hits   bool
		hidden uint64
	}{
		// "pg16" is only in the fixture's hidden environment block (#0).
		{map[string]any{"query": "pg16"}, false, 1},
		{map[string]any{"query": "pg16", "role": "system"}, false, 1},
		{map[string]any{"query": "pg16", "role": "system", "group": false}, false, 1},
		{map[string]any{"query": "pg16", "include_hidden": true}, true, 0},
		{map[string]any{"query": "pg16", "role": "user"}, false, 0},
		{map[string]any{"query": "zzqxnothing"}, false, 0},
	} {
		out, txt := ok[searchOutput](t, cs, "search_conversations", tc.args)
		if (len(out.Hits) > 0) != tc.hits || out.HiddenMatches != tc.hidden {
			t.Errorf("search_conversations(%v): %d hits, hidden_matches %d; want hits %v, hidden_matches %d", tc.args, len(out.Hits), out.HiddenMatches, tc.hits, tc.hidden)
		}
		if hint := strings.Contains(txt, "pass include_hidden:true"); hint != (tc.hidden > 0) || (hint && !strings.Contains(txt, fmt.Sprintf("%d hidden message", tc.hidden))) {
			t.Errorf("search_conversations(%v): text %q, want a hint %v", tc.args, txt, tc.hidden > 0)
		}
	}
}

// TestMCPListWithFilter: search_conversations without a query lists what a
// filter keeps, as the command line and the API do; without either it is
// refused.
func TestMCPListWithFilter(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	out, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"conversation_id": fixtureID, "group": false, "type": "message"})
	if len(out.Hits) == 0 {
		t.Fatalf("search_conversations(conversation_id) without a query: no hits")
	}
	for _, h := range out.Hits {
		if h.ConversationID != fixtureID {
			t.Errorf("hit %s of %s, want only %s", h.ID, h.ConversationID, fixtureID)
		}
	}
	if res := call(t, cs, "search_conversations", map[string]any{"limit": 3}); !res.IsError || !strings.Contains(text(res), "or a filter") {
		t.Errorf("search_conversations without a query or a filter: %q, want an error naming the filters", text(res))
	}
}

// TestMCPResourceURIs checks that a conversation resource is read with the
// id as an agent copies it (a hit's id with its slashes, escaped or not),
// and that a missing one is the specification's not-found error saying
// what was not found.
func TestMCPResourceURIs(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	hit := indexer.MessageDocID(fixtureID, 6)
	for _, uri := range []string{
		ConversationURIPrefix + fixtureID,
		ConversationURIPrefix + hit, // m/ID/6, unescaped
		ConversationURIPrefix + url.PathEscape(hit),
		ConversationURIPrefix + indexer.ConversationDocID(fixtureID),
	} {
		rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if txt := rr.Contents[0].Text; !strings.Contains(txt, "id "+fixtureID) || rr.Contents[0].URI != uri {
			t.Errorf("read %s: uri %s, %.200s", uri, rr.Contents[0].URI, txt)
		}
	}
	for _, tc := range []struct{ uri, says string }{
		{ConversationURIPrefix + "nosuch", `no conversation with id "nosuch"`},
		{ConversationURIPrefix + "m/nosuch/3", `no such conversation: m/nosuch/3; give the conversation_id alone`},
		{ConversationURIPrefix, "no conversation id after"},
		{ConversationURIPrefix + "%20", "no conversation id after"},
		{"convsearch://other/x", "conversations only"},
	} {
		_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: tc.uri})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "resource not found") || !strings.Contains(je.Message, tc.says) {
			t.Errorf("read %s: error %v, want code %d saying %q", tc.uri, err, jsonrpc.CodeInvalidParams, tc.says)
			continue
		}
		if !strings.Contains(string(je.Data), tc.uri) {
			t.Errorf("read %s: data %s does not name the URI", tc.uri, je.Data)
		}
	}
}

func TestMCPConversationPaging(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	var next, pages int
	seen := map[int]bool{}
	for {
		w, _ := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "offset": next, "max_messages": 50})
		pages++
		if len(w.Messages) == 0 || w.First != next || w.Messages[0].Index != next {
			t.Fatalf("offset %d: window %d–%d", next, w.First, w.Last)
		}
		for _, m := range w.Messages {
			if seen[m.Index] {
				t.Errorf("message %d on two pages", m.Index)
			}
			seen[m.Index] = true
		}
		if w.NextMessage == nil {
			break
		}
		next = *w.NextMessage
		if pages > 130 {
			t.Fatal("paging does not end")
		}
	}
	if len(seen) != 130 {
		t.Errorf("paging read %d of 130 messages", len(seen))
	}
	res := call(t, cs, "get_conversation", map[string]any{"id": fixtureID, "offset": 1, "message": 2})
	if !res.IsError || !strings.Contains(text(res), "not both") {
		t.Errorf("offset and message: %s", text(res))
	}
}

// TestMCPReadOnHint checks that the text of a window says to read on the
// one way the tool description documents: offset=next_message.
func TestMCPReadOnHint(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	for _, args := range []map[string]any{
		{"id": fixtureID},
		{"id": fixtureID, "message": 50, "context": 2, "max_messages": 5},
		{"id": fixtureID, "offset": 40, "max_messages": 30},
		{"id": indexer.MessageDocID(fixtureID, 6)},
	} {
		w, txt := ok[conversationOutput](t, cs, "get_conversation", args)
		if w.NextMessage == nil {
			t.Fatalf("get_conversation(%v): no next_message", args)
		}
		want := fmt.Sprintf("get_conversation(id=%q, offset=%d)", fixtureID, *w.NextMessage)
		if !strings.Contains(txt, want) || strings.Contains(txt, "context=0") {
			t.Errorf("get_conversation(%v): text does not say %s:\n%s", args, want, txt[max(len(txt)-300, 0):])
		}
	}
}

// TestMCPAnswersFit checks that the largest answers stay under 20k tokens
// (some 4 bytes a token), text and structured content together.
func TestMCPAnswersFit(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"get_conversation", map[string]any{"id": fixtureID, "max_messages": mcpWindowMax}},
		{"get_conversation", map[string]any{"id": fixtureID, "message": 7, "context": 50, "max_messages": mcpWindowMax}},
		{"search_conversations", map[string]any{"query": "billing OR outbox OR the", "group": false, "limit": mcpSearchMax}},
		{"list_decisions", map[string]any{"limit": mcpDecisionsMax}},
		{"related_conversations", map[string]any{"id": fixtureID, "limit": mcpRelatedMax}},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if res.IsError {
			t.Fatalf("%s(%v): %s", tc.tool, tc.args, text(res))
		}
		data, _ := json.Marshal(res.StructuredContent)
		if n := len(text(res)) + len(data); n > mcpAnswerMax {
			t.Errorf("%s(%v): %d bytes, over %d", tc.tool, tc.args, n, mcpAnswerMax)
		}
	}

	// A conversation far larger than any answer: 400 messages of 4000
	// characters with quotes and angle brackets (which JSON may escape).
	big := hugeBackend{newTestBackend(t)}
	cs = connect(t, big)
	w, txt := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": fixtureID, "max_messages": mcpWindowMax})
	if n := answerSize(txt, &w); n > mcpAnswerMax || len(w.Messages) < 5 || !w.Truncated || w.NextMessage == nil {
		t.Errorf("big get_conversation: %d bytes, %d messages, truncated %v", n, len(w.Messages), w.Truncated)
	}
	rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: ConversationURI(fixtureID)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rr.Contents[0].Text); n > mcpAnswerMax || !strings.Contains(rr.Contents[0].Text, "Read on with get_conversation") {
		t.Errorf("big resource: %d bytes (cap %d), or no word on where to read on", n, mcpAnswerMax)
	}
}

// hugeBackend loads every conversation as one huge conversation.
type hugeBackend struct{ *query.Engine }

func (b hugeBackend) Load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	c, fromIndex, err := b.Engine.Load(ctx, id)
	if err != nil {
		return nil, false, err
	}
	c.Messages = nil
	line := strings.Repeat(`if a < b && c > "d" { x(); } `, 140)
	for i := range 400 {
		c.Messages = append(c.Messages, conversation.Message{Index: i, Role: conversation.RoleAssistant, Content: line[:3990]})
	}
	return c, fromIndex, nil
}

// TestMCPDerivedShown checks that a conversation shows the decisions and
// topics search finds for it, derived ones included.
func TestMCPDerivedShown(t *testing.T) {
	b := newTestBackend(t)
	cs := connect(t, b)
	ctx := context.Background()
	res, err := b.Search(ctx, query.Request{Types: []string{"decision"}, Limit: 1000, Sort: query.SortNewest})
	if err != nil {
		t.Fatal(err)
	}
	var derived *query.Hit
	for i, h := range res.Hits {
		if h.ConversationID != fixtureID {
			derived = &res.Hits[i]
			break
		}
	}
	if derived == nil {
		t.Fatal("no decision outside the fixture to check")
	}
	w, txt := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": derived.ConversationID})
	var found bool
	for _, d := range w.Decisions {
		found = found || d.Decision == derived.Text
	}
	if !found || !strings.Contains(txt, "decision: ") {
		t.Errorf("get_conversation(%s): decisions %+v, want %q", derived.ConversationID, w.Decisions, derived.Text)
	}
}

// longMessages is a conversation with messages longer than any answer.
func longMessages() bigBackend {
	c := &conversation.Conversation{ID: "long", Source: "portable", Title: "Long messages"}
	add := func(m conversation.Message) {
		m.Index, m.Role = len(c.Messages), conversation.RoleAssistant
		c.Messages = append(c.Messages, m)
	}
	add(conversation.Message{Content: "hello"})
	// 360,000 characters, some of them several bytes long and some that
	// JSON escapes.
	var b strings.Builder
	for i := 0; b.Len() < 500000; i++ {
		fmt.Fprintf(&b, "line %d: naïve café ☕ \"quoted\" <tag> 日本語\n", i)
	}
	add(conversation.Message{Content: string([]rune(b.String())[:360000])})
	add(conversation.Message{Content: strings.Repeat("six kilobytes of text ", 280)})
	add(conversation.Message{
		Thinking:    strings.Repeat("ponder ", 500),
		Content:     strings.Repeat("answer ", 1000),
		ToolCalls:   []conversation.ToolCall{{Name: "Bash", Arguments: `{"command": "` + strings.Repeat("x", 3000) + `"}`}},
		ToolResults: []conversation.ToolResult{{Name: "Bash", Content: strings.Repeat("output line\n", 5000)}},
	})
	add(conversation.Message{Content: "bye"})
	return bigBackend{c: c}
}

var partMarks = regexp.MustCompile(`^\[… \d+ characters before this part\] ?|( ?\[… \d+ more characters cut\])$`)

// allTexts is the texts of m in char_offset order, markers taken out.
func allTexts(m conversation.Message) string {
	var b strings.Builder
	for _, p := range messageTexts(&m) {
		b.WriteString(partMarks.ReplaceAllString(*p, ""))
	}
	return b.String()
}

// TestMCPReadLongMessage checks that every message can be read to its end,
// part by part from where its window cut it, each answer under the budget
// and saying which call reads the next part.
func TestMCPReadLongMessage(t *testing.T) {
	b := longMessages()
	cs := connect(t, b)
	for _, tc := range []struct {
		name     string
		message  int
		maxCalls int
	}{
		{"360,000 characters", 1, 20},
		{"6 KB", 2, 2},
		{"thinking, text, tool call and result", 3, 4},
		{"short", 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := allTexts(b.c.Messages[tc.message])
			w, _ := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": "long", "message": tc.message, "context": 0, "max_messages": 2})
			// Where the window cut the message, if it did.
			var read strings.Builder
			from := -1
			for _, cm := range w.Cut {
				if cm.Message == tc.message {
					from = cm.CharOffset
				}
			}
			if from < 0 {
				if got := allTexts(w.Messages[0]); got != want {
					t.Fatalf("window: message not cut, but %d of %d characters", len([]rune(got)), len([]rune(want)))
				}
				from = len([]rune(want))
			} else {
				read.WriteString(string([]rune(want)[:from]))
			}
			args := map[string]any{"id": "long", "message": tc.message, "char_offset": from}
			if from == len([]rune(want)) {
				args = map[string]any{"id": "long", "message": tc.message, "max_messages": 1}
			}
			for calls := 1; ; calls++ {
				if calls > tc.maxCalls {
					t.Fatalf("more than %d calls to read the message", tc.maxCalls)
				}
				w, txt := ok[conversationOutput](t, cs, "get_conversation", args)
				if n := answerSize(txt, &w); n > mcpAnswerMax {
					t.Errorf("get_conversation(%v): %d bytes, over %d", args, n, mcpAnswerMax)
				}
				if len(w.Messages) != 1 || w.Messages[0].Index != tc.message || w.MessageChars != len([]rune(want)) {
					t.Fatalf("get_conversation(%v): %d messages, message_chars %d", args, len(w.Messages), w.MessageChars)
				}
				if _, ok := args["char_offset"]; ok {
					read.WriteString(allTexts(w.Messages[0]))
				} else {
					read.Reset()
					read.WriteString(allTexts(w.Messages[0]))
				}
				if w.NextCharOffset == nil {
					if tc.message < len(b.c.Messages)-1 && !strings.Contains(txt, fmt.Sprintf("get_conversation(id=%q, offset=%d)", "long", tc.message+1)) {
						t.Errorf("get_conversation(%v): the end of the message, but the text does not say how to read on:\n%s", args, txt[max(len(txt)-300, 0):])
					}
					break
				}
				next := fmt.Sprintf("get_conversation(id=%q, message=%d, char_offset=%d)", "long", tc.message, *w.NextCharOffset)
				if !strings.Contains(txt, next) || !w.Truncated {
					t.Errorf("get_conversation(%v): truncated %v, text does not say %s:\n%s", args, w.Truncated, next, txt[max(len(txt)-300, 0):])
				}
				args = map[string]any{"id": "long", "message": tc.message, "char_offset": *w.NextCharOffset}
			}
			if got := read.String(); got != want {
				t.Errorf("read %d characters, want the %d of the message", len([]rune(got)), len([]rune(want)))
			}
		})
	}

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"id": "long", "message": 0, "char_offset": 5}, "past its end"},
		{map[string]any{"id": "long", "message": 2, "char_offset": -1}, "char_offset"},
		{map[string]any{"id": "long", "char_offset": 10}, "give message"},
		{map[string]any{"id": "long", "message": 9, "char_offset": 0}, "5 messages"},
	} {
		res := call(t, cs, "get_conversation", tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("get_conversation(%v): error %v %q, want it to say %q", tc.args, res.IsError, text(res), tc.want)
		}
	}
}
