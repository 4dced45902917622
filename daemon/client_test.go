package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
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
