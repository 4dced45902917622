// Package qcli reads the conversation state of Amazon Q Developer CLI and
// Kiro CLI (`q chat`, `kiro-cli chat`): the JSON document `/save` writes, which
// is also the value column of the tools' SQLite store (see parsers/qclistore).
//
// A document is `{conversation_id, next_message, history, latest_summary,
// model_info, …}`. Each history entry pairs a user message with the assistant's
// answer: `{user, assistant, request_metadata}` in current versions,
// `[user, assistant]` in older ones. A user message's content is one of
// `{"Prompt": {prompt}}`, `{"ToolUseResults": {tool_use_results}}` or
// `{"CancelledToolUses": {prompt, tool_use_results}}`; an assistant message is
// `{"Response": {message_id, content}}` or `{"ToolUse": {message_id, content,
// tool_uses}}`. A tool use and its results sit in different entries, joined
// here by the tool use id.
package qcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Name is the family name, used as Conversation.Source.
const Name = "qcli"

// Parser reads Q CLI / Kiro CLI conversation JSON.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns a Parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Amazon Q Developer CLI / Kiro CLI conversation state (the JSON of /save, the value column of data.sqlite3)",
		Detection:   `a JSON object whose first bytes hold the keys "conversation_id" and "history" (or "next_message")`,
		Locations:   []string{"wherever `/save <file>` wrote it in `q chat` or `kiro-cli chat`"},
		Version:     5, // 4: a torn document keeps its complete history entries; a conversation read past a byte-order mark; 5: and the prompt of the entry it tore
	}
}

// Detect reports whether head starts a JSON object with the marker keys. The
// tool writes conversation_id first and history after next_message, which can
// be long, so next_message stands in for history when the head is cut.
func (*Parser) Detect(path string, head []byte) bool {
	s := jsonhead.Scan(head)
	return s.Root == '{' && s.Has("", "conversation_id") && s.Has("", "history", "next_message")
}

// Parse reads one conversation document.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, warnings, err := Decode(ctx, path, data)
	if err != nil {
		return nil, err
	}
	if c.ID == "" {
		// No native id: the file's name and first prompt, never its folder.
		c.ID = conversation.NewID(filepath.Base(path)+"\x00"+c.Title, c.Date)
	}
	res := &parsers.Result{Conversations: []*conversation.Conversation{c}}
	for _, w := range warnings {
		res.Warn(w)
	}
	return res, nil
}

// state is the conversation document. Fields are raw so that one odd value
// (a string for an object, `{}` for null) never costs the whole file.
type state struct {
	ConversationID  json.RawMessage
	NextMessage     json.RawMessage
	History         json.RawMessage
	Transcript      json.RawMessage
	LatestSummary   json.RawMessage
	Model           json.RawMessage
	ModelInfo       json.RawMessage
	FileLineTracker json.RawMessage
	TangentState    json.RawMessage
}

type userMessage struct {
	Content           json.RawMessage `json:"content"`
	Timestamp         json.RawMessage `json:"timestamp"`
	AdditionalContext json.RawMessage `json:"additional_context"`
	EnvContext        json.RawMessage `json:"env_context"`
	Images            json.RawMessage `json:"images"`
}

type toolUse struct {
	ID       json.RawMessage `json:"id"`
	Name     json.RawMessage `json:"name"`
	OrigName json.RawMessage `json:"orig_name"`
	Args     json.RawMessage `json:"args"`
	OrigArgs json.RawMessage `json:"orig_args"`
}

