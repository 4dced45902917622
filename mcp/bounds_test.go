package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
)

// TestMCPContextNeedsMessage: context says how many messages before
// message a window starts; without a message to count from, or beside
// offset (which starts the window itself), it is refused rather than
// quietly ignored. A hit's id gives the message.
func TestMCPContextNeedsMessage(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	for _, tc := range []struct {
		args map[string]any
		want string // in the error; "" for an answer
		// first is the window's first message, for an answer.
		first int
	}{
		{map[string]any{"id": fixtureID, "context": 5}, "give message too", 0},
		{map[string]any{"id": fixtureID, "context": 0}, "give message too", 0},
		{map[string]any{"id": fixtureID, "offset": 4, "context": 2}, "not both", 0},
		{map[string]any{"id": fixtureID, "offset": 0, "context": 0}, "offset alone", 0},
		{map[string]any{"id": fixtureID, "message": 10, "context": 2}, "", 8},
		{map[string]any{"id": "m/" + fixtureID + "/10", "context": 3}, "", 7},
		{map[string]any{"id": fixtureID, "offset": 4}, "", 4},
		{map[string]any{"id": fixtureID, "message": 10, "context": 2, "char_offset": 0}, "without context", 0},
		{map[string]any{"id": fixtureID, "message": 10, "context": 2, "max_messages": 1}, "max_messages 3 or more", 0},
		{map[string]any{"id": fixtureID, "message": 10, "context": 0, "max_messages": 1}, "", 10},
	} {
		res := call(t, cs, "get_conversation", tc.args)
		msg := text(res)
		if tc.want != "" {
			if !res.IsError || !strings.Contains(msg, tc.want) {
				t.Errorf("%v: error %v, %.200q; want an error saying %q", tc.args, res.IsError, msg, tc.want)
			}
			continue
		}
		if res.IsError {
			t.Errorf("%v: %s", tc.args, msg)
			continue
		}
		w, _ := ok[conversationOutput](t, cs, "get_conversation", tc.args)
		if w.First != tc.first {
			t.Errorf("%v: window from message %d, want %d", tc.args, w.First, tc.first)
		}
	}
}

// TestMCPProjectHintAnyCase: a filter by project matches it in any case,
// so the hint after an empty answer does not call a project unknown when
// it exists in another case; it does for one that does not exist.
func TestMCPProjectHintAnyCase(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	const unknown = "No conversation has project"
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		unknown bool // the hint says the project is unknown
	}{
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "GENOME-BROWSER"}, false},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "Genome-Browser"}, false},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": " genome-browser "}, false},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "genome-browsers"}, true},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "nope"}, true},
		{"list_decisions", map[string]any{"query": "zzqxnomatch", "project": "GENOME-BROWSER"}, false},
		{"list_decisions", map[string]any{"query": "zzqxnomatch", "project": "NOPE"}, true},
		{"list_topics", map[string]any{"project": "NOPE"}, true},
	} {
		res := call(t, cs, tc.tool, tc.args)
		msg := text(res)
		if res.IsError {
			t.Errorf("%s(%v): %s", tc.tool, tc.args, msg)
			continue
		}
		if got := strings.Contains(msg, unknown); got != tc.unknown {
			t.Errorf("%s(%v): says the project is unknown: %v, want %v\n%s", tc.tool, tc.args, got, tc.unknown, msg)
		}
	}
	// The filter does match it in that case.
	w, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "coordinates", "project": "GENOME-BROWSER"})
	if len(w.Hits) == 0 {
		t.Errorf("project GENOME-BROWSER: no hit, want genome-browser's")
	}
}

// heavy is n characters of what JSON escapes to six bytes each.
func heavy(n int) string {
	return strings.Repeat("<&>", n/3+1)[:n]
}

