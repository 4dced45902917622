package cline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/blocks"
	"github.com/convsearch/convsearch/parsers/loose"
)

// titleLen is the most runes a title derived from the task keeps.
const titleLen = 80

// apiMessage is one element of api_conversation_history.json: an Anthropic
// MessageParam, with the extras later versions add (Roo's ts, Cline's
// modelInfo).
type apiMessage struct {
	Role      json.RawMessage `json:"role"`
	Content   json.RawMessage `json:"content"`
	Ts        json.RawMessage `json:"ts"`
	ModelInfo json.RawMessage `json:"modelInfo"`
	IsSummary json.RawMessage `json:"isSummary"`
}

func parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	res := &parsers.Result{}
	var msgs []conversation.Message
	toolNames := map[string]string{}
	var models []string
	var cwd string
	var pending []conversation.ToolCall // the last assistant message's calls not yet answered
	err := loose.DecodeEach(ctx, path, r, res, func(i, line int, v *apiMessage) {
		m, dir, ok := readMessage(v, toolNames)
		if cwd == "" {
			cwd = dir
		}
		if !ok {
			res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "message %d has no role: skipped", i))
			return
		}
		if m.Model != "" && (len(models) == 0 || models[len(models)-1] != m.Model) {
			models = append(models, m.Model)
		}
		if m.Role == conversation.RoleAssistant {
			pending = slices.Clone(m.ToolCalls)
		} else {
			pending = linkResults(m.ToolResults, pending)
		}
		msgs = append(msgs, m)
	})
	if err != nil {
		return nil, err
	}
	if len(msgs) == 0 {
		return res, nil // a task just created: "[]"
	}
	dir := filepath.Dir(path)
	c := &conversation.Conversation{
		// The task id is the folder's name: Date.now() in Cline, a UUID in
		// Roo Code. It stays when the folder moves.
		ID:       filepath.Base(dir),
		Source:   source(path),
		File:     path,
		Messages: msgs,
	}
	if c.ID == "" || c.ID == "." || c.ID == string(filepath.Separator) {
		c.ID = conversation.NewID(Name+"\x00"+firstText(msgs), time.Time{})
	}
	c.Renumber()
	side := readSide(ctx, path, res)
	if side.workspace == "" {
		side.workspace = cwd
	}
	side.apply(c)
	if c.Model == "" && len(models) > 0 {
		c.Model = models[len(models)-1]
	}
	if c.Title == "" {
		c.Title = loose.Title(firstText(msgs), titleLen)
	}
	if first, last := conversation.Span(c.Messages); !first.IsZero() {
		if c.Date.IsZero() || first.Before(c.Date) {
			c.Date = first
		}
		if last.After(c.Updated) {
			c.Updated = last
		}
	}
	if c.Date.IsZero() {
		c.Date = taskTime(c.ID)
	}
	if c.Updated.Before(c.Date) {
		c.Updated = c.Date
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// taskTime reads a Cline task id, Date.now() as decimal text, as a time.
func taskTime(id string) time.Time {
	if len(id) < 12 || len(id) > 14 || strings.Trim(id, "0123456789") != "" {
		return time.Time{}
	}
	t, _ := loose.ParseTime(id)
	return t
}

// firstText is the visible text of the first user message: the task.
func firstText(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && !m.Hidden && m.Content != "" {
			return m.Content
		}
	}
	return ""
}

