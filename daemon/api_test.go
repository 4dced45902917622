package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

// The genome browser example holds decisions, topics and a dozen messages.
const (
	genomeID   = "20251209-8e331780"
	genomeWord = "coordinates"
)

func examplesDaemon(t *testing.T, token string) *testDaemon {
	t.Helper()
	root, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	return startTestDaemon(t, root, token)
}

// get fetches path from the test server and returns the status and body.
func get(t *testing.T, d *testDaemon, path string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, d.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

func decode[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("answer is not the JSON expected: %v\n%s", err, body)
	}
	return v
}

func TestAPI(t *testing.T) {
	d := examplesDaemon(t, "")
	kinds := func(want ...string) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			res := decode[query.Result](t, body)
			if len(res.Hits) == 0 {
				t.Fatal("no hits")
			}
			if len(res.Hits) == 0 {
				t.Errorf("no hits: the checks on each hit below would check nothing")
			}
			for _, h := range res.Hits {
				if !slices.Contains(want, h.Kind) {
					t.Errorf("hit %s of kind %s, want one of %v", h.ID, h.Kind, want)
				}
			}
		}
	}
	isError := func(substr string) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			e := decode[server.ErrorBody](t, body)
			if !strings.Contains(e.Error, substr) {
				t.Errorf("error %q does not mention %q", e.Error, substr)
			}
		}
	}
	cases := []struct {
		name   string
		path   string
		status int
		check  func(*testing.T, []byte)
	}{
		{"search", "/api/search?q=" + genomeWord, 200, func(t *testing.T, body []byte) {
			res := decode[query.Result](t, body)
			if res.Total == 0 || res.Query != genomeWord {
				t.Fatalf("total %d, query %q", res.Total, res.Query)
			}
			if !strings.Contains(strings.Join(res.Hits[0].Fragments, " "), "<mark>"+genomeWord+"</mark>") {
				t.Errorf("first hit's fragments %q are not highlighted", res.Hits[0].Fragments)
			}
		}},
		{"type filter", "/api/search?q=" + genomeWord + "&type=decision", 200, kinds("decision")},
		{"types comma-separated", "/api/search?q=" + genomeWord + "&type=message,conversation", 200, kinds("message", "conversation")},
		{"types repeated", "/api/search?q=" + genomeWord + "&type=message&type=topic", 200, kinds("message", "topic")},
		{"role filter", "/api/search?q=" + genomeWord + "&role=user", 200, func(t *testing.T, body []byte) {
			if len(decode[query.Result](t, body).Hits) == 0 {
				t.Errorf("no hits: the checks on each hit below would check nothing")
			}
			for _, h := range decode[query.Result](t, body).Hits {
				if h.Role != "user" {
					t.Errorf("hit %s has role %q", h.ID, h.Role)
				}
			}
		}},
		{"source and project", "/api/search?q=" + genomeWord + "&source=portable&project=genome-browser", 200, func(t *testing.T, body []byte) {
			res := decode[query.Result](t, body)
			if res.Total == 0 {
				t.Fatal("no hits")
			}
			if len(res.Hits) == 0 {
				t.Errorf("no hits: the checks on each hit below would check nothing")
			}
			for _, h := range res.Hits {
				if h.Source != "portable" || h.Project != "genome-browser" {
					t.Errorf("hit %s from %s/%s", h.ID, h.Source, h.Project)
				}
			}
		}},
		{"facets", "/api/search?q=" + genomeWord + "&facets=1", 200, func(t *testing.T, body []byte) {
			res := decode[query.Result](t, body)
			for _, f := range []string{"type", "source", "project"} {
				if len(res.Facets[f]) == 0 {
					t.Errorf("no %s facet in %v", f, res.Facets)
				}
			}
		}},
		{"context", "/api/search?q=" + genomeWord + "&type=message&context=1", 200, func(t *testing.T, body []byte) {
			if len(decode[query.Result](t, body).Hits) == 0 {
				t.Errorf("no hits: the checks on each hit below would check nothing")
			}
			for _, h := range decode[query.Result](t, body).Hits {
				if len(h.Context) < 2 {
					t.Errorf("hit %s has %d context messages, want 2 or 3", h.ID, len(h.Context))
				}
			}
		}},
		{"group and limit", "/api/search?q=type:message&group&limit=2", 200, func(t *testing.T, body []byte) {
			res := decode[query.Result](t, body)
			if len(res.Hits) != 2 || res.Hits[0].ConversationID == res.Hits[1].ConversationID {
				t.Errorf("group: %d hits, want 2 of different conversations", len(res.Hits))
			}
		}},
		{"since in the future", "/api/search?q=" + genomeWord + "&since=2200-01-01", 200, func(t *testing.T, body []byte) {
			if res := decode[query.Result](t, body); res.Total != 0 {
				t.Errorf("%d hits after 2200", res.Total)
			}
		}},
		{"nothing to search for", "/api/search?q=the", 400, isError("nothing to search for")},
		{"bad sort", "/api/search?q=x&sort=random", 400, isError("sort")},
		{"bad limit", "/api/search?q=x&limit=many", 400, isError("limit")},
		{"limit too large", "/api/search?q=x&limit=5000", 400, isError("limit")},
		{"bad since", "/api/search?q=x&since=yesterday", 400, isError("since")},
		{"bad boolean", "/api/search?q=x&group=maybe", 400, isError("group")},
		{"bad context", "/api/search?q=x&context=99", 400, isError("context")},
		{"bad type", "/api/search?q=x&type=email", 400, isError("email")},
		{"syntax error", "/api/search?q=" + url.QueryEscape(`"unclosed`), 400, func(t *testing.T, body []byte) {
			e := decode[server.ErrorBody](t, body)
			if e.Pos == nil || !strings.Contains(e.Error, "syntax") {
				t.Errorf("syntax error answer %s has no position", body)
			}
		}},
		{"conversation", "/api/conversations/" + genomeID, 200, func(t *testing.T, body []byte) {
			l := decode[server.Loaded](t, body)
			if l.Conversation == nil || l.Conversation.ID != genomeID || len(l.Conversation.Messages) == 0 || l.FromIndex {
				t.Errorf("conversation answer %+v", l)
			}
		}},
		{"no such conversation", "/api/conversations/nope", 404, isError("nope")},
		{"related", "/api/conversations/" + genomeID + "/related?limit=3", 200, func(t *testing.T, body []byte) {
			res := decode[query.Result](t, body)
			if len(res.Hits) == 0 {
				t.Errorf("no hits: the checks on each hit below would check nothing")
			}
			for _, h := range res.Hits {
				if h.ConversationID == genomeID {
					t.Error("a conversation is related to itself")
				}
			}
		}},
		{"topics", "/api/topics?limit=5", 200, func(t *testing.T, body []byte) {
			if ts := decode[[]query.TopicCount](t, body); len(ts) == 0 || len(ts) > 5 {
				t.Errorf("%d topics, want 1 to 5", len(ts))
			}
		}},
		{"decisions", "/api/decisions?q=" + genomeWord, 200, kinds("decision")},
		{"decisions bad limit", "/api/decisions?limit=0", 400, isError("limit")},
		{"decisions until before since", "/api/decisions?since=2026-01-01&until=2020-01-01", 400, isError("is before since")},
		{"stats", "/api/stats", 200, func(t *testing.T, body []byte) {
			if s := decode[indexer.Stats](t, body); s.Documents == 0 || s.ByKind["conversation"] < 10 {
				t.Errorf("stats %+v", s)
			}
		}},
		{"status", "/api/status", 200, func(t *testing.T, body []byte) {
			s := decode[map[string]any](t, body)
			if s["ready"] != true || s["daemon"] == nil {
				t.Errorf("status %s", body)
			}
		}},
		{"unknown endpoint", "/api/nope", 404, isError("no such API endpoint")},
		{"wrong method", "/api/sync", 405, isError("takes POST")},
		// What one request may cost is bounded (each once a crash or 3.5 GB).
		{"offset too deep", "/api/search?q=x&offset=9223372036854775807", 400, isError("too deep")},
		{"too many prefixes", "/api/search?q=" + url.QueryEscape(strings.Repeat("a* ", 100)), 400, isError("too many prefix")},
		{"query too long", "/api/search?q=" + strings.Repeat("x", query.MaxQueryBytes+1), 400, isError("too long")},
		{"far since", "/api/search?q=" + genomeWord + "&since=2562048h", 200, func(t *testing.T, body []byte) {
			if res := decode[query.Result](t, body); res.Total == 0 {
				t.Error("since 292 years ago found nothing: the duration wrapped around")
			}
		}},
		{"healthz", "/healthz", 200, func(t *testing.T, body []byte) {
			if h := decode[server.Health](t, body); h.Status != "ok" || h.PID == 0 || h.DataDir != d.dir || !h.Ready {
				t.Errorf("healthz %+v", h)
			}
		}},
		{"readyz", "/readyz", 200, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, hdr, body := get(t, d, tc.path)
			if status != tc.status {
				t.Fatalf("GET %s: status %d, want %d\n%s", tc.path, status, tc.status, body)
			}
			if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("GET %s: Content-Type %q", tc.path, ct)
			}
			if tc.check != nil {
				tc.check(t, body)
			}
		})
	}
}

