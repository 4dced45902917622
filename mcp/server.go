package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/query"
)

// Options configure the MCP server.
type Options struct {
	// Version is the server version reported to clients (default "dev").
	Version string
	// Logger receives one debug line per call and the failures (default:
	// discarded). Over stdio it must not write to stdout: stdout is the
	// protocol.
	Logger *slog.Logger
	// Now is the clock relative dates (7d, 2w) count back from (default
	// time.Now).
	Now func() time.Time
	// SessionTimeout closes idle streamable HTTP sessions (default
	// DefaultSessionTimeout), so clients that vanish without saying goodbye
	// do not pile up in a long-running daemon. A client whose session was
	// closed gets 404 and opens a new one, as the spec asks.
	SessionTimeout time.Duration
	// MaxSessions caps the live streamable HTTP sessions (default
	// DefaultMaxSessions): opening one more closes the least recently used.
	MaxSessions int
	// Indexing reports whether the first pass over the roots is still
	// running, so that answers can say they may be incomplete (default:
	// never).
	Indexing func(context.Context) bool
	// Notice, if set, returns what the next answer should tell the user
	// first (e.g. the daemon it goes through is another build); "": nothing.
	Notice func(context.Context) string
}

// SetDefaults fills the zero fields of o.
func (o *Options) SetDefaults() {
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.Indexing == nil {
		o.Indexing = func(context.Context) bool { return false }
	}
}

// Bounds of the streamable HTTP sessions. A session costs some 16 KB; the
// cap is about what it bounds, not memory: a daemon on one machine has a
// handful of agents, and an idle agent reconnects in one round trip.
const (
	DefaultSessionTimeout = 5 * time.Minute
	DefaultMaxSessions    = 64
)

// Sizes of answers: an agent's context is small and shared with its work.
const (
	mcpSearchDefault    = 10
	mcpSearchMax        = 50
	mcpDecisionsDefault = 10
	mcpDecisionsMax     = 50
	mcpTopicsDefault    = 20
	mcpTopicsMax        = 100
	mcpRelatedDefault   = 5
	mcpRelatedMax       = 20
	mcpWindowDefault    = 20  // messages of get_conversation
	mcpWindowMax        = 100 // hard cap on the window
	mcpContextDefault   = 3   // messages before the one asked for
	mcpContentMax       = 4000
	// mcpToolTextMax caps tool arguments and outputs, thinking and hidden
	// (injected) text: long, and rarely what the agent came for.
	mcpToolTextMax = 1000
	// mcpWindowBudget caps the text of a whole window: a hundred messages
	// at their own cap would still flood a context.
	mcpWindowBudget = 60000
	// mcpResourceBudget caps a conversation read as a resource.
	mcpResourceBudget = 70000
	// mcpAnswerMax caps a whole answer, text and structured content: 20k
	// tokens at some 4 bytes a token, under the 25k a common client allows.
	mcpAnswerMax      = 80000
	mcpFragmentsMax   = 3
	mcpFieldMax       = 1000 // a hit's text, rationale and snippets; a conversation's title and summaries
	mcpDecisionsShown = 20   // decisions listed with a conversation
	mcpSummariesShown = 5    // summaries listed with a conversation
	mcpHeadFieldMax   = 300  // a decision or rationale listed with a conversation
	mcpNamesShown     = 30   // topics, tags listed with a conversation
	mcpNameMax        = 100  // one topic or tag
)

// ConversationURIPrefix starts the URI of every conversation resource:
// convsearch://conversation/{id}.
const ConversationURIPrefix = "convsearch://conversation/"

const instructions = `convsearch is a searchable memory of the user's past conversations with AI tools (Claude Code, Codex, ChatGPT and claude.ai exports, Amazon Q and Kiro CLI, and more), indexed on this machine.
Which tool when:
- a question about something said before ("how did we fix X", "what did we say about Y"): search_conversations (one hit per conversation, best first), then get_conversation with a hit's conversation_id and message_index to read the exchange around it;
- where in one conversation something came up: search_conversations with conversation_id and group=false;
- what was settled and why (a library, a design, a policy): list_decisions;
- an overview of what the user discussed, or words worth searching for: list_topics;
- other discussions of the same subject as a conversation: related_conversations.
Every id a tool returns (conversation_id, or a hit's id such as m/ID/N) works wherever a conversation id is asked for. Snippets are plain text; their matches are [start, end) offsets in Unicode code points, not UTF-16 units (in JavaScript, index Array.from(text)).
Answers stay under some 20k tokens: when "truncated" is true, page with offset (searches) or offset=next_message (get_conversation); a message cut with a marker is read to its end with get_conversation(id, message, char_offset), as its answer says. While "indexing" is true the first pass over the user's files is still running and answers may miss conversations: ask again shortly.`

