package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/server"
)

// TestShowWindowThroughDaemon: `show --message N --context K` through the
// daemon asks for the window alone, one request, not every page of the
// conversation; what it prints is what the whole conversation, cut, gives.
func TestShowWindowThroughDaemon(t *testing.T) {
	n := 2*server.MaxPage + 500
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf("message %d about wombats", i)
	}
	root := t.TempDir()
	if err := convtest.WriteAtomic(filepath.Join(root, "long.json"), convtest.Portable("long", "Wombats", texts...)); err != nil {
		t.Fatal(err)
	}
	engine, _ := convtest.Engine(t, root)
	data := t.TempDir()
	var mu sync.Mutex
	var asked []string // the conversation requests, path?query
	api := server.NewHandler(server.HandlerOptions{Backend: engine, Identity: server.Health{PID: os.Getpid(), DataDir: data, Version: "test"}})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/conversations/") {
			mu.Lock()
			asked = append(asked, r.URL.Path+"?"+r.URL.RawQuery)
			mu.Unlock()
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	if err := daemon.WriteInfo(data, daemon.Info{Addr: ts.Listener.Addr().String(), PID: os.Getpid(), DataDir: data, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	whole, _, err := engine.Load(context.Background(), "long")
	if err != nil {
		t.Fatal(err)
	}
	page := func(offset, limit int) string {
		return fmt.Sprintf("/api/conversations/long?limit=%d&offset=%d", limit, offset)
	}
	allPages := []string{page(0, server.MaxPage), page(server.MaxPage, server.MaxPage), page(2*server.MaxPage, server.MaxPage)}
	home := t.TempDir()
	for _, tc := range []struct {
		name     string
		args     []string
		lo, hi   int // the window printed
		wantAsks []string
		wantErr  string
	}{
		{name: "last page", args: []string{"long", "--message", "2490", "--context", "3"}, lo: 2487, hi: 2493, wantAsks: []string{page(2487, 7)}},
		{name: "at the end", args: []string{"long", "--message", "2499", "--context", "3"}, lo: 2496, hi: 2499, wantAsks: []string{page(2496, 7)}},
		{name: "at the start", args: []string{"long", "-m", "1", "-C", "2"}, lo: 0, hi: 3, wantAsks: []string{page(0, 4)}},
		{name: "no context", args: []string{"m/long/1500", "--message", "1500", "--context", "0"}, lo: 1500, hi: 1500,
			wantAsks: []string{strings.Replace(page(1500, 1), "long", "m/long/1500", 1)}},
		{name: "whole", args: []string{"long"}, lo: 0, hi: n - 1, wantAsks: allPages},
		{name: "context past a page", args: []string{"long", "--message", "1500", "--context", "600"}, lo: 900, hi: 2100, wantAsks: allPages},
		{name: "message past the end", args: []string{"long", "--message", "2600", "--context", "3"}, wantErr: "no message 2600",
			wantAsks: append([]string{page(2597, 7)}, allPages...)},
		{name: "message past the end, window within", args: []string{"long", "--message", "2501", "--context", "3"}, wantErr: "has 2500 messages (0 to 2499); no message 2501",
			wantAsks: []string{page(2498, 7)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			asked = nil
			mu.Unlock()
			r := cs(t, home, append([]string{"show", "--data-dir", data, "--json"}, tc.args...)...)
			mu.Lock()
			got := slices.Clone(asked)
			mu.Unlock()
			if !slices.Equal(got, tc.wantAsks) {
				t.Errorf("asked\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.wantAsks, "\n  "))
			}
			if tc.wantErr != "" {
				if r.code != 1 || !strings.Contains(r.stderr, tc.wantErr) {
					t.Errorf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, tc.wantErr)
				}
				return
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var c conversation.Conversation
			if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
				t.Fatal(err)
			}
			want := *whole
			want.Messages = whole.Messages[tc.lo : tc.hi+1]
			wantJSON, _ := json.Marshal(&want)
			gotJSON, _ := json.Marshal(&c)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("printed %d messages (#%d…), want #%d to #%d as the whole conversation cut", len(c.Messages), first(c.Messages), tc.lo, tc.hi)
			}
		})
	}
}

func first(ms []conversation.Message) int {
	if len(ms) == 0 {
		return -1
	}
	return ms[0].Index
}
