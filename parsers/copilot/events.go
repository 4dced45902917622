package copilot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// event is one line of events.jsonl.
type event struct {
	Type      json.RawMessage `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        json.RawMessage `json:"id"`
	ParentID  json.RawMessage `json:"parentId"`
	Timestamp json.RawMessage `json:"timestamp"`
	// AgentID is set on the events of a sub-agent run.
	AgentID json.RawMessage `json:"agentId"`
}

// eventData holds the fields of every event type read; each uses a few.
type eventData struct {
	// session.start
	SessionID     json.RawMessage `json:"sessionId"`
	StartTime     json.RawMessage `json:"startTime"`
	SelectedModel json.RawMessage `json:"selectedModel"`
	Context       struct {
		Cwd        json.RawMessage `json:"cwd"`
		GitRoot    json.RawMessage `json:"gitRoot"`
		Branch     json.RawMessage `json:"branch"`
		Repository json.RawMessage `json:"repository"`
	} `json:"context"`
	// session.model_change
	NewModel json.RawMessage `json:"newModel"`
	// messages
	Content         json.RawMessage `json:"content"`
	Attachments     json.RawMessage `json:"attachments"`
	MessageID       json.RawMessage `json:"messageId"`
	Model           json.RawMessage `json:"model"`
	ToolRequests    json.RawMessage `json:"toolRequests"`
	ReasoningText   json.RawMessage `json:"reasoningText"`
	ParentToolCall  json.RawMessage `json:"parentToolCallId"`
	ToolCallID      json.RawMessage `json:"toolCallId"`
	ToolName        json.RawMessage `json:"toolName"`
	Arguments       json.RawMessage `json:"arguments"`
	Success         json.RawMessage `json:"success"`
	Result          json.RawMessage `json:"result"`
	Error           json.RawMessage `json:"error"`
	ErrorType       json.RawMessage `json:"errorType"`
	Message         json.RawMessage `json:"message"`
	Summary         json.RawMessage `json:"summary"`
	SummaryContent  json.RawMessage `json:"summaryContent"`
	Reason          json.RawMessage `json:"reason"`
	ReasoningID     json.RawMessage `json:"reasoningId"`
	ShutdownCurrent json.RawMessage `json:"currentModel"`
}

type toolRequest struct {
	ToolCallID json.RawMessage `json:"toolCallId"`
	Name       json.RawMessage `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
}

type eventBuilder struct {
	lines loose.Lines
	path  string
	res   parsers.Result
	msgs  []conversation.Message

	id, cwd, gitRoot, branch, repo string
	start                          time.Time
	model, firstModel              string
	summaries                      []string

	calls    map[string]string // tool call id → tool name
	resolved map[string]string // event id → id of the message it belongs under
	thinking string            // assistant.reasoning not yet given to a message
	thinkTS  time.Time
	thinkSub bool
}

func parseEvents(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b := &eventBuilder{path: path, calls: map[string]string{}, resolved: map[string]string{}}
	b.lines = loose.Lines{Path: path, Res: &b.res}
	if err := loose.EachLine(ctx, path, r, b.line); err != nil {
		return nil, err
	}
	b.flushThinking()
	return b.finish(), nil
}

func (b *eventBuilder) line(n int, data []byte) {
	var e event
	if !b.lines.Decode(n, data, &e) {
		return
	}
	typ := loose.String(e.Type)
	if typ == "" {
		b.res.Warn(parsers.Errorf(b.path, n, parsers.ErrShape, "record has no type: skipped"))
		return
	}
	var d eventData
	if !loose.IsNull(e.Data) {
		if err := json.Unmarshal(e.Data, &d); err != nil {
			b.lines.Bad(n, err)
			return
		}
	}
	ts := loose.Time(e.Timestamp)
	id := loose.String(e.ID)
	parent := b.resolved[loose.String(e.ParentID)]
	sub := !loose.IsNull(e.AgentID) || !loose.IsNull(d.ParentToolCall)
	before := len(b.msgs)

	switch typ {
	case "session.start":
		b.sessionStart(&d, ts)
	case "session.model_change":
		b.setModel(loose.String(d.NewModel))
	case "system.message":
		b.add(conversation.Message{Role: conversation.RoleSystem, Content: loose.String(d.Content), Hidden: true, Timestamp: ts, Sidechain: sub})
	case "user.message":
		b.flushThinking()
		text := loose.String(d.Content)
		b.add(conversation.Message{Role: conversation.RoleUser, Content: text, Timestamp: ts,
			Attachments: attachments(d.Attachments), Hidden: injected(text), Sidechain: sub})
	case "assistant.reasoning":
		if t := strings.TrimSpace(loose.String(d.Content)); t != "" {
			b.thinking, b.thinkTS, b.thinkSub = loose.AppendParagraph(b.thinking, t), ts, sub
		}
	case "assistant.message":
		b.assistant(&d, ts, sub)
	case "tool.execution_start":
		b.toolStart(&d, ts, sub)
	case "tool.execution_complete":
		b.toolComplete(&d, ts, sub)
	case "session.error":
		text := strings.TrimSpace(loose.AppendParagraph(loose.String(d.ErrorType), loose.String(d.Message)))
		if text != "" {
			b.add(conversation.Message{Role: conversation.RoleSystem, Content: text, Hidden: true, Timestamp: ts, Sidechain: sub})
		}
	case "abort":
		if k := len(b.msgs) - 1; k >= 0 && b.msgs[k].Role == conversation.RoleAssistant {
			b.msgs[k].Cancelled = true
		}
	case "session.compaction_complete", "session.task_complete":
		for _, raw := range []json.RawMessage{d.SummaryContent, d.Summary} {
			if s := strings.TrimSpace(loose.String(raw)); s != "" {
				b.summaries = append(b.summaries, s)
			}
		}
	case "session.shutdown":
		if b.firstModel == "" {
			b.setModel(loose.String(d.ShutdownCurrent))
		}
	}
	// Turn, hook, sub-agent, usage and UI notice events carry no message.

	if len(b.msgs) > before {
		for i := before; i < len(b.msgs); i++ {
			if b.msgs[i].ID == "" {
				b.msgs[i].ID = id
			}
			if b.msgs[i].ParentID == "" {
				b.msgs[i].ParentID = parent
			}
		}
		parent = b.msgs[len(b.msgs)-1].ID
	}
	if id != "" {
		b.resolved[id] = parent
	}
}

