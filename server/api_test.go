package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// apiBackend answers every call with a small fixed answer: these tests are
// about what the handlers accept, not what the index holds.
type apiBackend struct{ Backend }

// Search finds nothing, but for a search within conversations: those
// Load knows, one conversation hit each, and a query.NoHitError for a
// message's id past its conversation's end, as the engine answers.
func (apiBackend) Search(_ context.Context, r query.Request) (*query.Result, error) {
	res := &query.Result{Hits: []query.Hit{}}
	seen := map[string]bool{}
	for _, id := range r.Conversations {
		conv, msg := query.ConversationID(id)
		n, ok := apiConversations[conv]
		if !ok || seen[conv] {
			continue
		}
		if msg >= n {
			return nil, &query.NoHitError{ID: id, ConversationID: conv, Kind: indexer.KindMessage, N: msg, Count: n}
		}
		seen[conv] = true
		res.Hits = append(res.Hits, query.Hit{ID: indexer.ConversationDocID(conv), Kind: indexer.KindConversation, ConversationID: conv})
	}
	res.Total = uint64(len(res.Hits))
	return res, nil
}

// apiConversations are the conversations apiBackend knows, by their number
// of messages.
var apiConversations = map[string]int{"c1": 5, "long": longMessages, "empty": 0}

// Load knows c1, of five messages, long, of longMessages, and empty.
func (apiBackend) Load(_ context.Context, id string) (*conversation.Conversation, bool, error) {
	conv, _ := query.ConversationID(id)
	n, ok := apiConversations[conv]
	if !ok {
		return nil, false, query.ErrNotFound
	}
	c := &conversation.Conversation{ID: conv, Title: fmt.Sprintf("%d messages", n)}
	for i := range n {
		c.Messages = append(c.Messages, conversation.Message{Index: i, Role: conversation.RoleUser, Content: "m"})
	}
	return c, false, nil
}

// longMessages is more than a page of a conversation by default.
const longMessages = 250

func (apiBackend) Topics(context.Context, query.TopicsRequest) ([]query.TopicCount, error) {
	return []query.TopicCount{}, nil
}

// Decisions refuses what the engine refuses: it runs decisions as a search.
func (apiBackend) Decisions(_ context.Context, r query.DecisionsRequest) (*query.Result, error) {
	s := query.Request{Query: r.Query, Since: r.Since, Until: r.Until, Limit: r.Limit}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &query.Result{Hits: []query.Hit{}}, nil
}

func (apiBackend) Related(context.Context, string, int) (*query.Result, error) {
	return &query.Result{Hits: []query.Hit{}}, nil
}

// Stats holds a source no parser writes, as a portable file may keep.
func (apiBackend) Stats(context.Context) (*indexer.Stats, error) {
	return &indexer.Stats{BySource: map[string]uint64{"my-export": 1}}, nil
}

func (apiBackend) AddContext(context.Context, []query.Hit, int) error { return nil }

func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "127.0.0.1:7788"
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