// readMessage turns one history element into a message, and gives the
// working directory its environment details name. ok is false when it has
// no role it could be read with.
func readMessage(v *apiMessage, toolNames map[string]string) (m conversation.Message, cwd string, ok bool) {
	switch strings.ToLower(loose.String(v.Role)) {
	case "user":
		m.Role = conversation.RoleUser
	case "assistant":
		m.Role = conversation.RoleAssistant
	case "system":
		m.Role = conversation.RoleSystem
		m.Hidden = true
	default:
		if loose.IsNull(v.Content) {
			return m, "", false
		}
		m.Role = conversation.RoleUser
	}
	m.Timestamp = loose.Time(v.Ts)
	var info struct {
		ModelID json.RawMessage `json:"modelId"`
	}
	if json.Unmarshal(v.ModelInfo, &info) == nil {
		m.Model = strings.TrimSpace(loose.String(info.ModelID))
	}
	c := readContent(blocks.Decode(v.Content), toolNames)
	m.Content = strings.Join(c.text, "\n\n")
	m.Thinking = strings.Join(c.thinking, "\n\n")
	m.ToolCalls = c.calls
	m.ToolResults = c.results
	m.Attachments = c.attachments
	if m.Role == conversation.RoleUser {
		switch {
		case len(c.results) > 0 && len(c.text) == 0 && c.own == 0:
			m.Role = conversation.RoleTool
		case len(c.text) == 0 && len(c.results) == 0 && c.own == 0 && len(c.injected) > 0:
			// Cline's own text only (environment details, a resumption
			// notice): kept, hidden.
			m.Hidden = true
			m.Content = strings.Join(c.injected, "\n\n")
		}
		if loose.Bool(v.IsSummary) {
			m.Hidden = true
		}
	}
	for _, inj := range c.injected {
		if mm := cwdLine.FindStringSubmatch(inj); mm != nil {
			cwd = strings.TrimSpace(mm[1])
			break
		}
	}
	return m, cwd, true
}

// content is a message's blocks sorted by kind.
type content struct {
	text        []string
	injected    []string
	thinking    []string
	calls       []conversation.ToolCall
	results     []conversation.ToolResult
	attachments []conversation.Attachment
	own         int // attachments of the message itself, not of a result
}

// resultHeader is the line Cline puts before a tool's output in the next
// user message: "[read_file for 'src/a.ts'] Result:". Older versions wrote
// it as a block of its own, the output in the blocks after it; 3.x writes
// header and output in one block.
var resultHeader = regexp.MustCompile(`^\[([A-Za-z0-9_:.-]+)(?: for [^\n]*)?\] Result:[ \t]*(?:\n|$)`)

func readContent(bs []blocks.Block, toolNames map[string]string) content {
	var c content
	var open *conversation.ToolResult // a text tool result being gathered
	closeResult := func() {
		if open != nil {
			open.Content = strings.TrimSpace(open.Content)
			c.results = append(c.results, *open)
			open = nil
		}
	}
	for _, b := range bs {
		typ := loose.String(b.Type)
		switch typ {
		case "text", "":
			t := loose.Clean(loose.String(b.Text))
			if t == "" {
				t = loose.Clean(loose.String(b.Content))
			}
			if m := resultHeader.FindStringSubmatch(strings.TrimSpace(t)); m != nil {
				closeResult()
				open = &conversation.ToolResult{Name: m[1], Content: strings.TrimSpace(t)}
				continue
			}
			visible, injected := splitInjected(t)
			if injected != "" {
				c.injected = append(c.injected, injected)
			}
			if visible == "" {
				continue
			}
			if userWords(t) {
				// The person's answer to an ask or plan tool: their own
				// words, not the tool's output.
				closeResult()
				c.text = append(c.text, visible)
				continue
			}
			if open != nil {
				open.Content += "\n" + visible
				continue
			}
			c.text = append(c.text, visible)
		case "thinking", "reasoning":
			t := loose.String(b.Thinking)
			if t == "" {
				t = loose.String(b.Reasoning)
			}
			if t == "" {
				t = loose.String(b.Text)
			}
			if t = loose.Clean(strings.TrimSpace(t)); t != "" {
				c.thinking = append(c.thinking, t)
			}
		case "redacted_thinking":
			// Encrypted: nothing a person can read.
		case "tool_use":
			closeResult()
			id := loose.String(b.ID)
			name := loose.String(b.Name)
			if id != "" {
				toolNames[id] = name
			}
			c.calls = append(c.calls, conversation.ToolCall{ID: id, Name: name, Arguments: loose.Arguments(b.Input)})
			if said := spoken(name, b.Input); said != "" {
				c.text = append(c.text, said)
			}
		case "tool_result":
			closeResult()
			text, atts := blocks.Result(b.Content)
			id := loose.String(b.ToolUseID)
			c.results = append(c.results, conversation.ToolResult{
				CallID:  id,
				Name:    toolNames[id],
				Content: text,
				IsError: loose.Bool(b.IsError),
			})
			c.attachments = append(c.attachments, atts...)
		case "image", "document":
			a := blocks.Attachment(typ, b)
			c.attachments = append(c.attachments, a)
			if open == nil {
				c.own++
			}
		default:
			// A block of a kind to come: keep its text, if it has any.
			if t := loose.Clean(loose.String(b.Text)); t != "" {
				c.text = append(c.text, t)
			}
		}
	}
	closeResult()
	return c
}

