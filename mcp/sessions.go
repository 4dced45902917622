package mcp

import (
	"container/list"
	"net/http"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader names a streamable HTTP session (MCP spec, transports).
const sessionHeader = "Mcp-Session-Id"

// sessionCap bounds the live sessions of a streamable HTTP handler: the
// SDK keeps a session until its client deletes it or it idles out, so
// clients that open sessions and vanish would pile them up (100,000
// initialize calls took a daemon to 1.7 GB). When a new session would pass
// max, the least recently used one is closed; its client gets 404 and, as
// the spec asks, starts a new one.
type sessionCap struct {
	inner  http.Handler
	server *sdk.Server
	max    int

	mu      sync.Mutex
	lru     *list.List // of *tracked, most recently used first
	byID    map[string]*list.Element
	opening int // new-session requests under way, each a session to come
}

type tracked struct {
	id      string
	session *sdk.ServerSession
}

func newSessionCap(inner http.Handler, s *sdk.Server, max int) *sessionCap {
	return &sessionCap{inner: inner, server: s, max: max, lru: list.New(), byID: map[string]*list.Element{}}
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get(sessionHeader); id != "" {
		c.touch(id)
		c.inner.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		// Only a POST without a session opens one; the SDK answers the rest.
		c.inner.ServeHTTP(w, r)
		return
	}
	// Room is made before the session exists, so that the count of live
	// sessions never passes max, even for a moment.
	if !c.reserve() {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many MCP sessions opening at once; try again", http.StatusServiceUnavailable)
		return
	}
	// Deferred: a handler that panics (net/http recovers) must not keep
	// its reservation, or enough of them would refuse every new session.
	defer func() { c.opened(w.Header().Get(sessionHeader)) }()
	c.inner.ServeHTTP(w, r)
}

// touch marks session id as the most recently used.
func (c *sessionCap) touch(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[id]; ok {
		c.lru.MoveToFront(e)
	}
}

// reserve counts a session about to open, closing the least recently used
// ones to make room; false when the sessions opening alone fill the cap.
func (c *sessionCap) reserve() bool {
	var evict []*sdk.ServerSession
	c.mu.Lock()
	c.prune()
	for c.lru.Len()+c.opening >= c.max && c.lru.Len() > 0 {
		t := c.lru.Remove(c.lru.Back()).(*tracked)
		delete(c.byID, t.id)
		evict = append(evict, t.session)
	}
	ok := c.lru.Len()+c.opening < c.max
	if ok {
		c.opening++
	}
	c.mu.Unlock()
	// Closing waits for the session's calls under way: not under the lock.
	for _, s := range evict {
		_ = s.Close()
	}
	return ok
}

// opened ends a reservation: id is the session the request opened, if
// any (a failed initialize opens none).
func (c *sessionCap) opened(id string) {
	var s *sdk.ServerSession
	if id != "" {
		for ss := range c.server.Sessions() {
			if ss.ID() == id {
				s = ss
				break
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opening--
	if s == nil {
		return
	}
	if e, ok := c.byID[id]; ok {
		c.lru.MoveToFront(e)
		return
	}
	c.byID[id] = c.lru.PushFront(&tracked{id: id, session: s})
}

// prune forgets sessions that ended without us (deleted by their client,
// idle too long): they must not count against the cap. Called with mu held.
func (c *sessionCap) prune() {
	live := make(map[*sdk.ServerSession]bool, c.lru.Len())
	for s := range c.server.Sessions() {
		live[s] = true
	}
	for e := c.lru.Front(); e != nil; {
		next := e.Next()
		if t := e.Value.(*tracked); !live[t.session] {
			c.lru.Remove(e)
			delete(c.byID, t.id)
		}
		e = next
	}
}

// live returns the number of sessions the server holds.
func (c *sessionCap) live() int {
	n := 0
	for range c.server.Sessions() {
		n++
	}
	return n
}
