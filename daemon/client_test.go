package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/server"
)

// TestClientReadiness checks how Ready and Indexing read /readyz: a 503
// while the first pass runs, its body saying whether answers may miss
// conversations, and a daemon that does not say indexing while not ready.
func TestClientReadiness(t *testing.T) {
	tests := []struct {
		name                   string
		status                 int
		body                   string
		wantReady, wantIndexes bool
	}{
		{"ready", http.StatusOK, `{"ready":true,"indexing":false}`, true, false},
		{"first pass", http.StatusServiceUnavailable, `{"ready":false,"indexing":true}`, false, true},
		{"first pass on a complete index", http.StatusServiceUnavailable, `{"ready":false,"indexing":false}`, false, false},
		{"older daemon, ready", http.StatusOK, `{"ready":true}`, true, false},
		{"older daemon, first pass", http.StatusServiceUnavailable, `{"ready":false}`, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/readyz" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, "")
			defer c.Close()
			ready, err := c.Ready(context.Background())
			if err != nil || ready != tt.wantReady {
				t.Errorf("Ready = %v, %v; want %v", ready, err, tt.wantReady)
			}
			indexing, err := c.Indexing(context.Background())
			if err != nil || indexing != tt.wantIndexes {
				t.Errorf("Indexing = %v, %v; want %v", indexing, err, tt.wantIndexes)
			}
		})
	}
}

// TestClientLoadPages: Load reads a conversation longer than a page whole,
// page by page, and reads it again when it changes between two pages.
func TestClientLoadPages(t *testing.T) {
	tests := []struct {
		name string
		// sizes are the conversation's lengths at each request.
		sizes   []int
		want    int  // messages loaded
		wantErr bool // the conversation never held still
	}{
		{"one page", []int{3}, 3, false},
		{"empty", []int{0}, 0, false},
		{"three pages", []int{2500, 2500, 2500}, 2500, false},
		{"grows between pages", []int{1500, 1600, 1600, 1600}, 1600, false},
		{"shrinks past the next page", []int{1500, 900, 900}, 900, false},
		{"never still", []int{1500, 1501, 1502, 1503, 1504, 1505}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := tt.sizes[min(calls, len(tt.sizes)-1)]
				calls++
				c := &conversation.Conversation{ID: "long", Title: "long"}
				for i := range n {
					c.Messages = append(c.Messages, conversation.Message{Index: i, Role: conversation.RoleUser, Content: "m"})
				}
				p, err := server.ParsePageParams(r.URL.Query())
				if err == nil && p.Offset > 0 && p.Offset >= n {
					err = errors.New("past the last message")
				}
				w.Header().Set("Content-Type", "application/json")
				if err != nil {
					w.WriteHeader(http.StatusBadRequest)
					json.NewEncoder(w).Encode(server.ErrorBody{Error: err.Error()})
					return
				}
				json.NewEncoder(w).Encode(server.PageOf(c, false, p))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, "")
			defer c.Close()
			conv, _, err := c.Load(context.Background(), "long")
			if tt.wantErr {
				if !errors.Is(err, errChanged) {
					t.Errorf("Load = %v, want it to say the conversation changed", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(conv.Messages) != tt.want {
				t.Fatalf("%d messages, want %d", len(conv.Messages), tt.want)
			}
			for i, m := range conv.Messages {
				if m.Index != i {
					t.Fatalf("message %d has index %d", i, m.Index)
				}
			}
		})
	}
}

// TestClientGivesUpOnASilentDaemon: a daemon that accepts a request and never
// answers (stopped with SIGSTOP after it was found) gets a bounded wait and an
// error that says so; a sync, which waits for a whole pass, is not bounded,
// and neither is a request whose context has its own deadline.
func TestClientGivesUpOnASilentDaemon(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ready":true,"indexing":false}`))
	}))
	defer srv.Close()
	defer close(release)
	c := NewClient(srv.URL, "")
	defer c.Close()
	c.wait = 50 * time.Millisecond
	_, err := c.Ready(context.Background())
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not answer /readyz within 50ms") {
		t.Errorf("Ready of a silent daemon: %v, want a bounded wait naming it", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Ready(ctx)
	if err == nil || time.Since(start) < 250*time.Millisecond {
		t.Errorf("a caller's own deadline: %v after %s, want it to run to that deadline", err, time.Since(start))
	}
	syncCtx, syncCancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Sync(syncCtx, nil)
		done <- err
	}()
	select {
	case err := <-done:
		t.Errorf("a sync gave up on its own: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	syncCancel()
	<-done
}