// injectedPrefixes open text Cline (or Roo) writes into user messages
// itself: task resumption notices and its reminders after a reply that used
// no tool.
var injectedPrefixes = []string{
	"[TASK RESUMPTION]",
	"[ERROR] You did not use a tool in your previous response!",
	// Cline 3.x's todo-list reminders.
	"# task_progress List",
	"# TODO LIST UPDATE REQUIRED",
	"# Todo List (Optional",
}

// userWords reports whether a text block is wholly the person's own words in
// the tags Cline wraps them in when they answer a tool: <user_message> for a
// plan-mode reply, <feedback> for feedback on a tool use.
func userWords(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasPrefix(t, "<user_message>") || strings.HasPrefix(t, "<feedback>")
}

// spokenArgs names the argument of the tools through which the model talks
// to the person: with native tool calls its answer, question or plan is
// there and nowhere else in the message.
var spokenArgs = map[string]string{
	"attempt_completion":    "result",
	"plan_mode_respond":     "response",
	"ask_followup_question": "question",
}

// spoken returns what a call of one of those tools says to the person.
func spoken(name string, input json.RawMessage) string {
	key, ok := spokenArgs[name]
	if !ok {
		return ""
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(input, &args) != nil {
		return ""
	}
	return strings.TrimSpace(loose.Clean(loose.String(args[key])))
}

// linkResults gives the text results of a user message the ids of the calls
// they answer: Cline 3.x calls tools with tool_use blocks but answers them
// with "[name for '…'] Result:" texts, in the order of the calls, and the
// name in a text is not always the tool's ("[subagents] Result:" answers
// use_subagents). It returns the calls still unanswered.
func linkResults(results []conversation.ToolResult, pending []conversation.ToolCall) []conversation.ToolCall {
	take := func(i int, match func(conversation.ToolCall) bool) {
		for j, call := range pending {
			if call.ID != "" && match(call) {
				results[i].CallID = call.ID
				pending = append(pending[:j:j], pending[j+1:]...)
				return
			}
		}
	}
	for i := range results {
		if results[i].CallID == "" {
			take(i, func(c conversation.ToolCall) bool { return c.Name == results[i].Name })
		}
	}
	for i := range results {
		if results[i].CallID == "" {
			take(i, func(conversation.ToolCall) bool { return true })
		}
	}
	return pending
}

// splitInjected separates a text block into what the user wrote and what
// Cline injected: <environment_details> blocks, wherever they sit, and its
// notices. <task>, <feedback> and <user_message> tags around the user's
// own words are unwrapped.
func splitInjected(t string) (visible, injected string) {
	var inj []string
	for {
		i := strings.Index(t, "<environment_details>")
		if i < 0 {
			break
		}
		j := strings.Index(t[i:], "</environment_details>")
		end := len(t)
		if j >= 0 {
			end = i + j + len("</environment_details>")
		}
		inj = append(inj, strings.TrimSpace(t[i:end]))
		t = t[:i] + t[end:]
	}
	t = strings.TrimSpace(t)
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(t, p) {
			inj = append(inj, t)
			t = ""
			break
		}
	}
	for _, tag := range []string{"task", "feedback", "user_message"} {
		t = unwrap(t, tag)
	}
	return strings.TrimSpace(t), strings.Join(inj, "\n\n")
}

// unwrap removes <tag>…</tag> around the whole of t.
func unwrap(t, tag string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	if strings.HasPrefix(t, open) && strings.HasSuffix(t, end) && len(t) >= len(open)+len(end) {
		return strings.TrimSpace(t[len(open) : len(t)-len(end)])
	}
	return t
}

// readJSON reads a side file of the task folder into v. A missing file is
// no error; one that cannot be read or decoded is a warning on the history
// file (the unit the index knows), naming the side file and its line.
func readJSON(ctx context.Context, primary, path string, v any, res *parsers.Result) bool {
	if err := ctx.Err(); err != nil {
		return false
	}
	found, err := loose.ReadSideFile(path, 0, v)
	if err != nil {
		res.Warn(&parsers.Error{Path: primary, Err: fmt.Errorf("side file %w", err)})
		return false
	}
	return found
}
