package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
)

// HandlerOptions configure NewHandler.
type HandlerOptions struct {
	// Backend answers the queries.
	Backend Backend
	// Sync brings the index in line with roots now (POST /api/sync); empty
	// roots mean every root the daemon watches. Nil: the endpoint is absent.
	// The summary it returns is sent as JSON.
	Sync func(ctx context.Context, roots []string) (summary any, err error)
	// Ready reports whether the first pass over the roots is done
	// (/readyz). Nil: always ready.
	Ready func() bool
	// Indexing reports whether answers may miss conversations: the first
	// pass is running on an index that no earlier pass completed (/readyz
	// says it). Nil: while not Ready.
	Indexing func() bool
	// Status returns what /api/status shows besides the basics (roots,
	// last sync…). Nil: nothing more.
	Status func() any
	// Token is required on every /api and /mcp request, as
	// "Authorization: Bearer <token>"; the page keeps it in its origin's
	// storage from a login link (/?token=<token>). No cookie: browsers send
	// cookies to every port of a host, another account's server on this
	// machine's loopback among them. Empty leaves the API open: for tests
	// in one process only; the daemon always has a token, since other
	// accounts on the machine reach its loopback port too.
	Token string
	// AnyHost serves requests naming any host. By default only loopback
	// names are served (a defence against DNS rebinding): the daemon sets
	// it when it listens beyond loopback.
	AnyHost bool
	// MCP, when set, is mounted at /mcp.
	MCP http.Handler
	// Identity is what /healthz tells about the process, so a client can
	// check it reached the daemon it meant.
	Identity Health
	// Logger receives a debug line per request and errors (default: none).
	Logger *slog.Logger
}

// Health is /healthz's answer.
type Health struct {
	Status  string `json:"status"`
	PID     int    `json:"pid,omitempty"`
	DataDir string `json:"data_dir,omitempty"`
	Version string `json:"version,omitempty"`
	// Build is the version with the VCS revision, and Redaction the rules
	// the daemon indexes under, for a client with the token to see what
	// answers it (the CLI compares them through the daemon's file).
	Build     string    `json:"build,omitempty"`
	Redaction string    `json:"redaction,omitempty"`
	Started   time.Time `json:"started,omitzero"`
	Ready     bool      `json:"ready"`
	// Proof is HealthProof(token, nonce) when the request sent a nonce.
	Proof string `json:"proof,omitempty"`
}

// ContextRequest asks for the messages around message hits
// (POST /api/context).
type ContextRequest struct {
	Hits    []query.Hit `json:"hits"`
	Context int         `json:"context"`
}

// SyncRequest asks the daemon to reconcile roots (POST /api/sync).
type SyncRequest struct {
	Roots []string `json:"roots"`
}

// Loaded is a conversation as GET /api/conversations/{id} returns it: a page
// of its messages (offset and limit; DefaultPage from the start by default),
// with everything else about it.
type Loaded struct {
	Conversation *conversation.Conversation `json:"conversation"`
	// FromIndex is true when the source file could not be read again and
	// the conversation was rebuilt from the text the index keeps.
	FromIndex bool `json:"from_index,omitempty"`
	// MessageCount is the number of messages of the whole conversation;
	// Offset is the position of the first message sent.
	MessageCount int `json:"message_count"`
	Offset       int `json:"offset"`
	// NextOffset is the offset of the next page, when there is one.
	NextOffset int `json:"next_offset,omitempty"`
	// Focus is the message a hit's id points at (m/ID/N, or the message a
	// decision d/ID/N was taken in), when the conversation was asked for
	// by a hit's id.
	Focus *int `json:"focus,omitempty"`
}

// focusContext is how many messages before a hit's message a page asked
// for by the hit's id starts: the question it answers, in view.
const focusContext = 2

// maxContext bounds the messages asked around each hit.
const maxContext = 50