// NewServer returns an MCP server whose tools and resources answer from b.
// Serve it over stdio with Run(ctx, &sdk.StdioTransport{}), or over HTTP
// with Handler.
func NewServer(b Backend, opts Options) *sdk.Server {
	opts.SetDefaults()
	t := &tools{b: b, opts: opts, log: opts.Logger}
	s := sdk.NewServer(&sdk.Implementation{Name: "convsearch", Title: "convsearch conversation memory", Version: opts.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(quieter{opts.Logger.Handler(), slog.LevelWarn}),
		// Tools and resources never change while the server runs; logging
		// to the client is not offered (our logs go to stderr).
		Capabilities: &sdk.ServerCapabilities{
			Tools:       &sdk.ToolCapabilities{},
			Resources:   &sdk.ResourceCapabilities{},
			Completions: &sdk.CompletionCapabilities{},
		},
		CompletionHandler: t.complete,
	})
	t.register(s)
	// resources/list names the most recent conversations, paged: the SDK
	// lists only resources added one by one, and the index changes under
	// a running server. resources/read of a conversation comes here
	// whatever its id holds: the SDK matches {id} without slashes, and
	// agents copy a hit's id (m/ID/N) into the URI as it is.
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if r, ok := req.(*sdk.ListResourcesRequest); ok && method == "resources/list" {
				return t.listResources(ctx, r)
			}
			if r, ok := req.(*sdk.ReadResourceRequest); ok && method == "resources/read" && r.Params != nil {
				if strings.HasPrefix(r.Params.URI, ConversationURIPrefix) {
					return t.readConversation(ctx, r)
				}
				res, err := next(ctx, method, req)
				if err != nil && isNotFound(err) {
					return nil, resourceNotFound(r.Params.URI, "convsearch serves conversations only, at "+ConversationURIPrefix+"{id}")
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// Handler serves NewServer(b, opts) over streamable HTTP, for
// mounting at /mcp. Requests from other web origins are refused, so a page
// open in a browser cannot read the user's conversations through it. At
// most opts.MaxSessions sessions live at once.
func Handler(b Backend, opts Options) http.Handler {
	return http.NewCrossOriginProtection().Handler(newHTTPHandler(b, opts))
}

// newHTTPHandler is Handler without the origin check, for the tests to
// count its sessions.
func newHTTPHandler(b Backend, opts Options) *sessionCap {
	opts.SetDefaults()
	s := NewServer(b, opts)
	// Streams can be resumed after a dropped connection: the last answers
	// are kept (at most 8 MiB) and replayed to a client that reconnects.
	events := sdk.NewMemoryEventStore(nil)
	events.SetMaxBytes(8 << 20)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
		Logger:         slog.New(quieter{opts.Logger.Handler(), slog.LevelWarn}),
		SessionTimeout: opts.SessionTimeout,
		EventStore:     events,
	})
	return newSessionCap(h, s, opts.MaxSessions)
}

// tools holds what the tool handlers share.
type tools struct {
	b    Backend
	opts Options
	log  *slog.Logger
}

// readOnly tells clients a tool changes nothing and reaches nothing
// outside the index, so they may call it without asking the user.
func readOnly() *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
}

