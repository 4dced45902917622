package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// statsBackend answers Stats and AddContext; the auth tests ask nothing else.
type statsBackend struct{ Backend }

func (statsBackend) Stats(context.Context) (*indexer.Stats, error) {
	return &indexer.Stats{Documents: 7}, nil
}

func (statsBackend) AddContext(context.Context, []query.Hit, int) error { return nil }

const testToken = "tok-3f9a"

func authHandler(anyHost bool) http.Handler {
	return NewHandler(HandlerOptions{
		Backend: statsBackend{},
		Token:   testToken,
		AnyHost: anyHost,
		Sync:    func(context.Context, []string) (any, error) { return map[string]int{"synced": 1}, nil },
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusAccepted)
		}),
		Identity: Health{PID: 42, DataDir: "/private/data", Build: "v9 (abc123)", Redaction: "rules-1"},
	})
}

func TestTokenRequired(t *testing.T) {
	cookie := "convsearch-7788=" + testToken
	for _, tc := range []struct {
		name          string
		method, path  string
		body, headers string // headers: "Key: value" lines
		anyHost       bool
		want          int
	}{
		{"api, nothing", "GET", "/api/stats", "", "", false, 401},
		{"api, wrong bearer", "GET", "/api/stats", "", "Authorization: Bearer tok-3f9b", false, 401},
		{"api, empty bearer", "GET", "/api/stats", "", "Authorization: Bearer ", false, 401},
		{"api, bearer", "GET", "/api/stats", "", "Authorization: Bearer " + testToken, false, 200},
		// RFC 7235: the scheme is case-insensitive.
		{"api, bearer lower case", "GET", "/api/stats", "", "Authorization: bearer " + testToken, false, 200},
		{"api, bearer upper case", "GET", "/api/stats", "", "Authorization: BEARER " + testToken, false, 200},
		{"api, bearer spaces", "GET", "/api/stats", "", "Authorization:   Bearer \t " + testToken + "  ", false, 200},
		{"api, bearer tab", "GET", "/api/stats", "", "Authorization: Bearer\t" + testToken, false, 200},
		{"api, bearer glued", "GET", "/api/stats", "", "Authorization: Bearer" + testToken, false, 401},
		{"api, basic", "GET", "/api/stats", "", "Authorization: Basic " + testToken, false, 401},
		{"api, token alone", "GET", "/api/stats", "", "Authorization: " + testToken, false, 401},
		// No cookie opens anything: browsers send cookies to every port of
		// the host, so one holding the token would reach other accounts'
		// servers on this machine's loopback.
		{"api, cookie", "GET", "/api/stats", "", "Cookie: " + cookie, false, 401},
		{"api, token in the query", "GET", "/api/stats?token=" + testToken, "", "", false, 401},
		{"sync, nothing", "POST", "/api/sync", `{"roots":[]}`, "Content-Type: application/json", false, 401},
		{"sync, bearer", "POST", "/api/sync", `{"roots":[]}`, "Content-Type: application/json\nAuthorization: Bearer " + testToken, false, 200},
		{"post, bearer, same origin", "POST", "/api/context", `{"hits":[]}`, "Authorization: Bearer " + testToken + "\nSec-Fetch-Site: same-origin", false, 200},
		// Another account's page on another loopback port is same-site:
		// the origin check stops its POSTs, token or not.
		{"post, bearer, other origin", "POST", "/api/sync", `{"roots":[]}`, "Content-Type: application/json\nAuthorization: Bearer " + testToken + "\nOrigin: http://127.0.0.1:9999\nSec-Fetch-Site: same-site", false, 403},
		{"mcp, nothing", "POST", "/mcp", `{}`, "", false, 401},
		{"mcp, cookie", "POST", "/mcp", `{}`, "Cookie: " + cookie, false, 401},
		{"mcp, bearer", "POST", "/mcp", `{}`, "Authorization: Bearer " + testToken, false, 202},
		{"mcp, bearer lower case", "POST", "/mcp", `{}`, "Authorization: bearer " + testToken, false, 202},
		{"other host, bearer", "GET", "/api/stats", "", "Authorization: Bearer " + testToken + "\nHost: evil.example:7788", false, 403},
		{"other host, bearer, any host", "GET", "/api/stats", "", "Authorization: Bearer " + testToken + "\nHost: box.example:7788", true, 200},
		{"page shell", "GET", "/", "", "", false, 200},
		{"page asset", "GET", "/app.js", "", "", false, 200},
		{"healthz", "GET", "/healthz", "", "", false, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://127.0.0.1:7788"+tc.path, strings.NewReader(tc.body))
			for line := range strings.SplitSeq(tc.headers, "\n") {
				if k, v, ok := strings.Cut(line, ": "); ok {
					if k == "Host" {
						req.Host = v
					} else {
						req.Header.Set(k, v)
					}
				}
			}
			rec := httptest.NewRecorder()
			authHandler(tc.anyHost).ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Errorf("HTTP %d, want %d: %s", rec.Code, tc.want, rec.Body)
			}
			if rec.Code == 401 && !strings.Contains(rec.Body.String(), "convsearch open") {
				t.Errorf("401 does not say what to do: %s", rec.Body)
			}
			if strings.Contains(rec.Body.String(), "/private/data") {
				t.Errorf("answer tells the data folder: %s", rec.Body)
			}
		})
	}
}

