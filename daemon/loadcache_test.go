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
	"sync"
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

func (c *countingLoader) LoadFound(ctx context.Context, info *query.ConversationInfo) (*conversation.Conversation, bool, error) {
	c.loads.Add(1)
	return c.conversationLoader.LoadFound(ctx, info)
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
		{name: "file rewritten and indexed", wantLoads: 1, between: func(t *testing.T, st *Store, file string) []string {
			texts := longTexts(n+10, "third")
			if err := convtest.WriteAtomic(file, convtest.Portable("long", "Quokkas", texts...)); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Ingester.Reconcile(context.Background(), []string{filepath.Dir(file)}); err != nil {
				t.Fatal(err)
			}
			return texts
		}},
		// Writes of other conversations do not drop it: an agent paging a
		// conversation while its own session is indexed keeps it.
		{name: "another file indexed", wantLoads: 0, between: func(t *testing.T, st *Store, file string) []string {
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
			n := len(texts)
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

// fakeLoader serves conversations of a few messages each, one a file, and
// counts its loads.
type fakeLoader struct {
	infos   map[string]query.ConversationInfo
	loads   map[string]int
	indexed map[string]time.Time // a file's record's Indexed, by path
}

func (f *fakeLoader) Conversation(_ context.Context, id string) (*query.ConversationInfo, error) {
	info, ok := f.infos[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", query.ErrNotFound, id)
	}
	return &info, nil
}

func (f *fakeLoader) LoadFound(_ context.Context, found *query.ConversationInfo) (*conversation.Conversation, bool, error) {
	id := found.ID
	info, ok := f.infos[id]
	if !ok {
		return nil, false, fmt.Errorf("%w: %s", query.ErrNotFound, id)
	}
	f.loads[id]++
	data, err := os.ReadFile(info.File)
	if err != nil {
		return nil, false, err
	}
	c := &conversation.Conversation{ID: id, File: info.File}
	for i := range info.Messages {
		c.Messages = append(c.Messages, conversation.Message{Index: i, Content: string(data)})
	}
	return c, false, nil
}

// TestLoadCacheKey: what drops a kept conversation, and what keeps it.
func TestLoadCacheKey(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// change runs between two loads of "a".
		change    func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64)
		wantLoads int    // of "a", both loads
		wantText  string // of the second load
	}{
		{name: "nothing changed", wantLoads: 1, wantText: "one"},
		{name: "file rewritten in place, same size", wantLoads: 2, wantText: "two", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			writeLater(t, f.infos["a"].File, "two")
		}},
		{name: "file replaced", wantLoads: 2, wantText: "three!", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			if err := convtest.WriteAtomic(f.infos["a"].File, []byte("three!")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "index's record changed", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			info := f.infos["a"]
			info.Topics = []string{"new topic"}
			f.infos["a"] = info
		}},
		// Its decisions and topics changed (they are not in the record).
		{name: "its file's documents written again", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			file := f.infos["a"].File
			f.indexed[file] = f.indexed[file].Add(time.Second)
		}},
		{name: "another file's documents written", wantLoads: 1, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			file := f.infos["b"].File
			f.indexed[file] = f.indexed[file].Add(time.Second)
		}},
		{name: "rebuilt index put in place", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			*epoch++
		}},
		{name: "another conversation loaded", wantLoads: 1, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			if _, _, err := lc.load(ctx, "b"); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "pushed out by others", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			for _, id := range []string{"b", "c", "d", "e"} {
				if _, _, err := lc.load(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{name: "pushed out by size", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			lc.maxSize = lc.size * 3 / 2 // a and b do not fit together
			if _, _, err := lc.load(ctx, "b"); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "too large to keep", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			lc.clear()
			lc.maxSize = 100
			if _, _, err := lc.load(ctx, "a"); err != nil {
				t.Fatal(err)
			}
			f.loads["a"]-- // that load is not the one counted
		}},
		{name: "idle", wantLoads: 2, wantText: "one", change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			lc.clear() // what the idle timer does
		}},
		{name: "file gone", wantLoads: 2, change: func(t *testing.T, f *fakeLoader, lc *loadCache, epoch *uint64) {
			if err := os.Remove(f.infos["a"].File); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			f := &fakeLoader{infos: map[string]query.ConversationInfo{}, loads: map[string]int{}, indexed: map[string]time.Time{}}
			for _, id := range []string{"a", "b", "c", "d", "e"} {
				file := filepath.Join(dir, id)
				if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
					t.Fatal(err)
				}
				f.infos[id] = query.ConversationInfo{ID: id, File: file, Messages: 3}
				f.indexed[file] = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			}
			var epoch uint64
			lc := newLoadCache(f, func() uint64 { return epoch })
			lc.indexed = func(path string) time.Time { return f.indexed[path] }
			c, _, err := lc.load(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			c.Messages = append(c.Messages, conversation.Message{Content: "a caller's"}) // not what is kept
			c.Title = "changed by a caller"
			if tt.change != nil {
				tt.change(t, f, lc, &epoch)
			}
			c, _, err = lc.load(ctx, "a")
			if f.loads["a"] != tt.wantLoads {
				t.Errorf("%d loads, want %d", f.loads["a"], tt.wantLoads)
			}
			if tt.wantText == "" {
				if err == nil {
					t.Errorf("loaded a gone file: %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Messages) != 3 || c.Messages[0].Content != tt.wantText || c.Title != "" {
				t.Errorf("loaded %d messages, %q, title %q; want 3, %q, no title", len(c.Messages), c.Messages[0].Content, c.Title, tt.wantText)
			}
		})
	}
}

// writeLater writes text to file in place (the same file, the same size
// when text is as long) with a later modification time.
func writeLater(t *testing.T, file, text string) {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}

// TestLoadCacheDecisionsFollowTheIndex: a conversation read through the
// daemon after its file was edited (as many messages) but before the pass
// that indexes the edit is kept with the index's old decisions; once the
// pass writes the new ones (the conversation's record unchanged), the
// cache serves what an uncached Load does. It served the old rationale
// until the file changed again or the cache went idle.
func TestLoadCacheDecisionsFollowTheIndex(t *testing.T) {
	for _, c := range []struct{ before, after string }{
		{"it is slow", "it is not slow"},
		{"it is simple", "it scales"},
	} {
		t.Run(c.before+" → "+c.after, func(t *testing.T) {
			ctx := context.Background()
			root := t.TempDir()
			file := filepath.Join(root, "c.json")
			t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			write := func(rationale string, at time.Time) {
				t.Helper()
				data := convtest.Portable("c1", "Queues", "how should the queue retry?", "We decided to use exponential backoff because "+rationale+".", "ok", "thanks")
				if err := os.WriteFile(file, data, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(file, at, at); err != nil {
					t.Fatal(err)
				}
			}
			write(c.before, t0)
			st, err := OpenStore(StoreOptions{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if _, err := st.Ingester.Reconcile(ctx, []string{root}); err != nil {
				t.Fatal(err)
			}
			e, err := st.CachingEngine()
			if err != nil {
				t.Fatal(err)
			}
			if conv, _, err := e.Load(ctx, "c1"); err != nil || len(conv.Decisions) == 0 {
				t.Fatalf("Load: %v, %+v: want a decision", err, conv)
			}
			write(c.after, t0.Add(time.Minute))
			if _, _, err := e.Load(ctx, "c1"); err != nil { // before the pass
				t.Fatal(err)
			}
			if _, err := st.Ingester.Reconcile(ctx, []string{root}); err != nil {
				t.Fatal(err)
			}
			fresh, _, err := e.Engine.Load(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			cached, _, err := e.Load(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			if len(fresh.Decisions) == 0 || len(cached.Decisions) != len(fresh.Decisions) || cached.Decisions[0].Rationale != fresh.Decisions[0].Rationale {
				t.Errorf("the cache serves decisions %+v; the index and an uncached Load say %+v", cached.Decisions, fresh.Decisions)
			}
		})
	}
}

// fillingLoader is a fakeLoader whose conversations fill adds to.
type fillingLoader struct {
	*fakeLoader
	fill func(c *conversation.Conversation)
}

func (f *fillingLoader) LoadFound(ctx context.Context, info *query.ConversationInfo) (*conversation.Conversation, bool, error) {
	c, fromIndex, err := f.fakeLoader.LoadFound(ctx, info)
	if err == nil {
		f.fill(c)
	}
	return c, fromIndex, err
}

// TestLoadCacheSizeCountsAllText: the cache's bound counts all the text a
// conversation holds, not only its messages': a conversation of a claude.ai
// or studio export may hold most of it in artifacts, notes or summaries.
// Each below holds 1 MiB beside three short messages, over a budget of 64
// KiB: it is not kept. Those of artifacts, notes, summaries and decisions
// were kept, counted as under 1 KiB.
func TestLoadCacheSizeCountsAllText(t *testing.T) {
	const big = 1 << 20
	text := strings.Repeat("x", big)
	for _, tt := range []struct {
		name string
		fill func(c *conversation.Conversation)
	}{
		{"message", func(c *conversation.Conversation) { c.Messages[0].Content = text }},
		{"tool result", func(c *conversation.Conversation) {
			c.Messages[0].ToolResults = []conversation.ToolResult{{Content: text}}
		}},
		{"artifact", func(c *conversation.Conversation) {
			c.Artifacts = []conversation.Artifact{{Title: "report", Content: text}}
		}},
		{"note", func(c *conversation.Conversation) { c.Notes = []conversation.Note{{Kind: "diff", Text: text}} }},
		{"summary", func(c *conversation.Conversation) { c.Summaries = []string{text} }},
		{"decision", func(c *conversation.Conversation) {
			c.Decisions = []conversation.Decision{{Decision: "use it", Rationale: text}}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			file := filepath.Join(t.TempDir(), "a")
			if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
				t.Fatal(err)
			}
			f := &fillingLoader{fakeLoader: &fakeLoader{infos: map[string]query.ConversationInfo{"a": {ID: "a", File: file, Messages: 3}}, loads: map[string]int{}}, fill: tt.fill}
			lc := newLoadCache(f, func() uint64 { return 0 })
			lc.maxSize = 64 << 10
			for range 2 {
				if _, _, err := lc.load(ctx, "a"); err != nil {
					t.Fatal(err)
				}
			}
			if len(lc.entries) != 0 || f.loads["a"] != 2 {
				t.Errorf("a conversation of over %d bytes kept under a budget of %d, counted as %d (%d loads)", big, lc.maxSize, lc.size, f.loads["a"])
			}
			c, _, err := f.LoadFound(ctx, &query.ConversationInfo{ID: "a"})
			if err != nil {
				t.Fatal(err)
			}
			if got := conversationSize(c); got < big {
				t.Errorf("conversationSize = %d, want at least %d", got, big)
			}
		})
	}
}

// fakeIdle is a fake clock and the idle timer on it: advance moves the
// clock and fires the timer when its time has come.
type fakeIdle struct {
	now, at time.Duration // at: when the timer fires; < 0 when stopped
	f       func()
}

func (c *fakeIdle) afterFunc(d time.Duration, f func()) idleTimer {
	c.at, c.f = c.now+d, f
	return c
}

func (c *fakeIdle) Reset(d time.Duration) bool {
	active := c.at >= 0
	c.at = c.now + d
	return active
}

func (c *fakeIdle) Stop() bool {
	active := c.at >= 0
	c.at = -1
	return active
}

func (c *fakeIdle) advance(d time.Duration) {
	c.now += d
	if c.f != nil && c.at >= 0 && c.now >= c.at {
		c.at = -1
		c.f()
	}
}

// TestLoadCacheIdleAfterLastUse: the cache drops what it keeps
// loadCacheIdle after it was last used, served from the cache or not. An
// agent paging a conversation every minute has it parsed once; it was
// parsed again every loadCacheIdle, the timer restarted only by a miss.
func TestLoadCacheIdleAfterLastUse(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reads []int // the minutes "a" is read at
		want  int   // parses of "a"
	}{
		{"read every minute", []int{0, 1, 2, 3, 4, 5, 6, 7}, 1},
		{"read again just before idle", []int{0, 4, 8, 12}, 1},
		{"idle in between", []int{0, 5}, 2},
		{"idle after a hit", []int{0, 4, 9}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			file := filepath.Join(t.TempDir(), "a")
			if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
				t.Fatal(err)
			}
			f := &fakeLoader{infos: map[string]query.ConversationInfo{"a": {ID: "a", File: file, Messages: 3}}, loads: map[string]int{}}
			clock := &fakeIdle{at: -1}
			lc := newLoadCache(f, func() uint64 { return 0 })
			lc.afterFunc = clock.afterFunc
			for _, at := range tt.reads {
				clock.advance(time.Duration(at)*time.Minute - clock.now)
				if _, _, err := lc.load(ctx, "a"); err != nil {
					t.Fatal(err)
				}
			}
			if f.loads["a"] != tt.want {
				t.Errorf("read at minutes %v: parsed %d times, want %d (idle after %s)", tt.reads, f.loads["a"], tt.want, loadCacheIdle)
			}
		})
	}
}

// blockingLoader is a fakeLoader whose loads wait until release is closed,
// counting them as they start.
type blockingLoader struct {
	*fakeLoader
	mu      sync.Mutex
	started chan struct{}
	release chan struct{}
}

func (b *blockingLoader) LoadFound(ctx context.Context, info *query.ConversationInfo) (*conversation.Conversation, bool, error) {
	b.started <- struct{}{}
	<-b.release
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fakeLoader.LoadFound(ctx, info)
}

// TestLoadCacheMergesLoadsAtOnce: loads of the same conversation that run
// at once parse it once (two agents opening one long conversation), and
// each gets it whole.
func TestLoadCacheMergesLoadsAtOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a")
	if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			b := &blockingLoader{
				fakeLoader: &fakeLoader{infos: map[string]query.ConversationInfo{"a": {ID: "a", File: file, Messages: 3}}, loads: map[string]int{}},
				started:    make(chan struct{}, n),
				release:    make(chan struct{}),
			}
			lc := newLoadCache(b, func() uint64 { return 0 })
			joined := make(chan struct{}, n)
			lc.beforeFlight = func() { joined <- struct{}{} }
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, _, err := lc.load(context.Background(), "a")
					if err == nil && (c == nil || len(c.Messages) != 3) {
						err = fmt.Errorf("got %v", c)
					}
					errs <- err
				}()
			}
			<-b.started // the first load runs
			for range n {
				<-joined // and every load has come to the flight
			}
			// A step from the hook into Do is all that is left; a load
			// that came after the flight ended finds the cache filled.
			time.Sleep(10 * time.Millisecond)
			close(b.release)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if b.loads["a"] != 1 {
				t.Errorf("%d loads at once parsed it %d times, want 1", n, b.loads["a"])
			}
		})
	}
}