func (t *tools) register(s *sdk.Server) {
	addTool(t, s, &sdk.Tool{
		Name:  "search_conversations",
		Title: "Search past conversations",
		Description: `Search the user's past AI conversations (all tools and projects) for what was said, tried or decided before. Use it before re-deriving something that may already have been discussed, or when the user refers to an earlier conversation ("what did we decide about X", "like last time").
Query language: a plain question (its content words ranked; one that says when, "in March", "on 3 May 2024", ranks conversations from then higher: since/until restrict instead), words (all should match; when none matches all, the closest are ranked), "exact phrase", -excluded, a OR b, prefix*, typo~, and field:value for role, project, source, type, topic, title, decision, tool, model.
By default one hit per conversation (its best, with "count" hits in all); group=false lists every matching message, topic and decision. Filter by conversation_id, project, source, role, type and since/until. Each hit has plain-text "snippets", each with the [start, end) offsets of its matched words in "matches", counted in Unicode code points, not UTF-16 units (in JavaScript, index Array.from(text), not text itself). Read around a message hit with get_conversation(id=conversation_id, message=message_index). When more hits follow, "next_offset" is the offset of the next page. For decisions alone, list_decisions is shorter.`,
		Annotations: readOnly(),
	}, t.search, func(s *jsonschema.Schema) {
		prop(s, "query").MinLength = jsonschema.Ptr(1)
		prop(s, "type").Enum = []any{"conversation", "message", "topic", "decision"}
		prop(s, "role").Enum = []any{"user", "assistant", "system", "tool"}
		prop(s, "sort").Enum = []any{query.SortRelevance, query.SortNewest, query.SortOldest}
		limits(prop(s, "limit"), 1, mcpSearchMax, mcpSearchDefault)
		limits(prop(s, "offset"), 0, query.MaxOffset, 0)
		prop(s, "group").Default = []byte("true")
	})
	addTool(t, s, &sdk.Tool{
		Name:        "get_conversation",
		Title:       "Read a conversation",
		Description: `Read a window of one past conversation: its title, project, topics and decisions (written or derived), and a run of messages with their tool calls and results. Use it after search_conversations or list_decisions, to read the exchange around a hit. Never the whole conversation at once: without "message", the window starts at the first message; with "message" (e.g. a search hit's message_index) it starts "context" messages before it. It holds up to max_messages messages and stays under some 20k tokens; long texts are cut with a marker saying how much was cut. When "truncated" is true and next_message is set, call again with offset=next_message to read on. To read a cut message to its end, call with message=<its index> and char_offset (from cut_messages, or 0): that message alone, as much of it as some 20k tokens hold; while next_char_offset is set, call again with char_offset=next_char_offset. Characters count Unicode code points through the message's thinking, text, tool calls and tool results, in this order.`,
		Annotations: readOnly(),
	}, t.getConversation, func(s *jsonschema.Schema) {
		prop(s, "id").MinLength = jsonschema.Ptr(1)
		limits(prop(s, "message"), 0, -1, -1)
		limits(prop(s, "offset"), 0, -1, -1)
		limits(prop(s, "context"), 0, mcpWindowMax-1, mcpContextDefault)
		limits(prop(s, "max_messages"), 1, mcpWindowMax, mcpWindowDefault)
		limits(prop(s, "char_offset"), 0, -1, -1)
	})
	addTool(t, s, &sdk.Tool{
		Name:        "list_decisions",
		Title:       "List past decisions",
		Description: `List decisions taken in past conversations, each with its rationale, the conversation it comes from (conversation_id, title, source, date) and the message it was taken in. Newest first; with a query, most relevant first. Use it to check what was already settled (a library, a design, a policy) and why, before proposing something else. When next_offset is set, call again with the same arguments and offset=next_offset to read on.`,
		Annotations: readOnly(),
	}, t.decisions, func(s *jsonschema.Schema) {
		limits(prop(s, "limit"), 1, mcpDecisionsMax, mcpDecisionsDefault)
		limits(prop(s, "offset"), 0, query.MaxOffset, 0)
	})
	addTool(t, s, &sdk.Tool{
		Name:        "list_topics",
		Title:       "List topics",
		Description: `List the topics past conversations are about, most frequent first, with the number of conversations on each. Use it to get an overview of what the user has discussed (optionally in one project) and to find words worth searching for. When next_offset is set, call again with the same arguments and offset=next_offset to read on.`,
		Annotations: readOnly(),
	}, t.topics, func(s *jsonschema.Schema) {
		limits(prop(s, "limit"), 1, mcpTopicsMax, mcpTopicsDefault)
		limits(prop(s, "offset"), 0, query.MaxOffset, 0)
	})
	addTool(t, s, &sdk.Tool{
		Name:        "related_conversations",
		Title:       "Find related conversations",
		Description: `Find the past conversations most related to one conversation: those sharing its topics and similar in content, best first, one hit per conversation. Use it after get_conversation or search_conversations to find earlier or later discussions of the same subject.`,
		Annotations: readOnly(),
	}, t.related, func(s *jsonschema.Schema) {
		prop(s, "id").MinLength = jsonschema.Ptr(1)
		limits(prop(s, "limit"), 1, mcpRelatedMax, mcpRelatedDefault)
	})

	s.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "conversation",
		Title:       "Conversation",
		URITemplate: ConversationURIPrefix + "{id}",
		MIMEType:    "text/markdown",
		Description: "A past conversation as Markdown: title, project, topics, decisions and its messages from the first (long texts cut with a marker), as much as fits some 20k tokens, then where to read on with get_conversation. The id is a conversation_id from search_conversations, or a hit's id (m/ID/N, as it is or URL-escaped), which starts a few messages before that hit.",
	}, t.readConversation)
}