func TestLoginLink(t *testing.T) {
	for _, tc := range []struct {
		name, path   string
		wantCode     int
		wantLocation string
	}{
		{"right token", "/?token=" + testToken + "&q=lemur", http.StatusOK, ""},
		{"wrong token", "/?token=guess&q=lemur", http.StatusOK, ""},
		{"empty token", "/?token=", http.StatusOK, ""},
		{"from an asset", "/app.js?token=" + testToken, http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			authHandler(false).ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:7788"+tc.path, nil))
			if rec.Code != tc.wantCode || rec.Header().Get("Location") != tc.wantLocation {
				t.Errorf("HTTP %d to %q, want %d to %q", rec.Code, rec.Header().Get("Location"), tc.wantCode, tc.wantLocation)
			}
			// The page's script keeps the token; the server sets no cookie
			// (browsers send cookies to every port of the host) and the
			// answer is not cached.
			if cookies := rec.Result().Cookies(); len(cookies) > 0 {
				t.Errorf("a cookie was set: %v", cookies)
			}
			if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
			if strings.Contains(rec.Body.String(), testToken) {
				t.Errorf("the answer repeats the token: %.200s", rec.Body)
			}
		})
	}
}

// TestHealthProof: /healthz answers a nonce with HMAC(token, nonce), and
// nothing else, to a client without the token; a wrong token cannot
// forge it.
func TestHealthProof(t *testing.T) {
	rec := httptest.NewRecorder()
	authHandler(false).ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:7788/healthz?nonce=abc", nil))
	var h Health
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
		t.Fatal(err)
	}
	if h.Proof != HealthProof(testToken, "abc") || h.Proof == HealthProof("other", "abc") {
		t.Errorf("proof %q, want HealthProof(token, nonce)", h.Proof)
	}
	if h.PID != 0 || h.DataDir != "" || h.Build != "" || h.Redaction != "" {
		t.Errorf("identity told without the token: %+v", h)
	}
	// With the token, /healthz tells the process: its build and redaction
	// rules beside its pid.
	req := httptest.NewRequest("GET", "http://127.0.0.1:7788/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	rec = httptest.NewRecorder()
	authHandler(false).ServeHTTP(rec, req)
	h = Health{}
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
		t.Fatal(err)
	}
	if h.PID != 42 || h.Build != "v9 (abc123)" || h.Redaction != "rules-1" {
		t.Errorf("with the token: %+v, want pid 42, build and redaction told", h)
	}
}

func TestNoTokenIsOpen(t *testing.T) {
	h := NewHandler(HandlerOptions{Backend: statsBackend{}})
	for host, want := range map[string]int{"127.0.0.1:7788": 200, "localhost": 200, "evil.example": 403} {
		req := httptest.NewRequest("GET", "/api/stats", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("no token, Host %s: HTTP %d, want %d", host, rec.Code, want)
		}
	}
}