func TestAPIRejectsMistakes(t *testing.T) {
	h := NewHandler(HandlerOptions{Backend: apiBackend{}})
	// A hit's sort values, as --json prints them.
	after := "IAEYQA,bS9jLzE"
	for _, tc := range []struct {
		target string
		status int
		says   string // in the error, when status is 400
	}{
		{"/api/search?q=x", 200, ""},
		{"/api/search", 400, "the query is empty"},
		{"/api/search?q=%20%20", 400, "the query is empty"},
		{"/api/search?q=&sort=newest&facets=1", 400, "the query is empty"},
		{"/api/search?type=conversation&sort=newest", 200, ""},
		{"/api/search?project=ledger", 200, ""},
		{"/api/search?q=conversation:abc", 400, "conversation: is not a field"},
		{"/api/search?q=x&limit=0", 400, "limit 0 out of range"},
		{"/api/search?q=x&limit=-3", 400, "limit -3 out of range"},
		{"/api/search?q=x&limit=1001", 400, "limit 1001 out of range"},
		{"/api/search?q=x&limit=ten", 400, "not a whole number"},
		{"/api/search?q=x&offset=-1", 400, "negative"},
		{"/api/search?q=x&lmit=5", 400, `unknown parameter "lmit"`},
		{"/api/search?q=x&sort=newest&after=" + after, 200, ""},
		{"/api/search?q=x&sort=newest&after=IAEYQA&after=bS9jLzE", 200, ""},
		{"/api/search?q=x&sort=newest&after=garbage", 400, "after"},
		{"/api/search?q=x&sort=newest&after=%21%21,%21%21", 400, "after"},
		{"/api/search?q=x&after=" + after, 400, "after pages results sorted newest or oldest"},
		{"/api/search?q=x&sort=sideways", 400, "sort"},
		{"/api/search?q=x&group=maybe", 400, "not a boolean"},
		{"/api/search?q=x&context=51", 400, "context 51 out of range"},
		{"/api/search?q=x&since=yesterdayish", 400, "since"},
		{"/api/search?q=x&since=2025-06-11&until=2025-06-11", 200, ""},
		{"/api/search?q=x&since=2025-06-12&until=2025-06-11", 400, "is before since"},
		{"/api/decisions?limit=0", 400, "limit 0 out of range"},
		{"/api/decisions?q=x&sort=newest", 400, `unknown parameter "sort"`},
		{"/api/decisions?since=2026-01-01&until=2020-01-01", 400, "is before since"},
		{"/api/decisions?since=2020-01-01&until=2026-01-01", 200, ""},
		{"/api/search?q=x&since=2026-01-01&until=2020-01-01", 400, "is before since"},
		{"/api/topics?limit=0", 400, "limit 0 out of range"},
		{"/api/topics?projct=x", 400, `unknown parameter "projct"`},
		{"/api/topics?project=x&limit=5", 200, ""},
		{"/api/conversations/c1/related?limit=0", 400, "limit 0 out of range"},
		{"/api/conversations/c1/related?n=3", 400, `unknown parameter "n"`},
		{"/api/conversations/c1?limit=0", 400, "limit 0 out of range"},
		{"/api/conversations/c1?offset=-2", 400, "negative"},
		{"/api/conversations/c1?page=2", 400, `unknown parameter "page"`},
		{"/api/conversations/c1?offset=1&limit=2", 200, ""},
		{"/api/conversations/long?limit=1001", 400, "limit 1001 out of range: 1 to 1000"},
		{"/api/conversations/nope", 404, ""},
		{"/api/stats?verbose=1", 400, `unknown parameter "verbose"`},
		{"/api/search?q=x&sort=newest&after=,,,", 400, "after"},
		{"/api/search?q=x&sort=newest&after=%20", 400, "after"},
		{"/api/search?q=x&q=y", 400, `"q" given 2 times`},
		// Both wrong: the unknown one is named, whatever order a map gives.
		{"/api/search?q=x&q=y&zz=1", 400, `unknown parameter "zz"`},
		{"/api/search?q=x&q=y&limit=2&limit=3", 400, `"limit" given 2 times`},
		{"/api/search?q=x&type=message&type=topic", 200, ""},
		{"/api/conversations/c1?offset=9", 400, "past the last message"},
		{"/api/conversations/c1?offset=4", 200, ""},
		{"/api/conversations/c1/view?around=-5", 400, "negative"},
		// The view refuses an offset or a message past the end as the
		// page of messages does.
		{"/api/conversations/c1/view?offset=9", 400, "offset 9 is past the last message"},
		{"/api/conversations/c1/view?around=999", 400, "no message 999 (0 to 4)"},
		{"/api/conversations/c1/view?around=5", 400, "no message 5 (0 to 4)"},
		{"/api/conversations/c1/view?around=4", 200, ""},
		{"/api/conversations/c1/view?around=0", 200, ""},
		{"/api/conversations/c1/view?around=3&offset=1", 400, "give offset or around, not both"},
		{"/api/conversations/c1/view?around=3&limit=2", 200, ""},
		{"/healthz?nonce=" + strings.Repeat("n", 129), 400, "nonce of 129 bytes: at most 128"},
		{"/healthz?nonce=" + strings.Repeat("n", 128), 200, ""},
		{"/api/conversations/empty/view?around=0", 200, ""}, // the page opens any conversation so
		{"/api/conversations/empty/view?around=3", 400, "no message 3 (the conversation has none)"},
		{"/api/conversations/empty", 200, ""},
		{"/api/status?bogus=1", 400, `unknown parameter "bogus"`},
		{"/api/overview?bogus=1", 400, `unknown parameter "bogus"`},
		// A source neither a parser writes nor the index holds is refused,
		// as an unknown role or type is, naming those that are.
		{"/api/search?q=mutex&source=bogus", 400, `source "bogus" is unknown: use one of aider,`},
		{"/api/search?q=mutex&source=bogus", 400, "my-export"},
		{"/api/search?q=mutex&source=codex,bogus", 400, `source "bogus"`},
		{"/api/search?q=mutex&source=Claude-Code", 200, ""},
		{"/api/search?q=mutex&source=my-export", 200, ""},
		{"/api/decisions?source=bogus", 400, `source "bogus" is unknown`},
		{"/api/decisions?q=x&source=codex", 200, ""},
		{"/api/topics?source=bogus", 400, `source "bogus" is unknown`},
		// A hit's id with a negative number is no conversation's id.
		{"/api/conversations/m%2Fc1%2F-1", 400, `message number -1 of "m/c1/-1" is negative`},
		{"/api/conversations/d%2Fc1%2F-2/view", 400, "decision number -2"},
		{"/api/conversations/m%2Fc1%2F-1/related", 400, "message number -1"},
	} {
		code, body := get(t, h, tc.target)
		if code != tc.status {
			t.Errorf("GET %s: %d %s, want %d", tc.target, code, strings.TrimSpace(body), tc.status)
			continue
		}
		if tc.status == 400 {
			var e ErrorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.Contains(e.Error, tc.says) {
				t.Errorf("GET %s: error %q, want it to say %q", tc.target, body, tc.says)
			}
		}
	}
}