func (b *eventBuilder) add(m conversation.Message) { b.msgs = append(b.msgs, m) }

func (b *eventBuilder) setModel(m string) {
	if m = strings.TrimSpace(m); m == "" {
		return
	}
	b.model = m
	if b.firstModel == "" {
		b.firstModel = m
	}
}

// sessionStart reads the header. A resumed session appends another
// session.start to the same log: the first names the session.
func (b *eventBuilder) sessionStart(d *eventData, ts time.Time) {
	if b.id == "" {
		b.id = strings.TrimSpace(loose.String(d.SessionID))
	}
	if b.start.IsZero() {
		if b.start = loose.Time(d.StartTime); b.start.IsZero() {
			b.start = ts
		}
	}
	if b.cwd == "" {
		b.cwd = loose.String(d.Context.Cwd)
		b.gitRoot = loose.String(d.Context.GitRoot)
		b.branch = loose.String(d.Context.Branch)
		b.repo = loose.String(d.Context.Repository)
	}
	b.setModel(loose.String(d.SelectedModel))
}

// flushThinking gives reasoning that no assistant message took a message of
// its own.
func (b *eventBuilder) flushThinking() {
	if b.thinking == "" {
		return
	}
	b.add(conversation.Message{Role: conversation.RoleAssistant, Thinking: b.thinking, Timestamp: b.thinkTS, Model: b.model, Sidechain: b.thinkSub})
	b.thinking = ""
}

func (b *eventBuilder) assistant(d *eventData, ts time.Time, sub bool) {
	m := conversation.Message{Role: conversation.RoleAssistant, Content: loose.String(d.Content), Timestamp: ts, Sidechain: sub,
		Thinking: strings.TrimSpace(loose.String(d.ReasoningText))}
	if m.Model = strings.TrimSpace(loose.String(d.Model)); m.Model == "" {
		m.Model = b.model
	} else if b.firstModel == "" {
		b.firstModel = m.Model
	}
	// assistant.reasoning streams what reasoningText repeats.
	if b.thinking != "" && !strings.Contains(m.Thinking, b.thinking) {
		m.Thinking = loose.AppendParagraph(b.thinking, m.Thinking)
	}
	b.thinking = ""
	var reqs []toolRequest
	if err := json.Unmarshal(d.ToolRequests, &reqs); err == nil {
		for _, r := range reqs {
			call := conversation.ToolCall{ID: loose.String(r.ToolCallID), Name: loose.String(r.Name), Arguments: argText(r.Arguments)}
			if call.ID != "" {
				b.calls[call.ID] = call.Name
			}
			m.ToolCalls = append(m.ToolCalls, call)
		}
	}
	b.add(m)
}

// toolStart records a call the log did not announce in a toolRequest
// (older versions logged only the execution): it joins the last assistant
// message of its thread, or opens one.
func (b *eventBuilder) toolStart(d *eventData, ts time.Time, sub bool) {
	id := loose.String(d.ToolCallID)
	if _, seen := b.calls[id]; seen && id != "" {
		return
	}
	call := conversation.ToolCall{ID: id, Name: loose.String(d.ToolName), Arguments: argText(d.Arguments)}
	b.calls[id] = call.Name
	b.flushThinking()
	if k := len(b.msgs) - 1; k >= 0 && b.msgs[k].Role == conversation.RoleAssistant && b.msgs[k].Sidechain == sub {
		b.msgs[k].ToolCalls = append(b.msgs[k].ToolCalls, call)
		return
	}
	b.add(conversation.Message{Role: conversation.RoleAssistant, Timestamp: ts, Model: b.model, Sidechain: sub, ToolCalls: []conversation.ToolCall{call}})
}

