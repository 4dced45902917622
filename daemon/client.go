package daemon

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/mcp"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

// Client is a Backend that asks a running daemon over HTTP.
type Client struct {
	base  string // http://host:port, no trailing slash
	token string
	hc    *http.Client
	// wait bounds a request other than a sync when its context has no
	// deadline: a daemon stopped (SIGSTOP) or stuck after it answered once
	// still accepts connections, and a command would wait for ever.
	wait time.Duration
}

// AnswerTimeout is how long a command waits for the daemon's answer to a
// request other than a sync: past the daemon's own search limit (a 504
// after 10 s), with room to spare.
const AnswerTimeout = 30 * time.Second

var (
	_ server.Backend = (*Client)(nil)
	_ mcp.Backend    = (*Client)(nil)
)

// NewClient returns a client of the daemon at baseURL (http://host:port),
// sending token when it is not empty.
func NewClient(baseURL, token string) *Client {
	tr := &http.Transport{
		Proxy:               nil, // a loopback daemon is never behind the user's proxy
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
	}
	return &Client{base: strings.TrimRight(baseURL, "/"), token: token, hc: &http.Client{Transport: tr}, wait: AnswerTimeout}
}

// URL returns the daemon's base URL.
func (c *Client) URL() string { return c.base }

// Close releases the client's idle connections.
func (c *Client) Close() error {
	c.hc.CloseIdleConnections()
	return nil
}

// APIError is an error answer of the daemon.
type APIError struct {
	Status  int
	Message string
	Pos     *int // for a query syntax error
}

func (e *APIError) Error() string {
	return fmt.Sprintf("daemon: %s (HTTP %d)", e.Message, e.Status)
}

// EngineError rebuilds, for a caller that sent query q, the error the
// daemon's index returned, so that it reads as it would without a daemon:
// the *query.SyntaxError of a query syntax error, a context.DeadlineExceeded
// for a search stopped as too long, the message alone of another refused
// request; nil for any other answer.
func (e *APIError) EngineError(q string) error {
	switch {
	case e.Status == http.StatusBadRequest && e.Pos != nil:
		// The message is SyntaxError.Error(): what is wrong follows the column.
		msg := e.Message
		if _, rest, ok := strings.Cut(msg, "query syntax error at column "); ok {
			if _, m, ok := strings.Cut(rest, ": "); ok {
				msg = m
			}
		}
		return &query.SyntaxError{Query: q, Pos: *e.Pos, Msg: msg}
	case e.Status == http.StatusBadRequest:
		return errors.New(e.Message)
	case e.Status == http.StatusGatewayTimeout:
		return fmt.Errorf("%s: %w", e.Message, context.DeadlineExceeded)
	}
	return nil
}

// notFoundError is the daemon's 404 for a conversation: query.ErrNotFound,
// worded as the index words it ("conversation X has 16 messages (0 to 15);
// no message 999"), not as the transport ("daemon: … (HTTP 404)").
type notFoundError struct{ *APIError }

func (e *notFoundError) Error() string   { return e.Message }
func (e *notFoundError) Unwrap() []error { return []error{query.ErrNotFound, e.APIError} }

// indexNotFound reports whether a 404 of the endpoint at path is the
// index's not found (a conversation, or a hit's message, it does not hold):
// a search for a hit's id past its conversation's end answers 404 too, and
// must read as it does without a daemon. Other 404s are the transport's.
func indexNotFound(path string) bool {
	return strings.HasPrefix(path, "/api/conversations/") || path == "/api/search" || path == "/api/context"
}

// Health asks /healthz.
func (c *Client) Health(ctx context.Context) (*server.Health, error) {
	var h server.Health
	return &h, c.get(ctx, "/healthz", nil, &h)
}

// Indexing asks /readyz whether answers may miss conversations: the
// daemon's first pass is running on an index no earlier pass completed.
func (c *Client) Indexing(ctx context.Context) (bool, error) {
	_, indexing, err := c.readiness(ctx)
	return indexing, err
}

// Ready asks /readyz whether the daemon's first pass is done.
func (c *Client) Ready(ctx context.Context) (bool, error) {
	ready, _, err := c.readiness(ctx)
	return ready, err
}

// readiness reads /readyz, which answers 503 with the same body while the
// first pass runs. A daemon that does not say whether it is indexing is
// taken to be while it is not ready.
func (c *Client) readiness(ctx context.Context) (ready, indexing bool, err error) {
	var out struct {
		Ready    bool  `json:"ready"`
		Indexing *bool `json:"indexing"`
	}
	err = c.get(ctx, "/readyz", nil, &out)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable {
		// The 503's body is the readiness, kept whole as the message.
		_ = json.Unmarshal([]byte(ae.Message), &out)
		out.Ready, err = false, nil
	}
	if err != nil {
		return false, false, err
	}
	if out.Indexing == nil {
		return out.Ready, !out.Ready, nil
	}
	return out.Ready, *out.Indexing, nil
}