// addTool adds a tool whose input schema, inferred from In, is refined by
// edit (ranges, enums, defaults the struct tags cannot say), and whose output
// schema is inferred from Out. Arguments are decoded strictly and checked by
// In's check method, which words every mistake for the agent (the schema
// validator's messages are not). h returns the text rendering and the
// structured output; an error becomes a tool error (IsError), never a
// protocol error, so the agent reads it and the session goes on.
//
// The SDK's typed sdk.AddTool would also validate every output against its
// schema: a third of the protocol's cost per call, spent checking our own
// structs (the tests check them instead).
func addTool[In any, PIn interface {
	*In
	check() error
}, Out any](t *tools, s *sdk.Server, tool *sdk.Tool, h func(context.Context, *In) (string, Out, error), edit func(*jsonschema.Schema)) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp tool %s: input schema: %v", tool.Name, err)) // a programming error, caught by every test
	}
	edit(in)
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp tool %s: output schema: %v", tool.Name, err))
	}
	tool.InputSchema, tool.OutputSchema = in, out
	name, names := tool.Name, in.PropertyOrder
	s.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		start := time.Now()
		var args In
		err := decodeArgs(req.Params.Arguments, &args, name, names)
		if err == nil {
			err = PIn(&args).check()
		}
		var text string
		var out Out
		if err == nil {
			text, out, err = h(ctx, &args)
		}
		var ie *indexError
		switch {
		case errors.As(err, &ie):
			t.log.Warn("tool call failed", "tool", name, "err", ie.err, "took", time.Since(start))
		case err != nil:
			t.log.Debug("tool call refused", "tool", name, "err", err, "took", time.Since(start))
		}
		if err != nil {
			res := &sdk.CallToolResult{}
			res.SetError(err)
			return res, nil
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("%s: encode the answer: %w", name, err)
		}
		if t.opts.Notice != nil {
			if n := t.opts.Notice(ctx); n != "" {
				text = "Note: " + n + "\n\n" + text
			}
		}
		t.log.Debug("tool call", "tool", name, "took", time.Since(start))
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(data)}, nil
	})
}

// decodeArgs decodes a tool's arguments into in, strictly, wording errors
// for the agent.
func decodeArgs(raw json.RawMessage, in any, tool string, names []string) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(in)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("%s: want %s, got %s", te.Field, jsonKind(te.Type.Kind()), article(te.Value))
	case errors.As(err, &te):
		return fmt.Errorf("arguments: want an object of named arguments (%s), got %s", strings.Join(names, ", "), article(te.Value))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return fmt.Errorf("unknown argument %s: %s takes %s", field, tool, strings.Join(names, ", "))
	}
	return fmt.Errorf("arguments are not valid JSON: %v", err)
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	case reflect.Float64:
		return "a number"
	}
	return k.String()
}

func article(v string) string {
	switch v {
	case "array", "object", "integer":
		return "an " + v
	case "number", "string", "bool":
		return "a " + v
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + n
	}
	return v
}

func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p := s.Properties[name]
	if p == nil {
		panic("mcp schema: no property " + name)
	}
	return p
}