// adversarialBackend indexes portable conversations whose explicit title,
// topics and decisions are long and full of <, > and &: what a file may
// hold, and what no answer may pass on whole.
func adversarialBackend(t *testing.T, n int) *query.Engine {
	t.Helper()
	root := t.TempDir()
	for k := range n {
		type decision struct {
			Decision  string `json:"decision"`
			Rationale string `json:"rationale"`
		}
		meta := struct {
			Project   string     `json:"project"`
			Topics    []string   `json:"topics"`
			Decisions []decision `json:"decisions"`
			Tags      []string   `json:"tags"`
			Summaries []string   `json:"summaries"`
		}{Project: "advproj"}
		for j := range 40 {
			meta.Topics = append(meta.Topics, fmt.Sprintf("t%d-%d %s", k, j, heavy(700)))
			meta.Tags = append(meta.Tags, fmt.Sprintf("tag%d %s", j, heavy(700)))
			meta.Decisions = append(meta.Decisions, decision{fmt.Sprintf("decide %d %s", j, heavy(900)), heavy(900)})
		}
		for j := range 8 {
			meta.Summaries = append(meta.Summaries, fmt.Sprintf("summary %d %s", j, heavy(3000)))
		}
		c := map[string]any{
			"id": fmt.Sprintf("adv-%02d", k), "date": fmt.Sprintf("2025-02-%02dT10:00:00Z", k%28+1),
			"title": fmt.Sprintf("title %d %s", k, heavy(5000)),
			"messages": []map[string]any{
				{"role": "user", "content": "advword " + heavy(12000)},
				{"role": "assistant", "content": "advword reply " + heavy(3000)},
				{"role": "user", "content": "short"},
			},
			"metadata": meta,
		}
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := convtest.WriteAtomic(filepath.Join(root, fmt.Sprintf("adv-%02d.json", k)), data); err != nil {
			t.Fatal(err)
		}
	}
	e, sum := convtest.Engine(t, root)
	if sum.Conversations != n {
		t.Fatalf("index: %+v", sum)
	}
	return e
}