func (c *Client) Search(ctx context.Context, r query.Request) (*query.Result, error) {
	var res query.Result
	if err := c.get(ctx, "/api/search", server.SearchValues(r, 0), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Load returns the whole conversation. The daemon sends a page of it at a
// time (at most server.MaxPage messages), so Load asks for every page; a
// conversation that changes meanwhile (its file appended to) is read again.
func (c *Client) Load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	for tries := 1; ; tries++ {
		conv, fromIndex, err := c.loadPages(ctx, id)
		if errors.Is(err, errChanged) && tries < loadTries {
			continue
		}
		return conv, fromIndex, err
	}
}

// loadTries bounds the reads of a conversation that changes while it is read.
const loadTries = 3

// errChanged is a conversation that changed between two of its pages.
var errChanged = errors.New("the conversation changed while it was read")

func (c *Client) loadPages(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	path := "/api/conversations/" + url.PathEscape(id)
	var whole *conversation.Conversation
	var first server.Loaded
	for offset := 0; ; {
		// The offset is always given: for a hit's id the daemon would
		// otherwise start at the page that holds the hit.
		v := url.Values{"offset": {strconv.Itoa(offset)}, "limit": {strconv.Itoa(server.MaxPage)}}
		var l server.Loaded
		err := c.get(ctx, path, v, &l)
		var ae *APIError
		if offset > 0 && errors.As(err, &ae) && ae.Status == http.StatusBadRequest {
			// The offset is past the end now: the conversation shrank.
			return nil, false, fmt.Errorf("daemon: %s: %w", id, errChanged)
		}
		if err != nil {
			return nil, false, err
		}
		if l.Conversation == nil {
			return nil, false, fmt.Errorf("daemon: no conversation in the answer for %s", id)
		}
		if whole == nil {
			first = l
			cp := *l.Conversation
			cp.Messages = make([]conversation.Message, 0, l.MessageCount)
			whole = &cp
		} else if l.MessageCount != first.MessageCount || l.FromIndex != first.FromIndex {
			return nil, false, fmt.Errorf("daemon: %s: %w", id, errChanged)
		}
		if l.Offset != offset {
			return nil, false, fmt.Errorf("daemon: %s: page at %d asked, at %d sent", id, offset, l.Offset)
		}
		whole.Messages = append(whole.Messages, l.Conversation.Messages...)
		if l.NextOffset == 0 {
			break
		}
		if l.NextOffset <= offset {
			return nil, false, fmt.Errorf("daemon: %s: the page at %d points back to %d", id, offset, l.NextOffset)
		}
		offset = l.NextOffset
	}
	if len(whole.Messages) != first.MessageCount {
		return nil, false, fmt.Errorf("daemon: %s: %d messages read of %d: %w", id, len(whole.Messages), first.MessageCount, errChanged)
	}
	return whole, first.FromIndex, nil
}

// Window returns conversation id with only its messages offset to
// offset+limit-1 (fewer at its end), in one request of at most
// server.MaxPage messages: what `show --message N --context K` prints,
// without the rest of a long conversation. count is how many messages the
// conversation has. An offset past the end is the daemon's 400 (an
// *APIError).
func (c *Client) Window(ctx context.Context, id string, offset, limit int) (conv *conversation.Conversation, count int, fromIndex bool, err error) {
	if offset < 0 || limit < 1 || limit > server.MaxPage {
		return nil, 0, false, fmt.Errorf("daemon: window of %d messages at %d: from 0, 1 to %d messages", limit, offset, server.MaxPage)
	}
	// The offset is always given: for a hit's id the daemon would
	// otherwise start at the page that holds the hit.
	v := url.Values{"offset": {strconv.Itoa(offset)}, "limit": {strconv.Itoa(limit)}}
	var l server.Loaded
	if err := c.get(ctx, "/api/conversations/"+url.PathEscape(id), v, &l); err != nil {
		return nil, 0, false, err
	}
	if l.Conversation == nil {
		return nil, 0, false, fmt.Errorf("daemon: no conversation in the answer for %s", id)
	}
	if l.Offset != offset {
		return nil, 0, false, fmt.Errorf("daemon: %s: page at %d asked, at %d sent", id, offset, l.Offset)
	}
	return l.Conversation, l.MessageCount, l.FromIndex, nil
}

func (c *Client) Topics(ctx context.Context, r query.TopicsRequest) ([]query.TopicCount, error) {
	v := url.Values{}
	if len(r.Projects) > 0 {
		v["project"] = r.Projects
	}
	if len(r.Sources) > 0 {
		v["source"] = r.Sources
	}
	if r.Limit != 0 {
		v.Set("limit", strconv.Itoa(r.Limit))
	}
	if r.Offset != 0 {
		v.Set("offset", strconv.Itoa(r.Offset))
	}
	var out []query.TopicCount
	return out, c.get(ctx, "/api/topics", v, &out)
}

func (c *Client) Decisions(ctx context.Context, r query.DecisionsRequest) (*query.Result, error) {
	var res query.Result
	if err := c.get(ctx, "/api/decisions", server.DecisionsValues(r), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

func (c *Client) Related(ctx context.Context, id string, limit int) (*query.Result, error) {
	v := url.Values{}
	if limit != 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	var res query.Result
	if err := c.get(ctx, "/api/conversations/"+url.PathEscape(id)+"/related", v, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// AddContext asks the daemon for the messages around the message hits and
// fills their Context.
func (c *Client) AddContext(ctx context.Context, hits []query.Hit, n int) error {
	if n <= 0 || len(hits) == 0 {
		return nil
	}
	// Only what the daemon needs to find the messages travels.
	req := server.ContextRequest{Context: n, Hits: make([]query.Hit, len(hits))}
	for i, h := range hits {
		req.Hits[i] = query.Hit{Kind: h.Kind, ID: h.ID, ConversationID: h.ConversationID, MessageIndex: h.MessageIndex}
	}
	var out []query.Hit
	if err := c.post(ctx, "/api/context", req, &out); err != nil {
		return err
	}
	if len(out) != len(hits) {
		return fmt.Errorf("daemon: %d hits with context for %d asked", len(out), len(hits))
	}
	for i := range hits {
		hits[i].Context = out[i].Context
	}
	return nil
}

func (c *Client) Stats(ctx context.Context) (*indexer.Stats, error) {
	var s indexer.Stats
	if err := c.get(ctx, "/api/stats", nil, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Overview is the daemon's /api/overview.
func (c *Client) Overview(ctx context.Context) (*query.Overview, error) {
	var ov query.Overview
	if err := c.get(ctx, "/api/overview", nil, &ov); err != nil {
		return nil, err
	}
	return &ov, nil
}

// Sync asks the daemon to bring the index in line with roots now (every
// root it watches when roots is empty) and returns the pass's summary.
func (c *Client) Sync(ctx context.Context, roots []string) (*ingest.Summary, error) {
	var sum ingest.Summary
	if err := c.post(ctx, "/api/sync", server.SyncRequest{Roots: roots}, &sum); err != nil {
		return nil, err
	}
	return &sum, nil
}

// Verify proves that the daemon at the client's address holds the token
// before anything is sent with it: a nonce goes to /healthz without the
// token, and the answer must be server.HealthProof(token, nonce). A
// daemon.json left by a daemon that died names a port anyone may hold
// now; what holds it must learn neither the token nor the searches, nor
// answer them.
func (c *Client) Verify(ctx context.Context) error {
	if c.token == "" {
		return nil
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	nonce := hex.EncodeToString(b)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/healthz?nonce="+nonce, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, cancel, err := c.send(req)
	if err != nil {
		return err
	}
	defer cancel()
	defer resp.Body.Close()
	var h server.Health
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&h); err != nil {
		return fmt.Errorf("daemon at %s: not a convsearch daemon: %w", c.base, err)
	}
	if !hmac.Equal([]byte(h.Proof), []byte(server.HealthProof(c.token, nonce))) {
		return fmt.Errorf("daemon at %s: it does not hold the token of daemon.json (a daemon that is gone, its port now another program's)", c.base)
	}
	return nil
}

// send sends req to the daemon. A request other than a sync whose context
// has no deadline waits c.wait at most for the answer (see wait); cancel
// ends that bound, once the answer is read.
func (c *Client) send(req *http.Request) (resp *http.Response, cancel context.CancelFunc, err error) {
	cancel = func() {}
	bounded := false
	if _, ok := req.Context().Deadline(); !ok && req.URL.Path != "/api/sync" && c.wait > 0 {
		// A sync takes as long as the pass it waits for.
		var ctx context.Context
		ctx, cancel = context.WithTimeout(req.Context(), c.wait)
		req, bounded = req.WithContext(ctx), true
	}
	resp, err = c.hc.Do(req)
	if err != nil {
		cancel()
		if bounded && errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, fmt.Errorf("daemon at %s did not answer %s within %s (stopped or stuck? its pid is in daemon.json; restart it with `convsearch serve`): %w", c.base, req.URL.Path, c.wait, err)
		}
		return nil, nil, fmt.Errorf("daemon at %s: %w", c.base, err)
	}
	return resp, cancel, nil
}

func (c *Client) get(ctx context.Context, path string, v url.Values, out any) error {
	u := c.base + path
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	return c.do(req, out)
}

func (c *Client) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(req, out)
}

func (c *Client) do(req *http.Request, out any) error {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	req.Header.Set("Accept", "application/json")
	resp, cancel, err := c.send(req)
	if err != nil {
		return err
	}
	defer cancel()
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var body server.ErrorBody
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		ae := &APIError{Status: resp.StatusCode}
		if json.Unmarshal(data, &body) == nil && body.Error != "" {
			ae.Message, ae.Pos = body.Error, body.Pos
		} else {
			ae.Message = strings.TrimSpace(string(data))
		}
		if resp.StatusCode == http.StatusNotFound && indexNotFound(req.URL.Path) {
			return &notFoundError{ae}
		}
		return ae
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("daemon at %s: read answer to %s: %w", c.base, req.URL.Path, err)
	}
	// Drain what is left so the connection is reused.
	_, _ = io.Copy(io.Discard, resp.Body)
	return nil
}