func TestPage(t *testing.T) {
	d := examplesDaemon(t, "")
	for _, tc := range []struct{ path, ctype, contains string }{
		{"/", "text/html", `src="app.js"`},
		{"/?q=anything", "text/html", `id="q"`},
		{"/app.js", "javascript", "function fragment"},
		{"/style.css", "text/css", "prefers-color-scheme: dark"},
		{"/favicon.svg", "image/svg", "<svg"},
	} {
		status, hdr, body := get(t, d, tc.path)
		if status != 200 || !strings.Contains(hdr.Get("Content-Type"), tc.ctype) || !strings.Contains(string(body), tc.contains) {
			t.Errorf("GET %s: %d %s, body has %q: %v", tc.path, status, hdr.Get("Content-Type"), tc.contains, strings.Contains(string(body), tc.contains))
		}
		if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", tc.path, csp)
		}
	}
}

func TestTokenAndHosts(t *testing.T) {
	const token = "s3cret-token"
	d := examplesDaemon(t, token)
	if status, hdr, body := get(t, d, "/api/search?q=x"); status != 401 || hdr.Get("WWW-Authenticate") == "" {
		t.Errorf("no token: %d %s", status, body)
	}
	if status, _, body := get(t, d, "/api/search?q=x", "Authorization", "Bearer wrong"); status != 401 {
		t.Errorf("wrong token: %d %s", status, body)
	}
	if status, _, body := get(t, d, "/api/search?q=x", "Authorization", "Bearer "+token); status != 200 {
		t.Errorf("right token: %d %s", status, body)
	}
	// A token does not open the API to other host names (DNS rebinding):
	// only a daemon listening beyond loopback serves them.
	if status, _, body := get(t, d, "/api/stats", "Authorization", "Bearer "+token, "Host", "convsearch.example:80"); status != 403 {
		t.Errorf("right token, other host: %d %s", status, body)
	}
	// /healthz answers anyone, but tells who it is only to the token holder.
	_, _, body := get(t, d, "/healthz")
	if h := decode[server.Health](t, body); h.Status != "ok" || h.PID != 0 || h.DataDir != "" {
		t.Errorf("healthz without the token tells %+v", h)
	}
	_, _, body = get(t, d, "/healthz", "Authorization", "Bearer "+token)
	if h := decode[server.Health](t, body); h.PID == 0 {
		t.Errorf("healthz with the token tells %+v", h)
	}
	// The page itself holds no data.
	if status, _, _ := get(t, d, "/"); status != 200 {
		t.Errorf("page without token: %d", status)
	}

	open := examplesDaemon(t, "")
	for host, want := range map[string]int{"localhost:7788": 200, "127.0.0.1": 200, "[::1]:80": 200, "evil.example": 403, "evil.example:7788": 403, "10.0.0.1:80": 403} {
		if status, _, body := get(t, open, "/api/stats", "Host", host); status != want {
			t.Errorf("no token, Host %s: %d, want %d: %s", host, status, want, body)
		}
	}
}