// NewHandler returns the daemon's HTTP handler: the JSON API under /api,
// /healthz, /readyz, the search page at /, and /mcp when given.
func NewHandler(o HandlerOptions) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	h := &handler{o: o}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.health)
	mux.HandleFunc("GET /readyz", h.readyz)
	// allowed is the method of each fixed API path, so that another method
	// gets 405 and an Allow header rather than 404.
	allowed := map[string]string{}
	api := func(pattern string, f http.HandlerFunc) {
		if method, path, ok := strings.Cut(pattern, " "); ok && !strings.Contains(path, "{") {
			allowed[path] = method
		}
		mux.Handle(pattern, h.authorized(f))
	}
	api("GET /api/search", h.search)
	api("GET /api/conversations/{id}", h.conversation)
	api("GET /api/conversations/{id}/related", h.related)
	api("POST /api/context", h.context)
	api("GET /api/topics", h.topics)
	api("GET /api/decisions", h.decisions)
	api("GET /api/stats", h.stats)
	api("GET /api/overview", h.overview)
	api("GET /api/conversations/{id}/view", h.view)
	api("GET /api/status", h.status)
	if o.Sync != nil {
		api("POST /api/sync", h.sync)
	}
	api("/api/", func(w http.ResponseWriter, r *http.Request) {
		if method, ok := allowed[r.URL.Path]; ok {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, "%s %s: this endpoint takes %s", r.Method, r.URL.Path, method)
			return
		}
		writeError(w, http.StatusNotFound, "no such API endpoint: %s %s", r.Method, r.URL.Path)
	})
	if o.MCP != nil {
		mux.Handle("/mcp", h.authorized(o.MCP.ServeHTTP))
		mux.Handle("/mcp/", h.authorized(o.MCP.ServeHTTP))
	}
	page := pageHandler()
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("token") {
			// A login link: the page's script keeps the token and takes
			// it out of the address; the answer must not be cached.
			w.Header().Set("Cache-Control", "no-store")
		}
		page.ServeHTTP(w, r)
	}))
	return h.guard(mux)
}

type handler struct{ o HandlerOptions }

// guard refuses requests for a host that is not loopback unless AnyHost
// (a web page elsewhere must not reach the API through DNS rebinding) and
// POSTs a page of another origin sends (CSRF, a second defence: no cookie
// authorizes anything), sets the headers every answer shares, and logs.
func (h *handler) guard(next http.Handler) http.Handler {
	// Browsers tell where a request comes from; a POST from another origin
	// (another user's page on another loopback port is one) is refused.
	// Clients that are not browsers send no such header.
	next = http.NewCrossOriginProtection().Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if !h.o.AnyHost && !IsLoopback(r.Host) {
			writeError(w, http.StatusForbidden, "host %q refused: this daemon answers on loopback only (start it with --token and a non-loopback --addr to serve other hosts)", r.Host)
			return
		}
		hdr := w.Header()
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Referrer-Policy", "no-referrer")
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		// The path only: a login link's query holds the token.
		h.o.Logger.Debug("http", "method", r.Method, "path", r.URL.Path, "status", rec.status, "took", time.Since(start).Round(time.Microsecond))
	})
}

