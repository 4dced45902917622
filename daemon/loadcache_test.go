package daemon

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/mcp"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

// countingLoader counts the loads that reach the engine: each one parses
// the conversation's file again.
type countingLoader struct {
	conversationLoader
	loads atomic.Int64
}

func (c *countingLoader) Load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	c.loads.Add(1)
	return c.conversationLoader.Load(ctx, id)
}

// secret is a token redaction takes out.
const secret = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"

// pagedStore indexes one conversation of n messages (a secret in the
// last one) in a store of its own, with redaction as the daemon has it,
// and serves it over HTTP as the daemon does; loads counts what reaches
// the engine.
func pagedStore(t *testing.T, n int) (st *Store, file string, texts []string, c *Client, loads *countingLoader) {
	t.Helper()
	root := t.TempDir()
	texts = longTexts(n, "first")
	file = filepath.Join(root, "long.json")
	if err := convtest.WriteAtomic(file, convtest.Portable("long", "Quokkas", texts...)); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(StoreOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Ingester.Reconcile(context.Background(), []string{root}); err != nil {
		t.Fatal(err)
	}
	e, err := st.CachingEngine()
	if err != nil {
		t.Fatal(err)
	}
	loads = &countingLoader{conversationLoader: e.Engine}
	e.loads.under = loads
	srv := httptest.NewServer(server.NewHandler(server.HandlerOptions{Backend: e}))
	t.Cleanup(srv.Close)
	c = NewClient(srv.URL, "")
	t.Cleanup(func() { c.Close() })
	return st, file, texts, c, loads
}

func longTexts(n int, word string) []string {
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf("%s message %d about quokkas", word, i)
	}
	texts[n-1] += " export GITHUB_TOKEN=" + secret
	return texts
}

// TestLoadCachePages: reading a conversation of several pages through the
// API parses its file once, not once a page; a file changed between two
// pages, or an index written between them, is read again, and what was
// kept of it before is never served; what is kept is redacted.
func TestLoadCachePages(t *testing.T) {
	n := 2*server.MaxPage + 345 // three pages
	tests := []struct {
		name string
		// between runs between the first page and the others.
		between func(t *testing.T, st *Store, file string) (texts []string)
		// wantLoads is the loads of the whole conversation, after the
		// first page's.
		wantLoads int64
	}{
		{name: "unchanged", wantLoads: 0},
		{name: "file rewritten", wantLoads: 1, between: func(t *testing.T, st *Store, file string) []string {
			texts := longTexts(n, "second")
			if err := convtest.WriteAtomic(file, convtest.Portable("long", "Quokkas", texts...)); err != nil {
				t.Fatal(err)
			}
			return texts
		}},
		{name: "same size, later time", wantLoads: 1, between: func(t *testing.T, st *Store, file string) []string {
			texts := longTexts(n, "secnd") // as long as "first"
			if err := os.WriteFile(file, convtest.Portable("long", "Quokkas", texts...), 0o644); err != nil {
				t.Fatal(err)
			}
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(file, later, later); err != nil {
				t.Fatal(err)
			}
			return texts
		}},
		{name: "index written", wantLoads: 1, between: func(t *testing.T, st *Store, file string) []string {
			other := filepath.Join(filepath.Dir(file), "other.json")
			if err := convtest.WriteAtomic(other, convtest.Portable("other", "Other", "hello")); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Ingester.Reconcile(context.Background(), []string{filepath.Dir(file)}); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, file, texts, c, loads := pagedStore(t, n)
			ctx := context.Background()
			page := func(offset int) server.Loaded {
				t.Helper()
				v := url.Values{"offset": {strconv.Itoa(offset)}, "limit": {strconv.Itoa(server.MaxPage)}}
				var l server.Loaded
				if err := c.get(ctx, "/api/conversations/long", v, &l); err != nil {
					t.Fatalf("page at %d: %v", offset, err)
				}
				return l
			}
			first := page(0)
			if got := loads.loads.Load(); got != 1 {
				t.Fatalf("first page: %d loads, want 1", got)
			}
			if first.Conversation.Messages[0].Content != texts[0] {
				t.Fatalf("first page starts with %q, want %q", first.Conversation.Messages[0].Content, texts[0])
			}
			if tt.between != nil {
				if changed := tt.between(t, st, file); changed != nil {
					texts = changed
				}
			}
			var all []conversation.Message
			for offset := 0; ; {
				l := page(offset)
				all = append(all, l.Conversation.Messages...)
				if l.NextOffset == 0 {
					break
				}
				offset = l.NextOffset
			}
			if got := loads.loads.Load() - 1; got != tt.wantLoads {
				t.Errorf("%d loads for the pages after the first, want %d", got, tt.wantLoads)
			}
			if len(all) != n {
				t.Fatalf("%d messages, want %d", len(all), n)
			}
			for i, m := range all {
				want := texts[i]
				if i == n-1 {
					if strings.Contains(m.Content, secret) {
						t.Fatalf("message %d holds the secret: %q", i, m.Content)
					}
					want, _, _ = strings.Cut(want, secret)
				}
				if !strings.HasPrefix(m.Content, want) {
					t.Fatalf("message %d is %q, want %q", i, m.Content, want)
				}
			}
			// Loaded whole through the client, as show does: from the
			// cache, redacted.
			before := loads.loads.Load()
			conv, _, err := c.Load(ctx, "m/long/5")
			if err != nil {
				t.Fatal(err)
			}
			if got := loads.loads.Load() - before; got != 0 {
				t.Errorf("client Load: %d loads, want 0 (kept)", got)
			}
			if len(conv.Messages) != n || strings.Contains(conv.Messages[n-1].Content, secret) {
				t.Errorf("client Load: %d messages (want %d), last %q", len(conv.Messages), n, conv.Messages[n-1].Content)
			}
		})
	}
}

// TestLoadCacheMCP: an agent paging a long conversation with
// get_conversation, and reading it as a resource, has its file parsed once.
func TestLoadCacheMCP(t *testing.T) {
	n := 3000
	st, _, _, _, loads := pagedStore(t, n)
	e := &Engine{Engine: loads.conversationLoader.(*query.Engine)}
	e.loads = newLoadCache(loads, st.Index.Generation)
	ts := httptest.NewServer(mcp.Handler(e, mcp.Options{Version: "test"}))
	t.Cleanup(ts.Close)
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	calls := []struct {
		name string
		do   func() error
	}{
		{"get_conversation", func() error {
			_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_conversation", Arguments: map[string]any{"id": "long"}})
			return err
		}},
		{"get_conversation offset 1000", func() error {
			_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_conversation", Arguments: map[string]any{"id": "long", "offset": 1000}})
			return err
		}},
		{"get_conversation message 2990", func() error {
			_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_conversation", Arguments: map[string]any{"id": "long", "message": 2990}})
			return err
		}},
		{"resources/read", func() error {
			_, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ConversationURIPrefix + "m/long/2000"})
			return err
		}},
	}
	for i, c := range calls {
		if err := c.do(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := loads.loads.Load(); got != 1 {
			t.Errorf("after %s (call %d): %d loads, want 1", c.name, i+1, got)
		}
	}
}