func post(t *testing.T, h http.Handler, target, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	req.Host = "127.0.0.1:7788"
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// TestAPIRejectsBodyMistakes: the POST endpoints refuse unknown parameters
// and keys as the GET ones do; a sync must not become a pass over every
// root because the roots were given under another name.
func TestAPIRejectsBodyMistakes(t *testing.T) {
	dir := t.TempDir()
	var synced [][]string
	h := NewHandler(HandlerOptions{Backend: apiBackend{}, Sync: func(_ context.Context, roots []string) (any, error) {
		synced = append(synced, roots)
		return map[string]int{"seen": 0}, nil
	}})
	roots := fmt.Sprintf(`{"roots": [%q]}`, dir)
	for _, tc := range []struct {
		target, body string
		status       int
		says         string // in the error, when status is 400
	}{
		{"/api/sync", roots, 200, ""},
		{"/api/sync", "", 200, ""}, // every root
		{"/api/sync", "{}", 200, ""},
		{"/api/sync?bogus=1", `{"paths":["/tmp"]}`, 400, `unknown parameter "bogus"`},
		{"/api/sync?bogus=1", roots, 400, `{"roots"`},
		{"/api/sync", `{"paths":["/tmp"]}`, 400, `unknown key "paths" in the request body: this endpoint takes roots`},
		{"/api/sync", fmt.Sprintf(`{"Roots": [%q]}`, dir), 400, `unknown key "Roots"`},
		{"/api/sync", fmt.Sprintf(`{"roots": [%q], "force": true}`, dir), 400, `unknown key "force"`},
		{"/api/sync", `["/tmp"]`, 400, "want one JSON object"},
		{"/api/sync", roots + `{"roots": ["/"]}`, 400, "want one JSON object"},
		{"/api/sync", `{"roots": "/tmp"}`, 400, "request body"},
		{"/api/context", `{"hits": [], "context": 2}`, 200, ""},
		// A hit as a search returned it, whatever its fields.
		{"/api/context", `{"hits": [{"kind": "message", "id": "m/c1/1", "fragments": ["x"], "new_field": 1}], "context": 2}`, 200, ""},
		{"/api/context?n=3", `{"hits": [], "context": 2}`, 400, `unknown parameter "n"`},
		{"/api/context", `{"hits": [], "context": 2, "n": 3}`, 400, `unknown key "n" in the request body: this endpoint takes hits, context`},
		{"/api/context", `{"hits": [], "context": 51}`, 400, "context 51 out of range"},
		{"/api/context", `{"hits": [{"kind": "message", "id": "m/c1/1", "message_index": 1}, {"kind": "message", "id": "m/c1/-4", "message_index": -4}], "context": 2}`,
			400, "hit 1: message_index -4 is negative"},
	} {
		before := len(synced)
		code, body := post(t, h, tc.target, tc.body)
		if code != tc.status {
			t.Errorf("POST %s %s: %d %s, want %d", tc.target, tc.body, code, strings.TrimSpace(body), tc.status)
			continue
		}
		if tc.status == 400 {
			var e ErrorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.Contains(e.Error, tc.says) {
				t.Errorf("POST %s %s: error %q, want it to say %q", tc.target, tc.body, body, tc.says)
			}
			if len(synced) != before {
				t.Errorf("POST %s %s: refused, yet synced %q", tc.target, tc.body, synced[before:])
			}
		}
	}
}

func TestAPIConversationPages(t *testing.T) {
	h := NewHandler(HandlerOptions{Backend: apiBackend{}})
	for _, tc := range []struct {
		query                    string
		total, first, n, nextOff int
		focus                    int // -1: none
	}{
		{"c1", 5, 0, 5, 0, -1}, // a default page holds it all
		{"c1?limit=2", 5, 0, 2, 2, -1},
		{"c1?offset=2&limit=2", 5, 2, 2, 4, -1},
		{"c1?offset=4&limit=2", 5, 4, 1, 0, -1},
		{"c1?offset=3", 5, 3, 2, 0, -1},
		// A hit's id: the page holds the hit, two messages before it in view.
		{"m%2Fc1%2F4?limit=2", 5, 2, 2, 4, 4},
		{"m%2Fc1%2F1?limit=2", 5, 0, 2, 2, 1},
		{"m%2Fc1%2F4", 5, 2, 3, 0, 4},
		{"m%2Fc1%2F4?offset=0&limit=2", 5, 0, 2, 2, 4}, // an offset given is kept
		// A long conversation comes a page at a time unless asked for more.
		{"long", longMessages, 0, DefaultPage, DefaultPage, -1},
		{"long?offset=100", longMessages, 100, DefaultPage, 200, -1},
		{"long?offset=200", longMessages, 200, 50, 0, -1},
		{"long?limit=1000", longMessages, 0, longMessages, 0, -1},
		{"long?offset=10&limit=20", longMessages, 10, 20, 30, -1},
		{"m%2Flong%2F240", longMessages, 238, 12, 0, 240},
	} {
		code, body := get(t, h, "/api/conversations/"+tc.query)
		var l Loaded
		if code != 200 || json.Unmarshal([]byte(body), &l) != nil {
			t.Fatalf("%s: %d %s", tc.query, code, body)
		}
		msgs := l.Conversation.Messages
		if l.MessageCount != tc.total || l.Offset != tc.first || len(msgs) != tc.n || l.NextOffset != tc.nextOff ||
			(tc.n > 0 && msgs[0].Index != tc.first) {
			t.Errorf("%s: offset %d, %d messages of %d, next %d; want offset %d, %d messages of %d, next %d",
				tc.query, l.Offset, len(msgs), l.MessageCount, l.NextOffset, tc.first, tc.n, tc.total, tc.nextOff)
		}
		focus := -1
		if l.Focus != nil {
			focus = *l.Focus
		}
		if focus != tc.focus {
			t.Errorf("%s: focus %d, want %d", tc.query, focus, tc.focus)
		}
	}
}

// TestReadyzIndexing: /readyz tells a first pass over an index no pass
// completed (answers may miss conversations) from one over a complete index.
func TestReadyzIndexing(t *testing.T) {
	for _, tc := range []struct {
		ready, indexing bool
		status          int
	}{
		{false, true, 503},
		{false, false, 503},
		{true, false, 200},
	} {
		h := NewHandler(HandlerOptions{Backend: apiBackend{}, Ready: func() bool { return tc.ready }, Indexing: func() bool { return tc.indexing }})
		code, body := get(t, h, "/readyz")
		var out struct {
			Ready    bool  `json:"ready"`
			Indexing *bool `json:"indexing"`
		}
		if code != tc.status || json.Unmarshal([]byte(body), &out) != nil || out.Ready != tc.ready || out.Indexing == nil || *out.Indexing != tc.indexing {
			t.Errorf("ready %v, indexing %v: %d %s", tc.ready, tc.indexing, code, body)
		}
	}
}

// TestAPIContextHits: POST /api/context answers a hit it can place, one
// given by its id alone included, and refuses one it cannot, naming it: a
// 400 for a hit that names no conversation, a 404 for a conversation or
// message the index does not hold (a stale hit past the end too).
func TestAPIContextHits(t *testing.T) {
	h := NewHandler(HandlerOptions{Backend: contextBackend{}})
	for _, tc := range []struct {
		name, hits string
		status     int
		says       string // in the answer: the error, or the context's first message
	}{
		{"a message hit", `{"kind": "message", "id": "m/c1/2", "conversation_id": "c1", "message_index": 2}`, 200, `"context":[{"index":1`},
		{"by its id alone", `{"id": "m/c1/2"}`, 200, `"context":[{"index":1`},
		{"by its id, with its kind", `{"kind": "message", "id": "m/long/100"}`, 200, `"context":[{"index":99`},
		{"a conversation hit", `{"kind": "conversation", "id": "c/c1", "conversation_id": "c1"}`, 200, `"conversation_id":"c1"`},
		{"no conversation and no id", `{"kind": "message", "message_index": 3}`, 400, "hit 0: no conversation_id and no id"},
		{"an id that is no hit's", `{"id": "c1"}`, 400, `hit 0: no conversation_id, and id "c1" is no hit's id`},
		{"a message hit without its index", `{"kind": "message", "conversation_id": "c1"}`, 400, "hit 0: a message hit of conversation c1 without message_index"},
		{"no such conversation", `{"kind": "message", "id": "m/nope/1", "conversation_id": "nope", "message_index": 1}`, 404, `hit 0 (conversation "nope"): no such conversation`},
		{"by the id of no conversation", `{"id": "m/nope/1"}`, 404, `hit 0 (conversation "nope")`},
		{"past the end", `{"kind": "message", "id": "m/c1/5000", "conversation_id": "c1", "message_index": 5000}`, 404, "hit 0: conversation c1 has 5 messages (0 to 4); no message 5000"},
		{"past the end, second", `{"id": "m/c1/1"}, {"id": "m/long/250"}`, 404, "hit 1: conversation long has 250 messages (0 to 249); no message 250 (m/long/250); it may be stale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := post(t, h, "/api/context", `{"hits": [`+tc.hits+`], "context": 1}`)
			var e ErrorBody
			if code != 200 && json.Unmarshal([]byte(body), &e) == nil {
				body = e.Error
			}
			if code != tc.status || !strings.Contains(body, tc.says) {
				t.Errorf("POST /api/context %s: %d %s, want %d and %q", tc.hits, code, strings.TrimSpace(body), tc.status, tc.says)
			}
		})
	}
}

