package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// line is one rollout record. Rollouts written before records were wrapped
// have no payload: their first line is the session header (id, timestamp,
// instructions) and the others are bare response items.
type line struct {
	Timestamp  json.RawMessage `json:"timestamp"`
	Type       json.RawMessage `json:"type"`
	Payload    json.RawMessage `json:"payload"`
	ID         json.RawMessage `json:"id"`
	RecordType json.RawMessage `json:"record_type"`
}

// payload holds the fields of every payload type Codex writes; each type
// uses a few. All are raw so a value of an unexpected type spoils only
// itself.
type payload struct {
	Type json.RawMessage `json:"type"`
	// session_meta
	ID           json.RawMessage `json:"id"`
	Timestamp    json.RawMessage `json:"timestamp"`
	Cwd          json.RawMessage `json:"cwd"`
	Instructions json.RawMessage `json:"instructions"`
	Git          json.RawMessage `json:"git"`
	// turn_context
	Model json.RawMessage `json:"model"`
	// response_item message and reasoning
	Role    json.RawMessage `json:"role"`
	Content json.RawMessage `json:"content"`
	Summary json.RawMessage `json:"summary"`
	// response_item calls and outputs
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    json.RawMessage `json:"call_id"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	// image_generation_call
	Result        json.RawMessage `json:"result"`
	RevisedPrompt json.RawMessage `json:"revised_prompt"`
	// event_msg and compacted
	Message json.RawMessage `json:"message"`
	Text    json.RawMessage `json:"text"`
	Images  json.RawMessage `json:"images"`
}

type kind int

const (
	kindPrompt    kind = iota // a user, developer or system message
	kindText                  // assistant text
	kindReasoning             // a reasoning summary or text
	kindCall                  // a tool call
	kindOutput                // a tool's output
	kindAbort                 // the user interrupted the turn
)

// item is one thing the rollout records, before the two streams are
// merged and the model's items grouped into messages.
type item struct {
	kind   kind
	event  bool // from event_msg rather than response_item
	role   conversation.Role
	text   string
	hidden bool
	atts   []conversation.Attachment
	call   conversation.ToolCall
	result conversation.ToolResult
	ts     time.Time
	model  string
	drop   bool
}

type builder struct {
	path string
	res  parsers.Result

	items []item

	id           string
	cwd          string
	instructions string
	git          struct{ branch, commit, repo string }
	model        string // of the current turn
	firstModel   string
	metaTime     time.Time
	summaries    []string

	lines loose.Lines // the lines read, and those that could not be
	known int
}

func parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b := &builder{path: path}
	b.lines = loose.Lines{Path: path, Res: &b.res}
	if err := loose.EachLine(ctx, path, r, b.line); err != nil {
		return nil, err
	}
	return b.finish()
}

// responseTypes are the payload types of response items, which older
// rollouts wrote bare.
var responseTypes = map[string]bool{
	"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true,
	"web_search_call": true, "ghost_snapshot": true, "compaction": true, "compaction_summary": true,
	"agent_message": true, "image_generation_call": true,
}

func (b *builder) line(n int, data []byte) {
	// Older rollouts' bare records are read again as a payload: from the
	// record past any damage, not from the line.
	var l line
	if !b.lines.DecodeWith(n, data, func(rec []byte) error {
		data = rec
		return json.Unmarshal(rec, &l)
	}) {
		return
	}
	typ := loose.String(l.Type)
	raw := l.Payload
	switch {
	case !loose.IsNull(l.Payload):
	case !loose.IsNull(l.RecordType):
		b.known++ // an old rollout's state marker
		return
	case responseTypes[typ]:
		typ, raw = "response_item", data
	case typ == "" && !loose.IsNull(l.ID) && b.known == 0:
		typ, raw = "session_meta", data
	default:
		return
	}
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		b.lines.Bad(n, err)
		return
	}
	ts := loose.Time(l.Timestamp)
	switch typ {
	case "session_meta":
		b.known++
		b.meta(&p, ts)
	case "turn_context":
		b.known++
		if m := strings.TrimSpace(loose.String(p.Model)); m != "" {
			b.model = m
			if b.firstModel == "" {
				b.firstModel = m
			}
		}
		if b.cwd == "" {
			b.cwd = strings.TrimSpace(loose.String(p.Cwd))
		}
	case "response_item":
		b.known++
		b.response(&p, ts)
	case "event_msg":
		b.known++
		b.event(&p, ts)
	case "compacted":
		b.known++
		if s := strings.TrimSpace(loose.String(p.Message)); s != "" {
			b.summaries = append(b.summaries, loose.Clean(s))
		}
	default:
		if typ != "" {
			b.known++ // a record type to come
		}
	}
}

// meta reads the session header. A forked or resumed rollout may hold
// another session's header later on: the first one names this file.
func (b *builder) meta(p *payload, ts time.Time) {
	if b.id != "" {
		return
	}
	b.id = strings.TrimSpace(loose.String(p.ID))
	b.cwd = strings.TrimSpace(loose.String(p.Cwd))
	b.instructions = strings.TrimSpace(loose.String(p.Instructions))
	b.metaTime = loose.Time(p.Timestamp)
	if b.metaTime.IsZero() {
		b.metaTime = ts
	}
	var g struct {
		Commit json.RawMessage `json:"commit_hash"`
		Branch json.RawMessage `json:"branch"`
		Repo   json.RawMessage `json:"repository_url"`
	}
	if json.Unmarshal(p.Git, &g) == nil {
		b.git.commit = loose.String(g.Commit)
		b.git.branch = loose.String(g.Branch)
		b.git.repo = loose.String(g.Repo)
	}
}

func (b *builder) add(it item) {
	if it.kind != kindPrompt && it.kind != kindOutput {
		it.model = b.model
	}
	b.items = append(b.items, it)
}

func (b *builder) response(p *payload, ts time.Time) {
	switch ptype := loose.String(p.Type); ptype {
	case "message":
		text, atts := readParts(p.Content)
		switch role := strings.ToLower(loose.String(p.Role)); role {
		case "assistant":
			b.add(item{kind: kindText, role: conversation.RoleAssistant, text: text, atts: atts, ts: ts})
		case "system", "developer":
			b.add(item{kind: kindPrompt, role: conversation.RoleSystem, text: text, atts: atts, ts: ts, hidden: true})
		case "tool", "function":
			b.add(item{kind: kindPrompt, role: conversation.RoleTool, text: text, atts: atts, ts: ts})
		default:
			b.add(item{kind: kindPrompt, role: conversation.RoleUser, text: text, atts: atts, ts: ts, hidden: injected(text)})
		}
	case "reasoning":
		// Each summary part is echoed by one agent_reasoning event, each
		// content part by one agent_reasoning_raw_content: one item each
		// so they pair up. encrypted_content is never read.
		for _, raw := range []json.RawMessage{p.Summary, p.Content} {
			for _, t := range partTexts(raw) {
				b.add(item{kind: kindReasoning, role: conversation.RoleAssistant, text: t, ts: ts})
			}
		}
	case "function_call":
		b.add(item{kind: kindCall, ts: ts, call: conversation.ToolCall{
			ID:        loose.String(p.CallID),
			Name:      loose.String(p.Name),
			Arguments: loose.Arguments(p.Arguments),
		}})
	case "custom_tool_call":
		b.add(item{kind: kindCall, ts: ts, call: conversation.ToolCall{
			ID:        loose.String(p.CallID),
			Name:      loose.String(p.Name),
			Arguments: loose.Arguments(p.Input),
		}})
	case "local_shell_call":
		id := loose.String(p.CallID)
		if id == "" {
			id = loose.String(p.ID)
		}
		b.add(item{kind: kindCall, ts: ts, call: conversation.ToolCall{
			ID: id, Name: "local_shell", Arguments: loose.Clean(loose.String(p.Action)),
		}})
	case "web_search_call":
		b.add(item{kind: kindCall, ts: ts, call: conversation.ToolCall{
			ID: loose.String(p.ID), Name: "web_search", Arguments: loose.Clean(loose.String(p.Action)),
		}})
	case "agent_message":
		// Newer rollouts record the model's message as a response item of
		// its own too; its event twin is dropped by dedupe.
		text, atts := readParts(p.Content)
		if strings.TrimSpace(text) == "" {
			text = loose.Clean(firstString(p.Message, p.Text))
		}
		b.add(item{kind: kindText, role: conversation.RoleAssistant, text: text, atts: atts, ts: ts})
	case "image_generation_call":
		// result is the generated image, base64: described, never kept.
		att := conversation.Attachment{Type: "image/png"}
		if r := loose.String(p.Result); r != "" {
			if mt, size, ok := loose.DataURL(r); ok {
				att.Type, att.Size = mt, size
			} else {
				att.Size = loose.Base64Size(r)
			}
		}
		b.add(item{kind: kindCall, ts: ts, atts: []conversation.Attachment{att}, call: conversation.ToolCall{
			ID: loose.String(p.ID), Name: "image_generation", Arguments: loose.Clean(loose.String(p.RevisedPrompt)),
		}})
	case "function_call_output", "custom_tool_call_output", "mcp_tool_call_output":
		text, isErr, atts := readOutput(p.Output)
		b.add(item{kind: kindOutput, role: conversation.RoleTool, ts: ts, atts: atts, result: conversation.ToolResult{
			CallID: loose.String(p.CallID), Content: text, IsError: isErr,
		}})
	}
	// ghost_snapshot (a git stash of the work tree), compaction (encrypted)
	// and types to come hold nothing to search.
}

func (b *builder) event(p *payload, ts time.Time) {
	switch loose.String(p.Type) {
	case "user_message":
		text := loose.Clean(loose.String(p.Message))
		b.add(item{kind: kindPrompt, event: true, role: conversation.RoleUser, text: text,
			atts: images(p.Images), ts: ts, hidden: injected(text)})
	case "agent_message":
		b.add(item{kind: kindText, event: true, role: conversation.RoleAssistant, text: loose.Clean(loose.String(p.Message)), ts: ts})
	case "agent_reasoning", "agent_reasoning_raw_content":
		if t := loose.Clean(strings.TrimSpace(loose.String(p.Text))); t != "" {
			b.add(item{kind: kindReasoning, event: true, role: conversation.RoleAssistant, text: t, ts: ts})
		}
	case "turn_aborted":
		b.add(item{kind: kindAbort, ts: ts})
	}
	// token_count, task_started, context_compacted, … are bookkeeping.
}

// dedupe drops each event that repeats a response item: same kind, same
// text up to white space; the nearest unpaired response item wins. An
// event with no such twin stays.
func (b *builder) dedupe() {
	key := func(it *item) (string, bool) {
		switch it.kind {
		case kindPrompt, kindText, kindReasoning:
			return fmt.Sprintf("%d|%s|%s", it.kind, it.role, strings.Join(strings.Fields(it.text), " ")), true
		}
		return "", false
	}
	free := map[string][]int{}
	for i := range b.items {
		if it := &b.items[i]; !it.event {
			if k, ok := key(it); ok {
				free[k] = append(free[k], i)
			}
		}
	}
	for i := range b.items {
		it := &b.items[i]
		if !it.event {
			continue
		}
		k, ok := key(it)
		if !ok {
			continue
		}
		cands := free[k]
		best := -1
		for j, c := range cands {
			if best < 0 || abs(c-i) < abs(cands[best]-i) {
				best = j
			}
		}
		if best < 0 {
			continue
		}
		twin := &b.items[cands[best]]
		if len(twin.atts) == 0 {
			twin.atts = it.atts // the event may name images the item lacks
		}
		it.drop = true
		free[k] = append(cands[:best:best], cands[best+1:]...)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// group turns the items into messages.
func (b *builder) group() []conversation.Message {
	var msgs []conversation.Message
	var cur *conversation.Message // the assistant message being built
	flush := func() {
		if cur != nil {
			msgs = append(msgs, *cur)
			cur = nil
		}
	}
	start := func(it *item) {
		cur = &conversation.Message{Role: conversation.RoleAssistant, Timestamp: it.ts, Model: it.model}
	}
	for i := range b.items {
		it := &b.items[i]
		if it.drop {
			continue
		}
		switch it.kind {
		case kindPrompt:
			flush()
			msgs = append(msgs, conversation.Message{
				Role: it.role, Content: it.text, Timestamp: it.ts, Attachments: it.atts, Hidden: it.hidden,
			})
		case kindReasoning:
			// Reasoning opens a model step: a new message, unless the one
			// being built holds only reasoning so far.
			if cur != nil && (cur.Content != "" || len(cur.ToolCalls) > 0 || len(cur.Attachments) > 0) {
				flush()
			}
			if cur == nil {
				start(it)
			}
			cur.Thinking = loose.AppendParagraph(cur.Thinking, it.text)
		case kindText:
			if cur != nil && len(cur.ToolCalls) > 0 {
				flush() // text after calls answers their outputs
			}
			if cur == nil {
				start(it)
			}
			cur.Content = loose.AppendParagraph(cur.Content, it.text)
			cur.Attachments = append(cur.Attachments, it.atts...)
		case kindCall:
			if cur == nil {
				start(it)
			}
			cur.ToolCalls = append(cur.ToolCalls, it.call)
			cur.Attachments = append(cur.Attachments, it.atts...)
		case kindOutput:
			flush()
			msgs = append(msgs, conversation.Message{
				Role: conversation.RoleTool, Timestamp: it.ts, Attachments: it.atts,
				ToolResults: []conversation.ToolResult{it.result},
			})
		case kindAbort:
			flush()
			for j := len(msgs) - 1; j >= 0 && msgs[j].Role != conversation.RoleUser; j-- {
				if msgs[j].Role == conversation.RoleAssistant {
					msgs[j].Cancelled = true
					break
				}
			}
		}
	}
	flush()
	return msgs
}

func (b *builder) finish() (*parsers.Result, error) {
	if b.known == 0 {
		switch {
		case b.lines.Count() == 0:
			return &b.res, nil // a blank file: a session just created
		case b.lines.Unreadable() != nil:
			return nil, b.lines.Unreadable() // not one line could be read
		}
		return nil, parsers.Errorf(b.path, 0, parsers.ErrShape, "no Codex record")
	}
	b.dedupe()
	msgs := b.group()
	if len(msgs) == 0 {
		return &b.res, nil
	}

	c := &conversation.Conversation{Source: Name, File: b.path, Messages: msgs}
	names := map[string]string{}
	models := map[string]int{}
	var modelOrder []string
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.ID != "" {
				names[tc.ID] = tc.Name
			}
		}
	}
	for i := range c.Messages {
		m := &c.Messages[i]
		for j := range m.ToolResults {
			if m.ToolResults[j].Name == "" {
				m.ToolResults[j].Name = names[m.ToolResults[j].CallID]
			}
		}
		if m.Role == conversation.RoleAssistant && m.Model != "" {
			if models[m.Model] == 0 {
				modelOrder = append(modelOrder, m.Model)
			}
			models[m.Model]++
		}
		if !m.Timestamp.IsZero() {
			if c.Date.IsZero() || m.Timestamp.Before(c.Date) {
				c.Date = m.Timestamp
			}
			if m.Timestamp.After(c.Updated) {
				c.Updated = m.Timestamp
			}
		}
	}
	c.Renumber()
	if c.Date.IsZero() {
		c.Date, c.Updated = b.metaTime, b.metaTime
	}
	for _, m := range modelOrder {
		if models[m] > models[c.Model] {
			c.Model = m
		}
	}
	if c.Model == "" {
		c.Model = b.firstModel
	}
	c.ID = b.conversationID(c.Date)
	c.Title = title(msgs)
	c.Project = project(b.cwd)
	for _, t := range [][2]string{{"cwd:", b.cwd}, {"branch:", b.git.branch}, {"repo:", b.git.repo}, {"commit:", b.git.commit}} {
		if t[1] != "" {
			c.Tags = append(c.Tags, t[0]+t[1])
		}
	}
	c.Summaries = b.summaries
	if b.instructions != "" {
		c.Notes = append(c.Notes, conversation.Note{Kind: "instructions", Title: "session instructions", Text: loose.Clean(b.instructions), Time: b.metaTime})
	}
	b.res.Conversations = append(b.res.Conversations, c)
	return &b.res, nil
}

// conversationID is the session id from the header, else the one in the
// file name, else one derived from the file name.
func (b *builder) conversationID(date time.Time) string {
	if b.id != "" {
		return b.id
	}
	base := filepath.Base(b.path)
	if id, ok := rolloutID(base); ok {
		return id
	}
	return conversation.NewID(base, date)
}

// firstString is the first of raws that holds text.
func firstString(raws ...json.RawMessage) string {
	for _, r := range raws {
		if s := loose.String(r); strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// rolloutID returns the session uuid that ends a rollout's file name
// (rollout-<time>-<uuid>.jsonl), in its canonical lower-case form.
func rolloutID(base string) (string, bool) {
	stem, ok := strings.CutSuffix(base, ".jsonl")
	const n = 36 // xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
	if !ok || len(stem) < n {
		return "", false
	}
	u, err := uuid.Parse(stem[len(stem)-n:])
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// title is the first request a person typed.
func title(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && !m.Hidden {
			if t := loose.Title(request(m.Content), titleLen); t != "" {
				return t
			}
		}
	}
	return ""
}

// project is the folder the session ran in; for a git worktree checked out
// under <repo>/.worktrees/<name> it is the repository's folder.
func project(cwd string) string {
	parts := strings.FieldsFunc(cwd, func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return ""
	}
	if n := len(parts); n >= 3 && (parts[n-2] == ".worktrees" || parts[n-2] == "worktrees") {
		return parts[n-3]
	}
	return parts[len(parts)-1]
}