// wireConnect is connect, with the size of every answer the server writes
// logged as the SDK encodes it for the wire.
func wireConnect(t *testing.T, b Backend) (*sdk.ClientSession, *wireLog) {
	t.Helper()
	ctx := context.Background()
	s := NewServer(b, Options{Version: "test"})
	st, ct := sdk.NewInMemoryTransports()
	wire := &wireLog{}
	ss, err := s.Connect(ctx, &sdk.LoggingTransport{Transport: st, Writer: wire}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, wire
}

// TestMCPAdversarialFit: on conversations whose title, topics, tags,
// summaries, decisions and messages are long and full of what JSON
// escapes, every answer holds mcpAnswerMax on the wire, says it was cut,
// and pages on with no entry repeated or skipped.
func TestMCPAdversarialFit(t *testing.T) {
	const convs = 24
	b := adversarialBackend(t, convs)
	cs, wire := wireConnect(t, b)
	ctx := context.Background()
	// fits checks the answer written after the first n.
	fits := func(t *testing.T, what string, n int) {
		t.Helper()
		if n := wire.since(t, n); n > mcpAnswerMax {
			t.Errorf("%s: %d bytes on the wire, over %d", what, n, mcpAnswerMax)
		}
	}

	t.Run("list_topics", func(t *testing.T) {
		all, err := b.Topics(ctx, query.TopicsRequest{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, tc := range all {
			name, _ := clip(tc.Name, mcpNameMax)
			want = append(want, name)
		}
		for _, limit := range []int{mcpTopicsMax, 37} {
			got, pages := convtest.FollowPages(t, 100, func(offset int) ([]string, int) {
				args := map[string]any{"limit": limit, "offset": offset}
				n := wire.count()
				w, txt := ok[topicsOutput](t, cs, "list_topics", args)
				fits(t, fmt.Sprintf("list_topics(%v)", args), n)
				var names []string
				for _, tc := range w.Topics {
					if utf8.RuneCountInString(tc.Name) > mcpNameMax+40 {
						t.Errorf("list_topics(%v): a name of %d characters", args, utf8.RuneCountInString(tc.Name))
					}
					names = append(names, tc.Name)
				}
				if !w.Truncated || (w.NextOffset > 0) != (offset+len(names) < len(want)) {
					t.Errorf("list_topics(%v): %d topics, truncated %v, next_offset %d", args, len(names), w.Truncated, w.NextOffset)
				}
				if w.NextOffset > 0 && !strings.Contains(txt, fmt.Sprintf("offset=%d)", w.NextOffset)) {
					t.Errorf("list_topics(%v): the text does not say how to read on", args)
				}
				return names, w.NextOffset
			})
			if !slices.Equal(got, want) {
				t.Errorf("limit %d: %d pages gave %d topics, want the %d in order", limit, pages, len(got), len(want))
			}
			if limit == mcpTopicsMax && pages <= len(want)/limit+1 {
				t.Errorf("limit %d: %d pages for %d topics: no page was cut to fit", limit, pages, len(want))
			}
		}
	})

	t.Run("resources/list", func(t *testing.T) {
		var got []string
		cursor, pages := "", 0
		for pages < 40 {
			n := wire.count()
			p, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			fits(t, "resources/list "+cursor, n)
			pages++
			for _, r := range p.Resources {
				if slices.Contains(got, r.Name) {
					t.Errorf("cursor %q repeats %s", cursor, r.Name)
				}
				if utf8.RuneCountInString(r.Title) > mcpFieldMax+40 {
					t.Errorf("%s: a title of %d characters", r.Name, utf8.RuneCountInString(r.Title))
				}
				got = append(got, r.Name)
			}
			if cursor = p.NextCursor; cursor == "" {
				break
			}
			if cursor != strconv.Itoa(len(got)) {
				t.Fatalf("next cursor %q after %d resources", cursor, len(got))
			}
		}
		slices.Sort(got)
		if len(got) != convs || pages < 2 || got[0] != "adv-00" || got[convs-1] != fmt.Sprintf("adv-%02d", convs-1) {
			t.Errorf("%d pages named %d conversations, want the %d, on more than one page", pages, len(got), convs)
		}
	})

	t.Run("get_conversation", func(t *testing.T) {
		for _, args := range []map[string]any{
			{"id": "adv-01"},
			{"id": "adv-01", "max_messages": 1},
			{"id": "adv-01", "max_messages": 100},
			{"id": "adv-01", "message": 0, "context": 0},
			{"id": "adv-01", "message": 1},
			{"id": "m/adv-01/1"},
			{"id": "adv-01", "offset": 1},
			{"id": "adv-01", "message": 0, "char_offset": 5},
		} {
			n := wire.count()
			w, txt := ok[conversationOutput](t, cs, "get_conversation", args)
			fits(t, fmt.Sprintf("get_conversation(%v)", args), n)
			if len(w.Messages) == 0 || !w.Truncated {
				t.Errorf("get_conversation(%v): %d messages, truncated %v", args, len(w.Messages), w.Truncated)
				continue
			}
			// Message 0 (12,000 characters that escape to six bytes each)
			// fits no window beside this head: it is read alone, cut to
			// the most that fits, not cut in a window of one message.
			if len(w.Messages) == 1 && len(w.Cut) > 0 {
				t.Errorf("get_conversation(%v): message %d cut in a window (%v), not read alone with next_char_offset", args, w.First, w.Cut)
			}
			// Whatever was cut, the answer says where to read on.
			if w.Last < w.MessageCount-1 && (w.NextMessage == nil || *w.NextMessage != w.Last+1) {
				t.Errorf("get_conversation(%v): messages %d–%d of %d, next_message %v", args, w.First, w.Last, w.MessageCount, w.NextMessage)
			}
			if len(allTexts(w.Messages[0])) < 1000 && strings.Contains(allTexts(w.Messages[0]), "more characters cut") {
				t.Errorf("get_conversation(%v): only %d characters of the message beside the head", args, len(allTexts(w.Messages[0])))
			}
			if !strings.Contains(txt, "get_conversation(") {
				t.Errorf("get_conversation(%v): the text does not say how to read on", args)
			}
		}
		// Paging with next_message covers every message once.
		var seen []int
		for offset := 0; offset >= 0 && len(seen) < 10; {
			n := wire.count()
			w, _ := ok[conversationOutput](t, cs, "get_conversation", map[string]any{"id": "adv-02", "offset": offset})
			fits(t, fmt.Sprintf("get_conversation(adv-02, offset %d)", offset), n)
			for _, m := range w.Messages {
				seen = append(seen, m.Index)
			}
			offset = -1
			if w.NextMessage != nil {
				offset = *w.NextMessage
			}
		}
		if !slices.Equal(seen, []int{0, 1, 2}) {
			t.Errorf("paging read messages %v, want 0, 1, 2", seen)
		}
	})

	t.Run("resources/read", func(t *testing.T) {
		for _, id := range []string{"adv-01", "m/adv-01/1", "m/adv-01/2"} {
			n := wire.count()
			res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ConversationURI(id)})
			if err != nil {
				t.Fatal(err)
			}
			fits(t, "resources/read "+id, n)
			if md := res.Contents[0].Text; id != "m/adv-01/2" && !strings.Contains(md, "get_conversation(") {
				t.Errorf("read %s: no word on where to read on", id)
			}
		}
	})
}