// contextBackend is apiBackend whose AddContext gives message hits the
// indexes of the messages around them.
type contextBackend struct{ apiBackend }

func (contextBackend) AddContext(_ context.Context, hits []query.Hit, n int) error {
	for i := range hits {
		h := &hits[i]
		if h.Kind != indexer.KindMessage || h.MessageIndex == nil {
			continue
		}
		for j := max(*h.MessageIndex-n, 0); j <= min(*h.MessageIndex+n, apiConversations[h.ConversationID]-1); j++ {
			h.Context = append(h.Context, query.StoredMessage{Index: j, Role: "user", Content: "m"})
		}
	}
	return nil
}

// pagingBackend holds 7 decisions and 7 topics, and pages them: decisions
// say their next_offset, as the engine's search does.
type pagingBackend struct{ apiBackend }

func (pagingBackend) Decisions(_ context.Context, r query.DecisionsRequest) (*query.Result, error) {
	res := &query.Result{Total: 7, Hits: []query.Hit{}}
	for i := r.Offset; i < min(r.Offset+r.Limit, 7); i++ {
		res.Hits = append(res.Hits, query.Hit{ID: fmt.Sprintf("d/c%d/0", i), Kind: indexer.KindDecision})
	}
	res.NextOffset, _ = query.NextOffset(query.Request{Offset: r.Offset, Limit: r.Limit}, res, len(res.Hits))
	return res, nil
}