// statusRecorder remembers the status written, for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush lets streaming handlers (MCP) flush through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// authorized requires the token, when there is one, as a bearer token.
func (h *handler) authorized(f http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.o.Token != "" && !h.bearerOK(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="convsearch"`)
			writeError(w, http.StatusUnauthorized, "%s", unauthorized)
			return
		}
		f(w, r)
	})
}

// unauthorized is the error of a request without the token.
const unauthorized = "missing or wrong token: open the link `convsearch serve` printed, or run `convsearch open` for a new one " +
	"(clients: send Authorization: Bearer <the token in daemon.json>)"

// bearerOK reads Authorization: Bearer <token>. The scheme is
// case-insensitive (RFC 7235: bearer, BEARER), and spaces around the
// scheme and the token are allowed.
func (h *handler) bearerOK(r *http.Request) bool {
	v := strings.TrimSpace(r.Header.Get("Authorization"))
	i := strings.IndexAny(v, " \t")
	return i > 0 && strings.EqualFold(v[:i], "Bearer") && h.tokenIs(strings.TrimSpace(v[i:]))
}

// tokenIs compares in constant time: how long a wrong guess took must
// not tell how much of it was right.
func (h *handler) tokenIs(tok string) bool {
	return tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(h.o.Token)) == 1
}

// proof answers a client's nonce with HMAC(token, nonce): a client that
// finds daemon.json proves the daemon at its address holds the token
// before sending it (a stale file's port may be another account's now).
func (h *handler) proof(nonce string) string {
	if h.o.Token == "" || nonce == "" || len(nonce) > maxNonce {
		return ""
	}
	return HealthProof(h.o.Token, nonce)
}

// maxNonce bounds the nonce /healthz proves the token with.
const maxNonce = 128

// HealthProof is what a daemon holding token answers to nonce at
// /healthz?nonce=…
func HealthProof(token, nonce string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("convsearch healthz\x00" + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

func (h *handler) ready() bool { return h.o.Ready == nil || h.o.Ready() }

func (h *handler) health(w http.ResponseWriter, r *http.Request) {
	nonce := r.URL.Query().Get("nonce")
	if len(nonce) > maxNonce {
		// Answered without a proof, the client would take this daemon
		// for an impostor.
		writeBadRequest(w, fmt.Errorf("nonce of %d bytes: at most %d", len(nonce), maxNonce))
		return
	}
	out := Health{Status: "ok", Ready: h.ready(), Proof: h.proof(nonce)}
	// Who we are is told to those allowed to ask.
	if h.o.Token == "" || h.bearerOK(r) {
		id := h.o.Identity
		out.PID, out.DataDir, out.Version, out.Started = id.PID, id.DataDir, id.Version, id.Started
		out.Build, out.Redaction = id.Build, id.Redaction
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *handler) readyz(w http.ResponseWriter, r *http.Request) {
	if !h.ready() {
		indexing := h.o.Indexing == nil || h.o.Indexing()
		status := "checking the roots against an index a pass completed before"
		if indexing {
			status = "indexing: a first pass, or a full rebuild, is under way"
		}
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"ready": false, "indexing": indexing, "status": status})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ready": true, "indexing": false})
}

func (h *handler) search(w http.ResponseWriter, r *http.Request) {
	req, n, err := ParseSearchParams(r.URL.Query(), time.Now())
	if err == nil {
		err = all.UnknownSource(r.Context(), indexer.SourceCounts(h.o.Backend.Stats), req.Sources)
	}
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	res, err := h.o.Backend.Search(r.Context(), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if n > 0 {
		if err := h.o.Backend.AddContext(r.Context(), res.Hits, n); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, res)
}

func (h *handler) conversation(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	p, err := ParsePageParams(v)
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	c, fromIndex, focus, ok := h.loadHit(w, r)
	if !ok {
		return
	}
	if err := pastLast("offset", p.Offset, c); err != nil {
		writeBadRequest(w, err)
		return
	}
	if focus >= 0 && !v.Has("offset") {
		// A hit's id: the page that holds the hit.
		p.Offset = max(0, focus-focusContext)
	}
	l := PageOf(c, fromIndex, p)
	if focus >= 0 {
		l.Focus = &focus
	}
	writeJSON(w, http.StatusOK, l)
}

// loadHit loads the conversation the request's {id} names, a conversation's
// id or a hit's: a negative hit number is refused, and so is a hit past what
// the file holds now. focus is the hit's message, -1 for none. When ok is
// false it has answered.
func (h *handler) loadHit(w http.ResponseWriter, r *http.Request) (c *conversation.Conversation, fromIndex bool, focus int, ok bool) {
	id := r.PathValue("id")
	if err := negativeHit(id); err != nil {
		writeBadRequest(w, err)
		return nil, false, -1, false
	}
	c, fromIndex, err := h.o.Backend.Load(r.Context(), id)
	if err == nil {
		err = query.GoneHit(c, id)
	}
	if err != nil {
		h.fail(w, r, err)
		return nil, false, -1, false
	}
	return c, fromIndex, query.HitMessage(c, id), true
}

// negativeHit returns an error for a hit's id whose number is negative
// (m/ID/-1, d/ID/-1): no hit's id, it would otherwise be looked up as a
// conversation's and answered "no such conversation", which misleads.
func negativeHit(id string) error {
	kind, rest, _ := strings.Cut(id, "/")
	i := strings.LastIndexByte(rest, '/')
	if (kind != "m" && kind != "d") || i <= 0 {
		return nil
	}
	if n, err := strconv.Atoi(rest[i+1:]); err == nil && n < 0 {
		what := "message"
		if kind == "d" {
			what = "decision"
		}
		return fmt.Errorf("%s number %d of %q is negative: %ss are numbered from 0", what, n, id, what)
	}
	return nil
}

// PageOf returns the page p of conversation c.
func PageOf(c *conversation.Conversation, fromIndex bool, p Page) Loaded {
	l := Loaded{FromIndex: fromIndex, MessageCount: len(c.Messages), Offset: min(p.Offset, len(c.Messages))}
	end := len(c.Messages)
	if p.Limit > 0 {
		end = min(l.Offset+p.Limit, end)
	}
	if end < len(c.Messages) {
		l.NextOffset = end
	}
	page := *c
	page.Messages = c.Messages[l.Offset:end]
	l.Conversation = &page
	return l
}

func (h *handler) related(w http.ResponseWriter, r *http.Request) {
	if err := known(r.URL.Query(), "limit"); err != nil {
		writeBadRequest(w, err)
		return
	}
	limit, err := limitParam(r.URL.Query(), 10, 100)
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	if err := negativeHit(r.PathValue("id")); err != nil {
		writeBadRequest(w, err)
		return
	}
	res, err := h.o.Backend.Related(r.Context(), r.PathValue("id"), limit)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (h *handler) context(w http.ResponseWriter, r *http.Request) {
	if err := known(r.URL.Query()); err != nil {
		writeBadRequest(w, fmt.Errorf("%w: send %s as the JSON body", err, contextBody))
		return
	}
	var req ContextRequest
	if err := readJSON(w, r, &req, contextBody, "hits", "context"); err != nil {
		writeBadRequest(w, err)
		return
	}
	if err := checkContext(req); err != nil {
		writeBadRequest(w, err)
		return
	}
	if err := h.findHits(r.Context(), req.Hits); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.o.Backend.AddContext(r.Context(), req.Hits, req.Context); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, req.Hits)
}

// checkContext vets a context request.
func checkContext(req ContextRequest) error {
	if req.Context < 0 || req.Context > maxContext {
		return fmt.Errorf("context %d out of range: 0 to %d", req.Context, maxContext)
	}
	if len(req.Hits) > query.MaxLimit {
		return fmt.Errorf("%d hits: at most %d", len(req.Hits), query.MaxLimit)
	}
	for i := range req.Hits {
		h := &req.Hits[i]
		if h.MessageIndex != nil && *h.MessageIndex < 0 {
			return fmt.Errorf("hit %d: message_index %d is negative: messages are numbered from 0", i, *h.MessageIndex)
		}
		if err := resolveHit(h); err != nil {
			return fmt.Errorf("hit %d: %w", i, err)
		}
	}
	return nil
}

// resolveHit fills a hit's conversation_id and kind, and a message hit's
// message_index, from its id (m/ID/N, c/ID, t/ID/SLUG, d/ID/N) when it came
// without them: a hit given by its id alone would otherwise get no context,
// in silence. An id that disagrees with the hit's other fields is refused:
// the context of one message under another's id misleads.
func resolveHit(h *query.Hit) error {
	conv, msg := query.ConversationID(h.ID)
	if conv == h.ID { // no hit's id: the fields alone place the hit
		if h.ConversationID == "" {
			if h.ID == "" {
				return errors.New("no conversation_id and no id: send the hit as search returned it (its id, m/ID/N, is enough)")
			}
			return fmt.Errorf("no conversation_id, and id %q is no hit's id (m/ID/N, d/ID/N…): send the hit as search returned it", h.ID)
		}
	} else {
		prefix, _, _ := strings.Cut(h.ID, "/")
		kind := idKinds[prefix]
		switch {
		case h.ConversationID != "" && h.ConversationID != conv:
			return fmt.Errorf("id %q names conversation %q, conversation_id %q: send the hit as search returned it", h.ID, conv, h.ConversationID)
		case h.Kind != "" && h.Kind != kind:
			return fmt.Errorf("id %q is a %s hit's, kind %q: send the hit as search returned it", h.ID, kind, h.Kind)
		case msg >= 0 && h.MessageIndex != nil && *h.MessageIndex != msg:
			return fmt.Errorf("id %q names message %d, message_index %d: send the hit as search returned it", h.ID, msg, *h.MessageIndex)
		}
		h.ConversationID, h.Kind = conv, kind
		if msg >= 0 {
			h.MessageIndex = &msg
		}
	}
	if h.Kind == indexer.KindMessage && h.MessageIndex == nil {
		return fmt.Errorf("a message hit of conversation %s without message_index (and no id m/ID/N to read it from)", h.ConversationID)
	}
	return nil
}

// idKinds is the kind of hit each prefix of a hit's id names.
var idKinds = map[string]string{
	"c": indexer.KindConversation,
	"m": indexer.KindMessage,
	"t": indexer.KindTopic,
	"d": indexer.KindDecision,
}

// findHits returns an error, a query.ErrNotFound, naming the first of hits
// whose conversation, or message, the index does not hold: context asked
// around a message that is not there would come back empty, as if the
// message stood alone. A hit past its conversation's end is stale (its
// file shrank since the search): refused too, as a search again finds
// what is there now. One search checks them all.
func (h *handler) findHits(ctx context.Context, hits []query.Hit) error {
	if len(hits) == 0 {
		return nil
	}
	var ids []string // each conversation, or message, once
	which := map[string]int{}
	for i, hit := range hits {
		id := hit.ConversationID
		if hit.Kind == indexer.KindMessage && hit.MessageIndex != nil {
			id = indexer.MessageDocID(hit.ConversationID, *hit.MessageIndex)
		}
		if _, ok := which[id]; !ok {
			which[id] = i
			ids = append(ids, id)
		}
	}
	// A message's id names its conversation too; the search checks that
	// the message is there (a query.NoHitError when not).
	res, err := h.o.Backend.Search(ctx, query.Request{Conversations: ids, Types: []string{indexer.KindConversation},
		Limit: min(len(ids), query.MaxLimit), NoHighlight: true})
	var nh *query.NoHitError
	switch {
	case errors.As(err, &nh):
		return fmt.Errorf("hit %d: %w; it may be stale, its file changed since the search: search again", which[nh.ID], err)
	case err != nil:
		return err
	}
	found := map[string]bool{}
	for _, hit := range res.Hits {
		found[hit.ConversationID] = true
	}
	for i, hit := range hits {
		if !found[hit.ConversationID] {
			return fmt.Errorf("hit %d (conversation %q): %w", i, hit.ConversationID, query.ErrNotFound)
		}
	}
	return nil
}

func (h *handler) topics(w http.ResponseWriter, r *http.Request) {
	req, err := ParseTopicsParams(r.URL.Query())
	if err == nil {
		err = all.UnknownSource(r.Context(), indexer.SourceCounts(h.o.Backend.Stats), req.Sources)
	}
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	topics, err := h.o.Backend.Topics(r.Context(), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// The answer stays a bare list, as clients read it; whether a page
	// follows is a header. A full page asks for the next topic to know.
	if next := req.Offset + len(topics); len(topics) == req.Limit && next <= query.MaxOffset {
		more, err := h.o.Backend.Topics(r.Context(), query.TopicsRequest{Projects: req.Projects, Sources: req.Sources, Limit: 1, Offset: next})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if len(more) > 0 {
			w.Header().Set("X-Next-Offset", strconv.Itoa(next))
		}
	}
	writeJSON(w, http.StatusOK, topics)
}

func (h *handler) decisions(w http.ResponseWriter, r *http.Request) {
	req, err := ParseDecisionsParams(r.URL.Query(), time.Now())
	if err == nil {
		err = all.UnknownSource(r.Context(), indexer.SourceCounts(h.o.Backend.Stats), req.Sources)
	}
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	res, err := h.o.Backend.Decisions(r.Context(), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// The Result says next_offset, as a search's does.
	writeJSON(w, http.StatusOK, res)
}

func (h *handler) stats(w http.ResponseWriter, r *http.Request) {
	if err := known(r.URL.Query()); err != nil {
		writeBadRequest(w, err)
		return
	}
	s, err := h.o.Backend.Stats(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s)
}

func (h *handler) status(w http.ResponseWriter, r *http.Request) {
	if err := known(r.URL.Query()); err != nil {
		writeBadRequest(w, err)
		return
	}
	out := map[string]any{"ready": h.ready(), "version": h.o.Identity.Version, "started": h.o.Identity.Started}
	if h.o.Status != nil {
		out["daemon"] = h.o.Status()
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *handler) sync(w http.ResponseWriter, r *http.Request) {
	// A browser sends a cross-site JSON POST only after a preflight, which
	// this server never grants: the type check keeps other pages out.
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "send the roots as application/json: %s", syncBody)
		return
	}
	// A mistyped parameter or key must not turn into a pass over every
	// root, which is what no roots asks for.
	if err := known(r.URL.Query()); err != nil {
		writeBadRequest(w, fmt.Errorf("%w: send %s as the JSON body", err, syncBody))
		return
	}
	var req SyncRequest
	if err := readJSON(w, r, &req, syncBody, "roots"); err != nil {
		writeBadRequest(w, err)
		return
	}
	roots, err := checkRoots(req.Roots)
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	req.Roots = roots
	// A pass over large roots takes longer than the server's write timeout.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	sum, err := h.o.Sync(r.Context(), req.Roots)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, sum)
}

// MaxSyncRoots bounds the roots of one sync request.
const MaxSyncRoots = 100

// checkRoots vets the roots of a sync request, which the daemon walks with
// the user's rights: each an absolute path to a file or folder, not the
// whole filesystem nor a virtual one; repeats are dropped. None means every
// root the daemon watches. A root that does not exist (or cannot be read)
// is no mistake in the request: the pass reports it as a failed file and
// indexes the others, as `convsearch index` does without a daemon.
func checkRoots(roots []string) ([]string, error) {
	if len(roots) > MaxSyncRoots {
		return nil, fmt.Errorf("%d roots: at most %d in one request", len(roots), MaxSyncRoots)
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range roots {
		switch {
		case strings.TrimSpace(r) == "":
			return nil, errors.New("an empty root: give absolute paths (no roots: every root the daemon watches)")
		case !filepath.IsAbs(r):
			return nil, fmt.Errorf("root %q is not an absolute path: the daemon's working folder is not yours", r)
		}
		c := filepath.Clean(r)
		if c == string(filepath.Separator) || underAny(c, "/proc", "/sys", "/dev") {
			return nil, fmt.Errorf("root %q: refusing to walk the whole filesystem or a virtual one", r)
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// underAny reports whether path is one of dirs or inside one.
func underAny(path string, dirs ...string) bool {
	for _, d := range dirs {
		if path == d || strings.HasPrefix(path, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// fail answers err with the status that fits it.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	var se *query.SyntaxError
	switch {
	case errors.As(err, &se):
		writeBadRequest(w, err)
	case errors.Is(err, query.ErrNotFound):
		writeError(w, http.StatusNotFound, "%v", err)
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "%v", err)
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client went away; nobody reads the answer.
		writeError(w, 499, "%v", err)
	default:
		h.o.Logger.Error("request failed", "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "%v", err)
	}
}

// ErrorBody is the body of every error answer.
type ErrorBody struct {
	Error string `json:"error"`
	// Pos is, for a query syntax error, the byte offset of the mistake.
	Pos *int `json:"pos,omitempty"`
}

// writeBadRequest answers a mistake in the request: every 400 goes out
// through it (fail sends a query syntax error here too), so the client
// always learns what to fix.
func writeBadRequest(w http.ResponseWriter, err error) {
	body := ErrorBody{Error: err.Error()}
	var se *query.SyntaxError
	if errors.As(err, &se) {
		body.Pos = &se.Pos
	}
	writeJSON(w, http.StatusBadRequest, body)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, ErrorBody{Error: fmt.Sprintf(format, args...)})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	_ = enc.Encode(v) // the client may be gone; nothing to do about it
}

// maxBody bounds a request body.
const maxBody = 8 << 20

// The bodies of the POST endpoints, as their errors show them.
const (
	syncBody    = `{"roots": ["/abs/path", ...]}`
	contextBody = `{"hits": [...], "context": N}`
)

// readJSON reads the request body, a JSON object (as example shows it)
// whose keys are among keys, into v; an empty body leaves v as it is. Its
// errors are the client's (answered with writeBadRequest). A key is
// matched exactly, not in any case as encoding/json would, and only at the
// top: hits are taken as a search returned them.
func readJSON(w http.ResponseWriter, r *http.Request, v any, example string, keys ...string) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return fmt.Errorf("read request body: %w", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return fmt.Errorf("request body: want one JSON object, %s: %w", example, err)
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("unknown key %q in the request body: this endpoint takes %s (%s)", k, strings.Join(keys, ", "), example)
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("request body: %w", err)
	}
	return nil
}

func intParam(v map[string][]string, name string, def int) (int, error) {
	s := first(v, name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a whole number", name, s)
	}
	return n, nil
}