func (b *eventBuilder) toolComplete(d *eventData, ts time.Time, sub bool) {
	id := loose.String(d.ToolCallID)
	name := b.calls[id]
	if name == "" {
		name = loose.String(d.ToolName)
	}
	r := conversation.ToolResult{CallID: id, Name: name, Content: resultText(d.Result)}
	if !loose.IsNull(d.Success) && !loose.Bool(d.Success) {
		r.IsError = true
	}
	if e := errorText(d.Error); e != "" {
		r.IsError = true
		r.Content = loose.AppendParagraph(r.Content, e)
	}
	b.add(conversation.Message{Role: conversation.RoleTool, Timestamp: ts, Sidechain: sub, ToolResults: []conversation.ToolResult{r}})
}

// resultText is a tool result's text: content (what the model saw), else
// detailedContent (what the person saw).
func resultText(raw json.RawMessage) string {
	var r struct {
		Content  json.RawMessage `json:"content"`
		Detailed json.RawMessage `json:"detailedContent"`
	}
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &r) != nil {
		return loose.Clean(loose.String(raw))
	}
	s := loose.String(r.Content)
	if strings.TrimSpace(s) == "" {
		s = loose.String(r.Detailed)
	}
	return loose.Clean(s)
}

func errorText(raw json.RawMessage) string {
	var e struct {
		Message json.RawMessage `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '{' && json.Unmarshal(t, &e) == nil {
		return loose.Clean(strings.TrimSpace(loose.String(e.Message)))
	}
	return loose.Clean(loose.String(raw))
}

// attachments keeps what a person would search for of each attachment:
// its name, kind and path. Inline data (pasted images) is never kept.
func attachments(raw json.RawMessage) []conversation.Attachment {
	var list []struct {
		Type        json.RawMessage `json:"type"`
		Path        json.RawMessage `json:"path"`
		DisplayName json.RawMessage `json:"displayName"`
		MimeType    json.RawMessage `json:"mimeType"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []conversation.Attachment
	for _, a := range list {
		at := conversation.Attachment{Name: loose.String(a.DisplayName), Type: loose.String(a.Type), Ref: loose.String(a.Path)}
		if strings.HasPrefix(at.Ref, "data:") {
			at.Ref = ""
		}
		if mt := loose.String(a.MimeType); mt != "" {
			at.Type = mt
		}
		if at.Name == "" {
			at.Name = filepath.Base(at.Ref)
		}
		if at.Name != "" || at.Type != "" {
			out = append(out, at)
		}
	}
	return out
}

// injected reports text the CLI sends as a user message on its own:
// notifications of finished background work.
func injected(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<system_notification>") || strings.HasPrefix(t, "<system_reminder>")
}

func (b *eventBuilder) finish() *parsers.Result {
	if len(b.msgs) == 0 {
		return &b.res
	}
	ws := readWorkspace(filepath.Join(filepath.Dir(b.path), workspaceFile))
	c := &conversation.Conversation{ID: b.id, Model: b.firstModel, Summaries: b.summaries, Messages: b.msgs}
	if c.ID == "" {
		// The session's folder is named after its id; the oldest logs were
		// <id>.jsonl themselves.
		if filepath.Base(b.path) == eventsFile {
			c.ID = filepath.Base(filepath.Dir(b.path))
		} else {
			c.ID = strings.TrimSuffix(filepath.Base(b.path), filepath.Ext(b.path))
		}
	}
	if b.cwd == "" {
		b.cwd = ws["cwd"]
	}
	root := b.gitRoot
	if root == "" {
		root = b.cwd
	}
	c.Project = loose.ProjectName(root)
	if b.cwd != "" {
		c.Tags = append(c.Tags, "cwd:"+b.cwd)
	}
	if b.branch != "" {
		c.Tags = append(c.Tags, "branch:"+b.branch)
	}
	if b.repo != "" {
		c.Tags = append(c.Tags, "repo:"+b.repo)
	}
	first, last := conversation.Span(c.Messages)
	c.Date, c.Updated = b.start, last
	if c.Date.IsZero() {
		c.Date = first
	}
	c.Title = ws["name"]
	if c.Title == "" {
		c.Title = ws["summary"]
	}
	if c.Title == "" {
		c.Title = firstPrompt(c.Messages)
	}
	c.Renumber()
	b.res.Conversations = append(b.res.Conversations, c)
	return &b.res
}

// firstPrompt derives a title from the first prompt a person typed.
func firstPrompt(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && !m.Hidden && !m.Sidechain && strings.TrimSpace(m.Content) != "" {
			return loose.Title(m.Content, titleLen)
		}
	}
	return ""
}

// readWorkspace reads the top-level scalar keys of workspace.yaml (id, cwd,
// name, summary, …). It is a flat file the CLI writes; a missing or odd
// file gives what could be read.
func readWorkspace(path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch {
		case v == "|" || v == ">" || strings.HasPrefix(v, "|-") || strings.HasPrefix(v, ">-"):
			continue // block scalars: not for the fields read here
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			var s string
			if json.Unmarshal([]byte(v), &s) == nil {
				v = s
			}
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = strings.ReplaceAll(v[1:len(v)-1], "''", "'")
		}
		out[strings.TrimSpace(k)] = v
	}
	return out
}
