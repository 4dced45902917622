package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
	"golang.org/x/sync/singleflight"
)

// Engine is the query engine the daemon and the MCP server answer with:
// its Load keeps the last conversations it read, so that reading a long
// conversation a page at a time (the API's pages, MCP's get_conversation
// and resources/read, the search page, `show` through the daemon) parses
// its file once, not once a page.
//
// A kept conversation is served only while its file is the one it was
// read from (same path, size and modification time, same file), the
// index's record of the conversation is the same, the index has not written
// the file's documents since (its topics and decisions, which Load takes
// from the index), and no rebuilt index has taken the old one's place
// since: anything else reads it again. Writes
// of other conversations to the index do not drop it, so an agent paging
// a long conversation while its own session is being indexed keeps it.
// What is kept is what Load returned, after redaction, never the file's
// raw text.
type Engine struct {
	*query.Engine
	loads *loadCache
}

var (
	_ server.Backend    = (*Engine)(nil)
	_ server.Overviewer = (*Engine)(nil)
)

// conversationLoader is what the cache needs of the engine under it; a
// test puts a fake in.
type conversationLoader interface {
	Conversation(ctx context.Context, id string) (*query.ConversationInfo, error)
	LoadFound(ctx context.Context, info *query.ConversationInfo) (*conversation.Conversation, bool, error)
}

// Load returns conversation id whole (see query.Engine.Load), from the
// cache while its file and the index are unchanged. The conversation
// returned shares its messages with the cache: callers must not change
// them.
func (e *Engine) Load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	return e.loads.load(ctx, id)
}

// Load cache bounds: a few conversations, and at most this much text in
// all. A conversation larger than the budget alone is not kept.
const (
	loadCacheEntries = 4
	loadCacheBytes   = 128 << 20
	// loadCacheIdle drops what is kept after this long unused, so an idle
	// daemon does not hold a long conversation for ever.
	loadCacheIdle = 5 * time.Minute
)

type loadCache struct {
	under   conversationLoader
	epoch   func() uint64 // changes when a rebuilt index takes the old one's place
	stat    func(string) (os.FileInfo, error)
	maxSize int
	// indexed is when the index last wrote the documents of the file at
	// path (its record's Indexed); nil: not known, not checked.
	indexed func(path string) time.Time

	// afterFunc starts the idle timer (time.AfterFunc; a test's fake).
	afterFunc func(time.Duration, func()) idleTimer

	// flight merges loads of the same conversation in the same state that
	// run at once (two agents opening one long conversation): one parse.
	flight singleflight.Group
	// beforeFlight, a test's hook, runs as a load joins or starts a flight.
	beforeFlight func()

	mu      sync.Mutex
	entries []*loadEntry // most recently used last
	size    int
	idle    idleTimer
}

// idleTimer is the timer that clears the cache: a *time.Timer.
type idleTimer interface {
	Reset(time.Duration) bool
	Stop() bool
}

func afterFunc(d time.Duration, f func()) idleTimer { return time.AfterFunc(d, f) }

type loadEntry struct {
	id        string                 // the conversation's id (never a hit's)
	info      query.ConversationInfo // the index's record of it
	indexed   time.Time              // when the index last wrote its file's documents
	fi        os.FileInfo
	epoch     uint64
	c         *conversation.Conversation
	fromIndex bool
	size      int
}

func newLoadCache(under conversationLoader, epoch func() uint64) *loadCache {
	return &loadCache{under: under, epoch: epoch, stat: os.Stat, maxSize: loadCacheBytes, afterFunc: afterFunc}
}

func (lc *loadCache) load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	// The index's state is read first, the file's next, the conversation
	// last: what is kept is never older than its key.
	epoch := lc.epoch()
	info, err := lc.under.Conversation(ctx, id)
	if err != nil {
		return nil, false, err // as Load, whose first step this is, says
	}
	// The file's record is written after its documents, and read here
	// before Load reads them: what is kept is never older than it, and a
	// later write of the documents changes it.
	var indexed time.Time
	if lc.indexed != nil {
		indexed = lc.indexed(info.File)
	}
	fi, err := lc.stat(info.File)
	if err != nil {
		// A file that cannot be looked at is not kept: nothing says when
		// it changes.
		return lc.under.LoadFound(ctx, info)
	}
	if c, fromIndex, ok := lc.get(info, indexed, fi, epoch); ok {
		return c, fromIndex, nil
	}
	c, fromIndex, err := lc.loadOnce(ctx, info, flightKey(info, indexed, fi, epoch))
	if err != nil || c == nil || c.ID != info.ID {
		// Not the conversation info names (it changed in between): not
		// kept under info's key.
		return c, fromIndex, err
	}
	lc.put(&loadEntry{id: info.ID, info: *info, indexed: indexed, fi: fi, epoch: epoch, c: c, fromIndex: fromIndex, size: conversationSize(c)})
	return share(c), fromIndex, nil
}