type toolUseResult struct {
	ToolUseID json.RawMessage `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	Status    json.RawMessage `json:"status"`
}

type requestMetadata struct {
	ModelID      json.RawMessage `json:"model_id"`
	RequestStart json.RawMessage `json:"request_start_timestamp_ms"`
	StreamEnd    json.RawMessage `json:"stream_end_timestamp_ms"`
}

// decoder carries what one document's entries share: the tool names by call
// id (results name their tool only by id) and the warnings.
type decoder struct {
	path      string
	toolNames map[string]string // tool use id → tool name
	toolFrom  map[string]string // tool use id → id of the assistant message that asked
	warnings  []error
	cwd       string
}

func (d *decoder) warn(format string, args ...any) {
	d.warnings = append(d.warnings, parsers.Errorf(d.path, 0, parsers.ErrShape, format, args...))
}

// Decode reads one conversation document from data: a file written by /save
// or a value of the SQLite store. path names the source in errors and
// warnings and becomes Conversation.File. It returns the conversation, the
// problems it passed over, or an error when data is not such a document.
// The conversation's ID is the document's conversation_id, empty when it
// has none: the caller knows what else identifies it.
func Decode(ctx context.Context, path string, data []byte) (*conversation.Conversation, []error, error) {
	var raw map[string]json.RawMessage
	// A document torn by a crash while it was saved keeps the history
	// entries written whole before the tear, and of the entry it cut the
	// parts written whole: a prompt whose reply was torn is kept.
	torn, at, err := loose.UnmarshalMendedUnit(path, data, &raw, historyEntry)
	if err != nil {
		return nil, nil, err
	}
	_, hasID := raw["conversation_id"]
	_, hasHistory := raw["history"]
	if !hasID && !hasHistory {
		return nil, nil, parsers.Errorf(path, 0, parsers.ErrShape, "not a Q CLI conversation: no conversation_id or history")
	}
	st := state{
		ConversationID:  raw["conversation_id"],
		NextMessage:     raw["next_message"],
		History:         raw["history"],
		Transcript:      raw["transcript"],
		LatestSummary:   raw["latest_summary"],
		Model:           raw["model"],
		ModelInfo:       raw["model_info"],
		FileLineTracker: raw["file_line_tracker"],
		TangentState:    raw["tangent_state"],
	}

	d := &decoder{path: path, toolNames: map[string]string{}, toolFrom: map[string]string{}}
	c := &conversation.Conversation{
		ID:     loose.String(st.ConversationID),
		Source: Name,
		File:   path,
	}

	entries, err := d.list(st.History, "history")
	if err != nil {
		return nil, nil, parsers.Errorf(path, 0, parsers.ErrShape, "%v", err)
	}
	// While in tangent mode the main line is checkpointed; entries past it
	// belong to the tangent.
	mainLen := -1
	if !loose.IsNull(st.TangentState) {
		var ts struct {
			MainHistory json.RawMessage `json:"main_history"`
		}
		if json.Unmarshal(st.TangentState, &ts) == nil {
			if main, err := d.list(ts.MainHistory, "tangent_state.main_history"); err == nil {
				mainLen = len(main)
			}
		}
	}
	var lastModel string
	resultsFirst := false // the history opens with tool results made a prompt
	for i, e := range entries {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		msgs, model := d.entry(i, e)
		if i == 0 {
			resultsFirst = compacted(msgs)
		}
		if mainLen >= 0 && i >= mainLen {
			for j := range msgs {
				msgs[j].Branch = "tangent"
			}
		}
		if model != "" {
			lastModel = model
		}
		c.Messages = append(c.Messages, msgs...)
	}
	if !loose.IsNull(st.NextMessage) {
		// A prompt sent but not yet answered when the state was saved.
		c.Messages = append(c.Messages, d.user(-1, st.NextMessage, requestMetadata{})...)
	}
	c.Renumber()

	c.Model = modelOf(st.ModelInfo, st.Model, lastModel)
	c.Project = loose.ProjectName(d.cwd)
	c.Title = title(c.Messages, st, resultsFirst)
	for i := range c.Messages {
		m := &c.Messages[i]
		if m.Timestamp.IsZero() {
			continue
		}
		// One zone for all: user times carry the local offset, request
		// times are epoch milliseconds.
		m.Timestamp = m.Timestamp.UTC()
		if c.Date.IsZero() || m.Timestamp.Before(c.Date) {
			c.Date = m.Timestamp
		}
		if m.Timestamp.After(c.Updated) {
			c.Updated = m.Timestamp
		}
	}
	if s := summary(st.LatestSummary); s != "" {
		c.Summaries = append(c.Summaries, s)
		// After /compact the history holds only what followed the summary;
		// the transcript still has the earlier exchange as display text.
		if t := transcript(st.Transcript); t != "" {
			c.Notes = append(c.Notes, conversation.Note{Kind: "transcript", Title: "transcript before compaction", Text: t})
		}
	}
	c.Notes = append(c.Notes, fileChanges(st.FileLineTracker)...)
	if torn != nil {
		if len(c.Messages) == 0 {
			return nil, nil, torn // nothing whole to keep
		}
		kept := fmt.Sprintf("the %d complete history entries (%d messages)", len(entries), len(c.Messages))
		if len(at) == 2 {
			kept = fmt.Sprintf("the %d complete history entries and the parts written whole of the entry it cut (%d messages)", len(entries)-1, len(c.Messages))
		}
		d.warnings = append(d.warnings, loose.TornWarning(torn, kept))
	}
	return c, d.warnings, nil
}

// list reads a JSON array, accepting the nothing-shapes as empty.
func (d *decoder) list(raw json.RawMessage, what string) ([]json.RawMessage, error) {
	if loose.IsNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s is not a list", what)
	}
	return items, nil
}

// entry reads one history entry, in either the object or the pair shape, and
// returns its messages and the model it ran with.
func (d *decoder) entry(i int, raw json.RawMessage) ([]conversation.Message, string) {
	var user, assistant json.RawMessage
	var meta requestMetadata
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) > 0 && t[0] == '{':
		var e struct {
			User            json.RawMessage `json:"user"`
			Assistant       json.RawMessage `json:"assistant"`
			RequestMetadata json.RawMessage `json:"request_metadata"`
		}
		_ = json.Unmarshal(t, &e)
		if e.User == nil && e.Assistant == nil {
			// A bare message instead of an entry: classify it.
			if isAssistant(t) {
				assistant = t
			} else {
				user = t
			}
			break
		}
		user, assistant = e.User, e.Assistant
		_ = json.Unmarshal(e.RequestMetadata, &meta)
	case len(t) > 0 && t[0] == '[':
		// Older versions: a (UserMessage, AssistantMessage) tuple, maybe
		// followed by request metadata.
		var parts []json.RawMessage
		_ = json.Unmarshal(t, &parts)
		for _, p := range parts {
			switch {
			case loose.IsNull(p):
			case isAssistant(p):
				assistant = p
			case user == nil && hasObjectKey(p, "content"):
				user = p
			default:
				_ = json.Unmarshal(p, &meta)
			}
		}
	default:
		if !loose.IsNull(t) {
			d.warn("history entry %d: unexpected %s", i, kind(t))
		}
		return nil, ""
	}
	msgs := d.user(i, user, meta)
	model := loose.String(meta.ModelID)
	if a, ok := d.assistant(i, assistant, meta); ok {
		msgs = append(msgs, a)
		if a.Model != "" {
			model = a.Model
		}
	}
	return msgs, model
}

// historyEntry is the unit Mend cuts a torn document back in (see
// loose.Mend): an entry of the history, whose members or elements (prompt,
// reply, request metadata) written whole are kept, else the history itself.
// Deeper, a tear inside a prompt or a reply drops it whole.
func historyEntry(path []string) bool {
	return len(path) >= 1 && len(path) <= 2 && path[0] == "history"
}

// isAssistant reports whether raw is an assistant message: an object keyed by
// its variant.
func isAssistant(raw json.RawMessage) bool {
	return hasObjectKey(raw, "Response") || hasObjectKey(raw, "ToolUse")
}

func hasObjectKey(raw json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

func kind(t []byte) string {
	if len(t) == 0 {
		return "empty value"
	}
	switch t[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "list"
	}
	return "value " + string(t[:min(len(t), 20)])
}

// user reads a user message: a prompt, tool results, or cancelled tool uses
// with the prompt the user typed instead. Additional context (hook output)
// comes first as a hidden message.
func (d *decoder) user(i int, raw json.RawMessage, meta requestMetadata) []conversation.Message {
	if loose.IsNull(raw) {
		return nil
	}
	var u userMessage
	if err := json.Unmarshal(raw, &u); err != nil {
		// Not an object: keep whatever text it holds.
		if s := loose.StripDataURLs(loose.String(raw)); s != "" {
			return []conversation.Message{{Role: conversation.RoleUser, Content: s}}
		}
		return nil
	}
	d.envContext(u.EnvContext)
	ts := loose.Time(u.Timestamp)
	if ts.IsZero() {
		if ms, ok := loose.Float(meta.RequestStart); ok {
			ts = loose.Epoch(ms)
		}
	}
	var msgs []conversation.Message
	if ctx := strings.TrimSpace(loose.StripDataURLs(loose.String(u.AdditionalContext))); ctx != "" {
		msgs = append(msgs, conversation.Message{Role: conversation.RoleSystem, Content: ctx, Timestamp: ts, Hidden: true})
	}
	attachments := images(u.Images)

	variant, body := oneOf(u.Content)
	var v struct {
		Prompt         json.RawMessage `json:"prompt"`
		ToolUseResults json.RawMessage `json:"tool_use_results"`
	}
	if body != nil {
		_ = json.Unmarshal(body, &v)
	}
	switch {
	case variant == "" && body == nil:
		// content given as plain text, or missing.
		if s := loose.StripDataURLs(loose.String(u.Content)); s != "" || len(attachments) > 0 {
			msgs = append(msgs, conversation.Message{Role: conversation.RoleUser, Content: s, Timestamp: ts, Attachments: attachments})
		}
		return msgs
	case v.ToolUseResults != nil:
		if results := d.results(i, v.ToolUseResults); len(results) > 0 || len(attachments) > 0 {
			var parent string
			if len(results) > 0 {
				parent = d.toolFrom[results[0].CallID]
			}
			msgs = append(msgs, conversation.Message{
				ParentID:    parent,
				Role:        conversation.RoleTool,
				Timestamp:   ts,
				ToolResults: results,
				Attachments: attachments,
				Cancelled:   variant == "CancelledToolUses",
			})
			attachments = nil
		}
		// A cancelled tool use may carry the prompt typed instead.
		return appendPrompt(msgs, v.Prompt, ts, attachments)
	case v.Prompt != nil:
		return appendPrompt(msgs, v.Prompt, ts, attachments)
	}
	// A variant this parser does not know: keep its text.
	if i >= 0 {
		d.warn("history entry %d: unknown user content %q kept as text", i, variant)
	} else {
		d.warn("next_message: unknown user content %q kept as text", variant)
	}
	msgs = append(msgs, conversation.Message{Role: conversation.RoleUser, Content: loose.StripDataURLs(loose.String(u.Content)), Timestamp: ts, Attachments: attachments})
	return msgs
}

// appendPrompt adds the user's prompt, when there is one to keep.
func appendPrompt(msgs []conversation.Message, prompt json.RawMessage, ts time.Time, att []conversation.Attachment) []conversation.Message {
	text := loose.StripDataURLs(loose.String(prompt))
	if strings.TrimSpace(text) == "" && len(att) == 0 {
		return msgs
	}
	return append(msgs, conversation.Message{Role: conversation.RoleUser, Content: text, Timestamp: ts, Attachments: att})
}

// oneOf splits a serde enum value `{"Variant": {...}}` into its variant name
// and body. A value with several keys is not an enum: it is returned as the
// body with no name, as is an object with none.
func oneOf(raw json.RawMessage) (string, json.RawMessage) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return "", nil
	}
	if len(m) == 1 {
		for k, v := range m {
			return k, v
		}
	}
	return "", raw
}

// envContext records the first working directory the messages report.
func (d *decoder) envContext(raw json.RawMessage) {
	if d.cwd != "" || loose.IsNull(raw) {
		return
	}
	var env struct {
		EnvState struct {
			CWD json.RawMessage `json:"current_working_directory"`
		} `json:"env_state"`
	}
	if json.Unmarshal(raw, &env) == nil {
		d.cwd = loose.String(env.EnvState.CWD)
	}
}

// results reads tool use results, naming each by the tool use it answers.
func (d *decoder) results(i int, raw json.RawMessage) []conversation.ToolResult {
	items, err := d.list(raw, "tool_use_results")
	if err != nil {
		d.warn("history entry %d: %v", i, err)
		return []conversation.ToolResult{{Content: loose.StripDataURLs(loose.String(raw))}}
	}
	out := make([]conversation.ToolResult, 0, len(items))
	for _, it := range items {
		var r toolUseResult
		if json.Unmarshal(it, &r) != nil {
			out = append(out, conversation.ToolResult{Content: loose.StripDataURLs(loose.String(it))})
			continue
		}
		id := loose.String(r.ToolUseID)
		status := loose.String(r.Status)
		out = append(out, conversation.ToolResult{
			CallID:  id,
			Name:    d.toolNames[id],
			Content: resultText(r.Content),
			IsError: strings.EqualFold(status, "Error"),
		})
	}
	return out
}

// resultText flattens result blocks, `[{"Text": "…"} | {"Json": …}]`.
func resultText(raw json.RawMessage) string {
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) != nil {
		return loose.StripDataURLs(loose.String(raw))
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		var s string
		switch variant, body := oneOf(b); variant {
		case "Text":
			// Often JSON itself (an MCP server's answer, a Json block the
			// tool cut to size): read it as text, escapes undone.
			s = loose.String(body)
			if strings.HasPrefix(strings.TrimSpace(s), "{") || strings.HasPrefix(strings.TrimSpace(s), "[") {
				s = jsonText(json.RawMessage(s))
			}
		case "Json":
			s = jsonText(body)
		default:
			s = loose.String(b)
		}
		if s != "" {
			parts = append(parts, loose.StripDataURLs(s))
		}
	}
	return strings.Join(parts, "\n")
}

// jsonText renders a JSON result for reading and search: its text inside
// JSON strings would be all escapes, "\n" glued to the next word. A shell
// result ({exit_status, stdout, stderr}) becomes its output; anything else
// goes through loose.ReadableJSON.
func jsonText(raw json.RawMessage) string {
	var sh struct {
		ExitStatus json.RawMessage `json:"exit_status"`
		Stdout     json.RawMessage `json:"stdout"`
		Stderr     json.RawMessage `json:"stderr"`
	}
	if json.Unmarshal(raw, &sh) != nil || (sh.Stdout == nil && sh.Stderr == nil) {
		s := loose.String(raw)
		if r, ok := loose.ReadableJSON(s); ok {
			return r
		}
		return s
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(loose.String(sh.Stdout), "\n"))
	if s := strings.TrimRight(loose.String(sh.Stderr), "\n"); s != "" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("stderr: ")
		b.WriteString(s)
	}
	if s := loose.String(sh.ExitStatus); s != "" && s != "0" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("exit status: ")
		b.WriteString(s)
	}
	return b.String()
}

// assistant reads an assistant message, recording its tool uses' names for
// the results that follow.
func (d *decoder) assistant(i int, raw json.RawMessage, meta requestMetadata) (conversation.Message, bool) {
	if loose.IsNull(raw) {
		return conversation.Message{}, false
	}
	variant, body := oneOf(raw)
	if body == nil {
		// Not an object: keep whatever text it holds.
		s := loose.StripDataURLs(loose.String(raw))
		return conversation.Message{Role: conversation.RoleAssistant, Content: s}, s != ""
	}
	if variant != "Response" && variant != "ToolUse" && variant != "" {
		d.warn("history entry %d: unknown assistant message %q read as a response", i, variant)
	}
	var a struct {
		MessageID json.RawMessage `json:"message_id"`
		Content   json.RawMessage `json:"content"`
		ToolUses  json.RawMessage `json:"tool_uses"`
		Thinking  json.RawMessage `json:"thinking"`
	}
	_ = json.Unmarshal(body, &a)
	m := conversation.Message{
		ID:      loose.String(a.MessageID),
		Role:    conversation.RoleAssistant,
		Content: loose.StripDataURLs(loose.String(a.Content)),
		Model:   loose.String(meta.ModelID),
	}
	if ms, ok := loose.Float(meta.StreamEnd); ok {
		m.Timestamp = loose.Epoch(ms)
	}
	if !loose.IsNull(a.Thinking) {
		var th struct {
			Text    json.RawMessage `json:"text"`
			ModelID json.RawMessage `json:"model_id"`
		}
		if json.Unmarshal(a.Thinking, &th) == nil {
			m.Thinking = loose.String(th.Text)
			if m.Model == "" {
				m.Model = loose.String(th.ModelID)
			}
		} else {
			m.Thinking = loose.String(a.Thinking)
		}
	}
	uses, err := d.list(a.ToolUses, "tool_uses")
	if err != nil {
		d.warn("history entry %d: %v", i, err)
	}
	for _, u := range uses {
		var tu toolUse
		if json.Unmarshal(u, &tu) != nil {
			m.ToolCalls = append(m.ToolCalls, conversation.ToolCall{Name: "unknown", Arguments: loose.String(u)})
			continue
		}
		name := loose.String(tu.Name)
		if name == "" {
			name = loose.String(tu.OrigName)
		}
		args := tu.Args
		if loose.IsNull(args) {
			args = tu.OrigArgs
		}
		id := loose.String(tu.ID)
		if id != "" {
			d.toolNames[id] = name
			d.toolFrom[id] = m.ID
		}
		m.ToolCalls = append(m.ToolCalls, conversation.ToolCall{
			ID:        id,
			Name:      name,
			Arguments: loose.StripDataURLs(loose.JSONText(loose.String(args))),
		})
	}
	return m, true
}

// images describes attached images, `[{format, source: {Bytes: [n, …]}}]`,
// without keeping their bytes.
func images(raw json.RawMessage) []conversation.Attachment {
	if loose.IsNull(raw) {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	out := make([]conversation.Attachment, 0, len(items))
	for _, it := range items {
		var img struct {
			Format json.RawMessage `json:"format"`
			Source json.RawMessage `json:"source"`
		}
		_ = json.Unmarshal(it, &img)
		a := conversation.Attachment{Type: "image"}
		if f := strings.ToLower(loose.String(img.Format)); f != "" && !strings.ContainsAny(f, "{[") {
			a.Type = "image/" + f
		}
		if _, bytesRaw := oneOf(img.Source); bytesRaw != nil {
			a.Size = payloadSize(bytesRaw)
		}
		out = append(out, a)
	}
	return out
}

// payloadSize is the byte count of a payload given as a JSON array of
// numbers (serde's Vec<u8>) or a base64 string, counted without decoding.
func payloadSize(raw json.RawMessage) int64 {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) >= 2 && t[0] == '[':
		inner := bytes.TrimSpace(t[1 : len(t)-1])
		if len(inner) == 0 {
			return 0
		}
		return int64(bytes.Count(inner, []byte{','})) + 1
	case len(t) >= 2 && t[0] == '"':
		return int64(len(t)-2) * 3 / 4
	}
	return 0
}

// modelOf picks the conversation's model: the one chosen with /model, else
// the legacy model field, else the last one a request ran with.
func modelOf(info, legacy json.RawMessage, last string) string {
	var mi struct {
		ModelID   json.RawMessage `json:"model_id"`
		ModelName json.RawMessage `json:"model_name"`
	}
	if json.Unmarshal(info, &mi) == nil {
		if s := loose.String(mi.ModelID); s != "" {
			return s
		}
		if s := loose.String(mi.ModelName); s != "" {
			return s
		}
	}
	if s := loose.String(legacy); s != "" && !strings.ContainsAny(s[:1], "{[") {
		return s
	}
	return last
}

// summary reads latest_summary: `[text, request_metadata]` in current
// versions, plain text in older ones.
func summary(raw json.RawMessage) string {
	if loose.IsNull(raw) {
		return ""
	}
	var pair []json.RawMessage
	if json.Unmarshal(raw, &pair) == nil {
		if len(pair) == 0 {
			return ""
		}
		return strings.TrimSpace(loose.StripDataURLs(loose.String(pair[0])))
	}
	return strings.TrimSpace(loose.StripDataURLs(loose.String(raw)))
}

func transcript(raw json.RawMessage) string {
	var lines []json.RawMessage
	if json.Unmarshal(raw, &lines) != nil {
		return ""
	}
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		if s := strings.TrimSpace(loose.String(l)); s != "" {
			parts = append(parts, loose.StripDataURLs(s))
		}
	}
	return strings.Join(parts, "\n")
}

// fileChanges turns the file line tracker (files the agent wrote, with line
// counts) into notes, so the files a conversation touched can be found.
func fileChanges(raw json.RawMessage) []conversation.Note {
	var files map[string]json.RawMessage
	if json.Unmarshal(raw, &files) != nil || len(files) == 0 {
		return nil
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	notes := make([]conversation.Note, 0, len(paths))
	for _, p := range paths {
		var st struct {
			Added   json.RawMessage `json:"lines_added_by_agent"`
			Removed json.RawMessage `json:"lines_removed_by_agent"`
		}
		text := p
		if json.Unmarshal(files[p], &st) == nil {
			added, okA := loose.Int(st.Added)
			removed, okR := loose.Int(st.Removed)
			if okA || okR {
				text = fmt.Sprintf("%s (+%d -%d lines by the agent)", p, added, removed)
			}
		}
		notes = append(notes, conversation.Note{Kind: "file_change", Title: p, Text: text})
	}
	return notes
}

// redacted is what Q CLI writes for tool results it turned into a prompt
// when they had no content.
const redacted = "<tool result redacted>"

// compacted handles the first history entry after /compact: Q CLI must open
// the history it sends with a prompt, so when the first entry left holds tool
// results it replaces them with a prompt made of their content, JSON results
// as JSON text, joined by spaces. That prompt is the tool's, not the
// person's: hidden, and read like any tool result. compacted reports
// whether msgs, the first entry's messages, open so.
func compacted(msgs []conversation.Message) bool {
	for i := range msgs {
		m := &msgs[i]
		if m.Role != conversation.RoleUser || m.Hidden {
			continue
		}
		text, ok := resultsPrompt(m.Content)
		if ok {
			m.Content, m.Hidden = text, true
		}
		return ok
	}
	return false
}

// resultsPrompt reports whether prompt is tool results turned into a
// prompt, one or more JSON values (or the placeholder for none), and returns
// them as readable text.
func resultsPrompt(prompt string) (string, bool) {
	t := strings.TrimSpace(prompt)
	if t == redacted {
		return t, true
	}
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	var parts []string
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || (v[0] != '{' && v[0] != '[') {
			return "", false
		}
		parts = append(parts, jsonText(v))
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

// title is the first prompt a person typed, else the first text of any
// message, on one line and cut to about 80 characters. When the history
// opens with tool results made a prompt (resultsFirst, after /compact), the
// opening prompt is in the transcript, else the summary says what the
// conversation is for.
func title(msgs []conversation.Message, st state, resultsFirst bool) string {
	if resultsFirst {
		if t := firstPrompt(st.Transcript); t != "" {
			return Shorten(t, 80)
		}
		if t := objective(summary(st.LatestSummary)); t != "" {
			return Shorten(t, 80)
		}
	}
	pick := ""
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
			pick = m.Content
			break
		}
	}
	if pick == "" {
		for _, m := range msgs {
			if !m.Hidden && strings.TrimSpace(m.Content) != "" {
				if _, ok := resultsPrompt(m.Content); ok {
					continue // never a JSON blob
				}
				pick = m.Content
				break
			}
		}
	}
	return Shorten(pick, 80)
}

// firstPrompt is the first prompt in the transcript, the display text Q CLI
// keeps beside the history: prompts are written "> text", each newline as
// "> \n".
func firstPrompt(raw json.RawMessage) string {
	var lines []json.RawMessage
	if json.Unmarshal(raw, &lines) != nil {
		return ""
	}
	for _, l := range lines {
		if p, ok := strings.CutPrefix(loose.String(l), "> "); ok {
			if p = strings.TrimSpace(strings.ReplaceAll(p, "> \n", "\n")); p != "" {
				if _, blob := resultsPrompt(p); !blob {
					return loose.StripDataURLs(p)
				}
			}
		}
	}
	return ""
}

// objective picks what a /compact summary says the conversation is for: the
// line an "objective" (or "goal") label or heading introduces, else the
// summary's first line of text under its headings.
func objective(summary string) string {
	lines := strings.Split(strings.ReplaceAll(summary, "\r\n", "\n"), "\n")
	first := ""
	for i, l := range lines {
		l = strings.TrimSpace(l)
		bare := strings.TrimSpace(strings.Trim(strings.TrimLeft(l, "#*-• "), "*_"))
		label, rest, found := strings.Cut(bare, ":")
		label = strings.ToLower(strings.Trim(strings.TrimSpace(label), "*_ "))
		if label == "objective" || label == "goal" || strings.HasSuffix(label, " objective") || strings.HasSuffix(label, " goal") {
			if rest = strings.TrimSpace(strings.Trim(strings.TrimSpace(rest), "*_")); rest != "" && found {
				return rest
			}
			// A heading: the objective is the next line with text.
			for _, next := range lines[i+1:] {
				if t := strings.TrimSpace(strings.TrimLeft(next, "#*-• ")); t != "" {
					return t
				}
			}
		}
		if first == "" && bare != "" && !strings.HasPrefix(l, "#") {
			first = bare
		}
	}
	return first
}

// Shorten puts s on one line and cuts it to at most n runes, at a word
// boundary where one is near, marking the cut with an ellipsis.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}
