package mcp

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abandoner","version":"0"}}}`

// mcpPost sends one JSON-RPC message to h in process and returns the
// status and the session id of the answer.
func mcpPost(h http.Handler, session, body string) (int, string) {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set(sessionHeader, session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header().Get(sessionHeader)
}

// TestAbandonedSessions opens 10,000 sessions that are never closed, as a
// client that initializes and goes away does, and checks that the live
// sessions stay within the cap and the heap within a bound.
func TestAbandonedSessions(t *testing.T) {
	const (
		opened   = 10000
		max      = 64
		heapMax  = 16 << 20 // uncapped, 10,000 sessions grew it 44 MB
		keptBusy = 7        // every keptBusy-th session, the one in use is touched
	)
	h := newHTTPHandler(newTestBackend(t), Options{MaxSessions: max})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	code, inUse := mcpPost(h, "", initializeBody)
	if code != http.StatusOK || inUse == "" {
		t.Fatalf("initialize: HTTP %d, session %q", code, inUse)
	}
	peak := 0
	for i := range opened {
		code, id := mcpPost(h, "", initializeBody)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize %d: HTTP %d, session %q", i, code, id)
		}
		if n := h.live(); n > peak {
			peak = n
		}
		// A session in use is never the least recently used one.
		if i%keptBusy == 0 {
			if code, _ := mcpPost(h, inUse, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != http.StatusOK {
				t.Fatalf("ping of the session in use after %d others: HTTP %d", i, code)
			}
		}
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	growth := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d sessions opened, cap %d: at most %d live; heap %.1f MB -> %.1f MB (growth %.1f MB)",
		opened+1, max, peak, mb(before.HeapAlloc), mb(after.HeapAlloc), float64(growth)/(1<<20))
	if peak > max {
		t.Errorf("%d live sessions, cap %d", peak, max)
	}
	if growth > heapMax {
		t.Errorf("heap grew %d bytes for %d abandoned sessions, want under %d", growth, opened, heapMax)
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// TestSessionEviction checks which session goes: the least recently used,
// whose client then gets 404 (and opens a new one, as the spec asks).
func TestSessionEviction(t *testing.T) {
	const max = 3
	h := newHTTPHandler(newTestBackend(t), Options{MaxSessions: max})
	var ids []string
	for range max {
		_, id := mcpPost(h, "", initializeBody)
		ids = append(ids, id)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	// The oldest is used again: the second becomes the least recently used.
	if code, _ := mcpPost(h, ids[0], ping); code != http.StatusOK {
		t.Fatalf("ping %s: HTTP %d", ids[0], code)
	}
	_, newest := mcpPost(h, "", initializeBody)
	for _, tc := range []struct {
		id   string
		want int
	}{
		{ids[0], http.StatusOK},
		{ids[1], http.StatusNotFound},
		{ids[2], http.StatusOK},
		{newest, http.StatusOK},
	} {
		if code, _ := mcpPost(h, tc.id, ping); code != tc.want {
			t.Errorf("ping session %s: HTTP %d, want %d", tc.id, code, tc.want)
		}
	}
	if n := h.live(); n != max {
		t.Errorf("%d live sessions, want %d", n, max)
	}

	// A session its client deleted no longer counts: the next one evicts
	// nobody.
	req := httptest.NewRequest(http.MethodDelete, "/mcp", nil)
	req.Header.Set(sessionHeader, ids[2])
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE: HTTP %d", rec.Code)
	}
	mcpPost(h, "", initializeBody)
	for _, id := range []string{ids[0], newest} {
		if code, _ := mcpPost(h, id, ping); code != http.StatusOK {
			t.Errorf("after a DELETE, ping %s: HTTP %d, want 200", id, code)
		}
	}
	if n := h.live(); n != max {
		t.Errorf("%d live sessions, want %d", n, max)
	}
}

// TestPanickingOpenReleasesReservation checks that an opening request whose
// handler panics (net/http recovers it) gives its place back.
func TestPanickingOpenReleasesReservation(t *testing.T) {
	c := newSessionCap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }),
		sdk.NewServer(&sdk.Implementation{Name: "t", Version: "0"}, nil), 2)
	for range 3 {
		func() {
			defer func() { _ = recover() }()
			c.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(initializeBody)))
		}()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.opening != 0 {
		t.Errorf("%d reservations left by requests that panicked, want 0", c.opening)
	}
}