// loadOnce is the engine's Load, shared by the loads of key that run at
// once. One that waited on another's and got its cancellation, while its
// own context goes on, loads for itself.
func (lc *loadCache) loadOnce(ctx context.Context, info *query.ConversationInfo, key string) (*conversation.Conversation, bool, error) {
	type loaded struct {
		c         *conversation.Conversation
		fromIndex bool
	}
	if lc.beforeFlight != nil {
		lc.beforeFlight()
	}
	v, err, shared := lc.flight.Do(key, func() (any, error) {
		c, fromIndex, err := lc.under.LoadFound(ctx, info)
		return loaded{c, fromIndex}, err
	})
	if shared && err != nil && ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return lc.under.LoadFound(ctx, info)
	}
	l, _ := v.(loaded)
	return l.c, l.fromIndex, err
}

// flightKey names a conversation in one state: its id, its file's and its
// record's state, the index's epoch.
func flightKey(info *query.ConversationInfo, indexed time.Time, fi os.FileInfo, epoch uint64) string {
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%d\x00%d", info.ID, info.File, fi.Size(), fi.ModTime().UnixNano(), indexed.UnixNano(), epoch)
}

func (lc *loadCache) get(info *query.ConversationInfo, indexed time.Time, fi os.FileInfo, epoch uint64) (*conversation.Conversation, bool, bool) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	for i, e := range lc.entries {
		if e.id != info.ID {
			continue
		}
		if e.epoch != epoch || !reflect.DeepEqual(&e.info, info) || !e.indexed.Equal(indexed) || !sameFile(e.fi, fi) {
			lc.drop(i) // stale: never served again
			return nil, false, false
		}
		lc.entries = append(slices.Delete(lc.entries, i, i+1), e)
		lc.used()
		return share(e.c), e.fromIndex, true
	}
	return nil, false, false
}

func (lc *loadCache) put(e *loadEntry) {
	if e.size > lc.maxSize {
		return
	}
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if i := slices.IndexFunc(lc.entries, func(o *loadEntry) bool { return o.id == e.id }); i >= 0 {
		lc.drop(i)
	}
	for len(lc.entries) > 0 && (len(lc.entries) >= loadCacheEntries || lc.size+e.size > lc.maxSize) {
		lc.drop(0)
	}
	lc.entries = append(lc.entries, e)
	lc.size += e.size
	lc.used()
}

// used (re)starts the idle timer: what is kept is dropped loadCacheIdle
// after it was last put or served. lc.mu is held.
func (lc *loadCache) used() {
	if lc.idle == nil {
		lc.idle = lc.afterFunc(loadCacheIdle, lc.clear)
	} else {
		lc.idle.Reset(loadCacheIdle)
	}
}

// drop removes entry i; lc.mu is held.
func (lc *loadCache) drop(i int) {
	lc.size -= lc.entries[i].size
	lc.entries = slices.Delete(lc.entries, i, i+1)
}

func (lc *loadCache) clear() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.entries, lc.size = nil, 0
}

// sameFile reports whether b is the file a was: the same file, of the
// same size and modification time.
func sameFile(a, b os.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && os.SameFile(a, b)
}

// share returns a copy of c's head over c's messages, so a caller that
// changes the conversation's fields or appends to its messages does not
// change what is kept.
func share(c *conversation.Conversation) *conversation.Conversation {
	cp := *c
	cp.Messages = slices.Clip(c.Messages)
	return &cp
}

// conversationSize estimates the bytes c holds: its texts (messages,
// tool calls and results, attachments; artifacts, notes and summaries,
// which may hold most of an export's text; topics and decisions), and a
// little for each part.
func conversationSize(c *conversation.Conversation) int {
	n := 512 + len(c.Title) + len(c.Project) + len(c.Model) + len(c.File)
	for i := range c.Messages {
		m := &c.Messages[i]
		n += 256 + len(m.ID) + len(m.ParentID) + len(m.Author) + len(m.Content) + len(m.Model) + len(m.Thinking) + len(m.Branch)
		for _, tc := range m.ToolCalls {
			n += 64 + len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
		for _, tr := range m.ToolResults {
			n += 64 + len(tr.CallID) + len(tr.Name) + len(tr.Content)
		}
		for _, a := range m.Attachments {
			n += 64 + len(a.Name) + len(a.Type) + len(a.Ref)
		}
	}
	for _, a := range c.Artifacts {
		n += 64 + len(a.Type) + len(a.Path) + len(a.Title) + len(a.Description) + len(a.Content)
	}
	for _, nt := range c.Notes {
		n += 64 + len(nt.Kind) + len(nt.Title) + len(nt.Text)
	}
	for _, s := range c.Summaries {
		n += 16 + len(s)
	}
	for _, t := range c.Topics {
		n += 32 + len(t.Name)
	}
	for _, d := range c.Decisions {
		n += 64 + len(d.Decision) + len(d.Rationale)
	}
	for _, s := range c.Tags {
		n += 16 + len(s)
	}
	for _, s := range c.RelatedConversations {
		n += 16 + len(s)
	}
	return n
}