// limits sets an integer property's range (max < 0: none) and default
// (< 0: none).
func limits(p *jsonschema.Schema, lo, hi, def int) {
	p.Minimum = jsonschema.Ptr(float64(lo))
	if hi >= 0 {
		p.Maximum = jsonschema.Ptr(float64(hi))
	}
	if def >= 0 {
		p.Default = []byte(fmt.Sprint(def))
	}
}

// argError is a mistake in a tool's arguments, worded for the agent to fix.
func argError(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// backendError words a failure of the backend for an agent: what went wrong
// and what to do next.
func backendError(err error, id string) error {
	var se *query.SyntaxError
	switch {
	case errors.Is(err, query.ErrNotFound) && hitID(id), errors.As(err, new(*query.NoHitError)):
		// A hit's id: the conversation may be there without that message.
		return fmt.Errorf("%v; give the conversation_id alone, or a hit's id from search_conversations", err)
	case errors.Is(err, query.ErrNotFound):
		return fmt.Errorf("no conversation with id %q; ids come from search_conversations (conversation_id) or list_decisions", id)
	case errors.As(err, &se):
		return fmt.Errorf("%v\n%s\nThe query language: words, \"exact phrases\", -excluded, a OR b, (groups), prefix*, typo~, field:value with field one of %s. Quote text with special characters.",
			se, se.Caret(), strings.Join(query.KnownFields(), ", "))
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New("the search took too long and was stopped; narrow it: fewer or rarer words, a project, a since date, or no phrase")
	case errors.Is(err, context.Canceled):
		return err
	}
	return &indexError{err}
}

// engineErrorer is what the daemon package's client errors offer: the
// error its index returned for the query sent, rebuilt.
type engineErrorer interface{ EngineError(q string) error }

// engineError returns, for an error of a daemon's client, the error the
// daemon's index gave for query q: without it, an agent would read the
// transport ("daemon: … (HTTP 400)") and miss the query language's help
// whenever a daemon answered.
func engineError(err error, q string) error {
	var ee engineErrorer
	if errors.As(err, &ee) {
		if e := ee.EngineError(q); e != nil {
			return e
		}
	}
	return err
}

// hitID reports whether id is a hit's (m/ID/N…) rather than a conversation's.
func hitID(id string) bool { conv, _ := query.ConversationID(id); return conv != id }

// idError is backendError for a call naming conversation id, saying when
// the id may only not have been read yet.
func (t *tools) idError(ctx context.Context, err error, id string) error {
	e := backendError(engineError(err, ""), id)
	if errors.Is(err, query.ErrNotFound) && t.opts.Indexing(ctx) {
		return fmt.Errorf("%w (convsearch is still indexing, a first pass or a full rebuild: it may not be read yet; ask again shortly)", e)
	}
	return e
}

// resourceNotFound is the answer to resources/read of a resource that does
// not exist: the code the MCP specification gives (-32602 since SEP-2164,
// the SDK's ResourceNotFoundError), the URI in its data, and a message
// saying what was not found and where ids come from.
func resourceNotFound(uri, why string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "resource not found: " + why, Data: data}
}

// isNotFound reports whether err is the SDK's ResourceNotFoundError.
func isNotFound(err error) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && je.Message == "Resource not found"
}

// indexError is a failure of the index rather than of the arguments.
type indexError struct{ err error }

func (e *indexError) Error() string { return fmt.Sprintf("the index could not answer: %v", e.err) }
func (e *indexError) Unwrap() error { return e.err }

// quieter passes on records of at least min, and those of any level when
// the handler is enabled for debug: the SDK's session lines are noise
// unless one is debugging.
type quieter struct {
	slog.Handler
	min slog.Level
}

func (q quieter) Enabled(ctx context.Context, l slog.Level) bool {
	return (l >= q.min || q.Handler.Enabled(ctx, slog.LevelDebug)) && q.Handler.Enabled(ctx, l)
}

func (q quieter) WithAttrs(as []slog.Attr) slog.Handler {
	return quieter{q.Handler.WithAttrs(as), q.min}
}

func (q quieter) WithGroup(name string) slog.Handler {
	return quieter{q.Handler.WithGroup(name), q.min}
}