func (pagingBackend) Topics(_ context.Context, r query.TopicsRequest) ([]query.TopicCount, error) {
	out := []query.TopicCount{}
	for i := r.Offset; i < min(r.Offset+r.Limit, 7); i++ {
		out = append(out, query.TopicCount{Name: fmt.Sprintf("t%d", i), Conversations: 1})
	}
	return out, nil
}

// TestAPIPagesDecisionsAndTopics: a page of decisions that others follow
// says where the next starts (next_offset), a page of topics in the
// X-Next-Offset header (the answer is a bare list); an offset negative or
// deeper than search's is a 400.
func TestAPIPagesDecisionsAndTopics(t *testing.T) {
	h := NewHandler(HandlerOptions{Backend: pagingBackend{}})
	for _, tc := range []struct {
		target string
		status int
		next   string // next_offset, or the header; "" for none
		says   string // in the error, when status is 400
	}{
		{"/api/decisions?limit=2", 200, "2", ""},
		{"/api/decisions?limit=2&offset=4", 200, "6", ""},
		{"/api/decisions?limit=2&offset=6", 200, "", ""},
		{"/api/decisions?limit=7", 200, "", ""},
		{"/api/decisions?offset=9", 200, "", ""},
		{"/api/decisions?offset=-1", 400, "", "offset -1 out of range: 0 to 10000"},
		{"/api/decisions?offset=10001", 400, "", "offset 10001 out of range"},
		{"/api/decisions?offset=x", 400, "", "not a whole number"},
		{"/api/topics?limit=2", 200, "2", ""},
		{"/api/topics?limit=2&offset=4", 200, "6", ""},
		{"/api/topics?limit=2&offset=5", 200, "", ""},
		{"/api/topics?limit=7", 200, "", ""},
		{"/api/topics?offset=-1", 400, "", "offset -1 out of range"},
		{"/api/topics?offset=10001", 400, "", "offset 10001 out of range"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, tc.target, nil)
		req.Host = "127.0.0.1:7788"
		h.ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("%s: %d %s, want %d saying %q", tc.target, rec.Code, body, tc.status, tc.says)
			continue
		}
		if rec.Code != 200 {
			continue
		}
		next := rec.Header().Get("X-Next-Offset")
		if strings.HasPrefix(tc.target, "/api/decisions") {
			var a struct {
				NextOffset int `json:"next_offset"`
			}
			if err := json.Unmarshal([]byte(body), &a); err != nil {
				t.Fatal(err)
			}
			next = ""
			if a.NextOffset != 0 {
				next = fmt.Sprint(a.NextOffset)
			}
		}
		if next != tc.next {
			t.Errorf("%s: next offset %q, want %q", tc.target, next, tc.next)
		}
	}
}