func TestSyncEndpoint(t *testing.T) {
	d := examplesDaemon(t, "")
	resp, err := http.Post(d.srv.URL+"/api/sync", "text/plain", strings.NewReader(`{"roots":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain sync: %d, want 415", resp.StatusCode)
	}
	// A mistyped key or parameter is refused, not read as "every root".
	for _, target := range []string{"/api/sync?bogus=1", "/api/sync"} {
		resp, err := http.Post(d.srv.URL+target, "application/json", strings.NewReader(`{"paths":["/tmp"]}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "roots") {
			t.Errorf("POST %s with paths: %d %s, want 400 naming roots", target, resp.StatusCode, body)
		}
	}
	sum, err := d.client.Sync(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Seen == 0 || sum.Parsed != 0 || sum.Unchanged+sum.Skipped != sum.Seen {
		t.Errorf("sync of unchanged roots: %+v", sum.Progress)
	}

	// Roots the daemon would walk with the user's rights are vetted.
	dir := t.TempDir()
	many := make([]string, server.MaxSyncRoots+1)
	for i := range many {
		many[i] = dir
	}
	for _, tc := range []struct {
		roots []string
		want  string
	}{
		{[]string{""}, "empty root"},
		{[]string{"relative/dir"}, "not an absolute path"},
		{[]string{"/"}, "whole filesystem"},
		{[]string{"/proc/self"}, "virtual"},
		{many, "at most"},
	} {
		_, err := d.client.Sync(context.Background(), tc.roots)
		var ae *APIError
		if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || !strings.Contains(ae.Message, tc.want) {
			t.Errorf("sync %.60q: %v, want 400 %q", tc.roots, err, tc.want)
		}
	}
	// Repeats are walked once.
	sum, err = d.client.Sync(context.Background(), []string{dir, dir + "/", dir})
	if err != nil || sum.Seen != 0 {
		t.Errorf("sync of one empty root given three times: %v %+v", err, sum)
	}
	// A root that does not exist fails as a file does, as without a
	// daemon; the others are indexed.
	nope := filepath.Join(dir, "nope")
	if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"id": "conv-sync", "messages": [{"role": "user", "content": "okapis are shy"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err = d.client.Sync(context.Background(), []string{nope, dir})
	if err != nil || sum.Failed != 1 || len(sum.Errors) != 1 || !strings.Contains(sum.Errors[0].String(), nope) || sum.Parsed != 1 {
		t.Errorf("sync of a missing root and a valid one: %v %+v", err, sum)
	}
}

// TestClient checks the HTTP client answers as the index does.
func TestClient(t *testing.T) {
	d := examplesDaemon(t, "tok")
	ctx := context.Background()
	c, l := d.client, d.engine

	req := query.Request{Query: genomeWord, Facets: true, Types: []string{"message", "decision"}, Since: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
	want, err := l.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != want.Total || !reflect.DeepEqual(ids(got.Hits), ids(want.Hits)) || !reflect.DeepEqual(got.Facets, want.Facets) {
		t.Errorf("client search: total %d hits %v facets %v\nlocal: total %d hits %v facets %v", got.Total, ids(got.Hits), got.Facets, want.Total, ids(want.Hits), want.Facets)
	}

	if err := c.AddContext(ctx, got.Hits, 1); err != nil {
		t.Fatal(err)
	}
	if err := l.AddContext(ctx, want.Hits, 1); err != nil {
		t.Fatal(err)
	}
	for i := range got.Hits {
		if !reflect.DeepEqual(got.Hits[i].Context, want.Hits[i].Context) {
			t.Errorf("hit %s: context differs", got.Hits[i].ID)
		}
	}

	conv, fromIndex, err := c.Load(ctx, genomeID)
	if err != nil || fromIndex || conv.ID != genomeID || len(conv.Messages) == 0 {
		t.Fatalf("load: %v %v %+v", err, fromIndex, conv)
	}
	if _, _, err := c.Load(ctx, "no/such id"); !errors.Is(err, query.ErrNotFound) {
		t.Errorf("load of a missing conversation: %v, want ErrNotFound", err)
	}

	topics, err := c.Topics(ctx, query.TopicsRequest{Limit: 7})
	if err != nil {
		t.Fatal(err)
	}
	wantTopics, _ := l.Topics(ctx, query.TopicsRequest{Limit: 7})
	if !reflect.DeepEqual(topics, wantTopics) {
		t.Errorf("topics %v, want %v", topics, wantTopics)
	}

	dec, err := c.Decisions(ctx, query.DecisionsRequest{Query: genomeWord, Limit: 3})
	if err != nil || len(dec.Hits) == 0 {
		t.Fatalf("decisions: %v %+v", err, dec)
	}
	rel, err := c.Related(ctx, genomeID, 3)
	if err != nil || len(rel.Hits) == 0 {
		t.Fatalf("related: %v %+v", err, rel)
	}
	st, err := c.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if wantSt, _ := l.Stats(ctx); st.Documents != wantSt.Documents {
		t.Errorf("stats: %d documents, want %d", st.Documents, wantSt.Documents)
	}
	if ready, err := c.Ready(ctx); err != nil || !ready {
		t.Errorf("ready: %v %v", ready, err)
	}
	// A bad request comes back as an APIError.
	_, err = c.Search(ctx, query.Request{Query: "x", Sort: "sideways"})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 400 {
		t.Errorf("bad request: %v, want an APIError 400", err)
	}
}

func ids(hits []query.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

// fakeIngester records what it is asked.
type fakeIngester struct {
	reconciled [][]string
	synced     [][]string
}

func (f *fakeIngester) Reconcile(ctx context.Context, roots []string) (*ingest.Summary, error) {
	f.reconciled = append(f.reconciled, roots)
	return &ingest.Summary{}, nil
}

func (f *fakeIngester) Sync(ctx context.Context, paths []string) (*ingest.Summary, error) {
	f.synced = append(f.synced, paths)
	return &ingest.Summary{}, nil
}

// TestLongConversation: the API sends a long conversation a page at a time;
// the client (show, MCP through the daemon) still loads it whole, a hit's
// id included.
func TestLongConversation(t *testing.T) {
	root := t.TempDir()
	texts := make([]string, server.MaxPage+234)
	for i := range texts {
		texts[i] = fmt.Sprintf("message %d about quokkas", i)
	}
	if err := convtest.WriteAtomic(filepath.Join(root, "long.json"), convtest.Portable("long", "Quokkas", texts...)); err != nil {
		t.Fatal(err)
	}
	d := startTestDaemon(t, root, "")

	status, _, body := get(t, d, "/api/conversations/long")
	l := decode[server.Loaded](t, body)
	if status != 200 || l.MessageCount != len(texts) || len(l.Conversation.Messages) != server.DefaultPage || l.NextOffset != server.DefaultPage {
		t.Errorf("default page: %d, %d messages of %d, next %d; want %d of %d, next %d",
			status, len(l.Conversation.Messages), l.MessageCount, l.NextOffset, server.DefaultPage, len(texts), server.DefaultPage)
	}
	for _, id := range []string{"long", "m/long/1100"} {
		c, _, err := d.client.Load(context.Background(), id)
		if err != nil {
			t.Fatalf("load %s: %v", id, err)
		}
		if len(c.Messages) != len(texts) {
			t.Fatalf("load %s: %d messages, want %d", id, len(c.Messages), len(texts))
		}
		for i, m := range c.Messages {
			if m.Index != i || m.Content != texts[i] {
				t.Fatalf("load %s: message %d is #%d %q", id, i, m.Index, m.Content)
			}
		}
	}
}
