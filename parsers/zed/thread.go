package zed

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// thread is a serialized thread of any version; fields are raw so one of
// an unexpected type spoils only itself.
type thread struct {
	Version   json.RawMessage   `json:"version"`
	Title     json.RawMessage   `json:"title"`   // 0.3.0
	Summary   json.RawMessage   `json:"summary"` // up to 0.2.0
	UpdatedAt json.RawMessage   `json:"updated_at"`
	Messages  []json.RawMessage `json:"messages"`
	Model     json.RawMessage   `json:"model"`
	// 0.3.0 detailed_summary; 0.2.0 detailed_summary_state
	DetailedSummary      json.RawMessage `json:"detailed_summary"`
	DetailedSummaryState json.RawMessage `json:"detailed_summary_state"`
}

// legacyMessage is a message up to 0.2.0 (text before 0.1.0, segments
// after).
type legacyMessage struct {
	ID          json.RawMessage   `json:"id"`
	Role        json.RawMessage   `json:"role"`
	Text        json.RawMessage   `json:"text"`
	Segments    []json.RawMessage `json:"segments"`
	ToolUses    []json.RawMessage `json:"tool_uses"`
	ToolResults []json.RawMessage `json:"tool_results"`
	Context     json.RawMessage   `json:"context"`
	IsHidden    json.RawMessage   `json:"is_hidden"`
}

type segment struct {
	Type json.RawMessage `json:"type"`
	Text json.RawMessage `json:"text"`
}

type toolUse struct {
	ID       json.RawMessage `json:"id"`
	Name     json.RawMessage `json:"name"`
	Input    json.RawMessage `json:"input"`
	RawInput json.RawMessage `json:"raw_input"`
}

type toolResult struct {
	ToolUseID json.RawMessage `json:"tool_use_id"`
	ToolName  json.RawMessage `json:"tool_name"`
	IsError   json.RawMessage `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// resumeText is what Zed sends the model for a Resume message.
const resumeText = "Continue where you left off"

// titleRunes bounds a title derived from the first prompt.
const titleRunes = 80

// decoder gathers one thread's messages and notes.
type decoder struct {
	c         *conversation.Conversation
	toolNames map[string]string
}

// decodeThread reads a thread's JSON, of any version.
func decodeThread(data []byte) (*conversation.Conversation, error) {
	var t thread
	if err := json.Unmarshal(data, &t); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, err
		}
		// A field of the wrong type: read what came through.
	}
	d := &decoder{c: &conversation.Conversation{}, toolNames: map[string]string{}}
	c := d.c
	c.Title = loose.Shorten(loose.FirstText(loose.String(t.Title), loose.String(t.Summary)), 200)
	c.Updated = loose.Time(t.UpdatedAt)
	c.Model = modelName(t.Model)
	if s := summaryText(t.DetailedSummary, t.DetailedSummaryState); s != "" {
		c.Summaries = append(c.Summaries, s)
	}
	for _, raw := range t.Messages {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		if raw[0] == '"' {
			// A unit variant: "Resume" is the only one.
			if loose.String(raw) == "Resume" {
				d.add(conversation.Message{Role: conversation.RoleUser, Content: resumeText, Hidden: true})
			}
			continue
		}
		var v map[string]json.RawMessage
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		switch {
		case v["User"] != nil:
			d.user(v["User"])
		case v["Agent"] != nil:
			d.agent(v["Agent"])
		case v["role"] != nil:
			d.legacy(raw)
		}
	}
	return c, nil
}

func (d *decoder) add(m conversation.Message) { d.c.Messages = append(d.c.Messages, m) }

// user reads a 0.3.0 UserMessage: content of Text, Mention and Image.
func (d *decoder) user(raw json.RawMessage) {
	var um struct {
		ID      json.RawMessage   `json:"id"`
		Content []json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &um)
	m := conversation.Message{Role: conversation.RoleUser, ID: loose.String(um.ID)}
	var text []string
	for _, part := range um.Content {
		var v map[string]json.RawMessage
		if json.Unmarshal(part, &v) != nil {
			continue
		}
		switch {
		case v["Text"] != nil:
			text = append(text, loose.Clean(loose.String(v["Text"])))
		case v["Mention"] != nil:
			var mn struct {
				URI     json.RawMessage `json:"uri"`
				Content json.RawMessage `json:"content"`
			}
			_ = json.Unmarshal(v["Mention"], &mn)
			label := mentionLabel(mn.URI)
			text = append(text, "@"+label)
			if body := loose.Clean(loose.String(mn.Content)); body != "" {
				d.c.Notes = append(d.c.Notes, conversation.Note{Kind: "context", Title: label, Text: body})
			}
		case v["Image"] != nil:
			m.Attachments = append(m.Attachments, imageAttachment(v["Image"]))
		}
	}
	// The parts are pieces of one prompt, mentions inline.
	m.Content = strings.TrimSpace(strings.Join(text, ""))
	d.add(m)
}

// agent reads a 0.3.0 AgentMessage: content of Text, Thinking,
// RedactedThinking and ToolUse, and tool_results keyed by tool use id.
func (d *decoder) agent(raw json.RawMessage) {
	var am struct {
		Content     []json.RawMessage `json:"content"`
		ToolResults json.RawMessage   `json:"tool_results"`
	}
	_ = json.Unmarshal(raw, &am)
	m := conversation.Message{Role: conversation.RoleAssistant}
	var text, thinking []string
	for _, part := range am.Content {
		var v map[string]json.RawMessage
		if json.Unmarshal(part, &v) != nil {
			continue
		}
		switch {
		case v["Text"] != nil:
			if t := loose.Clean(loose.String(v["Text"])); t != "" {
				text = append(text, t)
			}
		case v["Thinking"] != nil:
			var th struct {
				Text json.RawMessage `json:"text"`
			}
			_ = json.Unmarshal(v["Thinking"], &th)
			if t := loose.Clean(loose.String(th.Text)); t != "" {
				thinking = append(thinking, t)
			}
		case v["RedactedThinking"] != nil:
			thinking = append(thinking, "[redacted thinking]")
		case v["ToolUse"] != nil:
			m.ToolCalls = append(m.ToolCalls, d.toolCall(v["ToolUse"]))
		}
	}
	m.Content = strings.Join(text, "\n\n")
	m.Thinking = strings.Join(thinking, "\n\n")
	d.add(m)
	d.results(resultList(am.ToolResults))
}

// resultList reads tool_results: an object keyed by tool use id (IndexMap,
// in insertion order) or, leniently, an array.
func resultList(raw json.RawMessage) []json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var list []json.RawMessage
	if raw[0] == '[' {
		_ = json.Unmarshal(raw, &list)
		return list
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		if _, err := dec.Token(); err != nil { // the key
			return list
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return list
		}
		list = append(list, v)
	}
	return list
}

// results adds a tool message holding results, when there are any.
func (d *decoder) results(list []json.RawMessage) {
	if len(list) == 0 {
		return
	}
	m := conversation.Message{Role: conversation.RoleTool}
	for _, raw := range list {
		if r, ok := d.toolResult(raw); ok {
			m.ToolResults = append(m.ToolResults, r)
		}
	}
	if len(m.ToolResults) > 0 {
		d.add(m)
	}
}

// legacy reads a message of a thread before 0.3.0.
func (d *decoder) legacy(raw json.RawMessage) {
	var lm legacyMessage
	_ = json.Unmarshal(raw, &lm)
	m := conversation.Message{ID: loose.String(lm.ID), Hidden: loose.Bool(lm.IsHidden)}
	switch loose.String(lm.Role) {
	case "assistant":
		m.Role = conversation.RoleAssistant
	case "system":
		m.Role = conversation.RoleSystem
		m.Hidden = true
	default:
		m.Role = conversation.RoleUser
	}
	var text, thinking []string
	if t := loose.Clean(loose.String(lm.Text)); t != "" {
		text = append(text, t)
	}
	for _, raw := range lm.Segments {
		var s segment
		if json.Unmarshal(raw, &s) != nil {
			continue
		}
		switch loose.String(s.Type) {
		case "text":
			if t := loose.Clean(loose.String(s.Text)); t != "" {
				text = append(text, t)
			}
		case "thinking":
			if t := loose.Clean(loose.String(s.Text)); t != "" {
				thinking = append(thinking, t)
			}
		case "RedactedThinking", "redacted_thinking":
			thinking = append(thinking, "[redacted thinking]")
		}
	}
	context := loose.Clean(loose.String(lm.Context))
	if len(text) == 0 && context != "" {
		// Zed's own upgrade reads such a message's context as its text.
		text, context = []string{context}, ""
	}
	if context != "" {
		d.c.Notes = append(d.c.Notes, conversation.Note{Kind: "context", Title: "message " + m.ID, Text: context})
	}
	m.Content = strings.Join(text, "\n\n")
	m.Thinking = strings.Join(thinking, "\n\n")
	for _, raw := range lm.ToolUses {
		m.ToolCalls = append(m.ToolCalls, d.toolCall(raw))
	}
	if m.Role == conversation.RoleUser && len(lm.ToolResults) > 0 {
		// 0.1.0 kept results in the user message after the call.
		m.Role = conversation.RoleTool
		for _, raw := range lm.ToolResults {
			if r, ok := d.toolResult(raw); ok {
				m.ToolResults = append(m.ToolResults, r)
			}
		}
		d.add(m)
		return
	}
	d.add(m)
	d.results(lm.ToolResults)
}

func (d *decoder) toolCall(raw json.RawMessage) conversation.ToolCall {
	var u toolUse
	_ = json.Unmarshal(raw, &u)
	tc := conversation.ToolCall{ID: loose.String(u.ID), Name: loose.String(u.Name)}
	args := loose.String(u.Input)
	if args == "" {
		args = loose.JSONText(loose.String(u.RawInput))
	}
	tc.Arguments = loose.Clean(args)
	if tc.Name == "" {
		tc.Name = "unknown"
	}
	if tc.ID != "" {
		d.toolNames[tc.ID] = tc.Name
	}
	return tc
}

func (d *decoder) toolResult(raw json.RawMessage) (conversation.ToolResult, bool) {
	var r toolResult
	if json.Unmarshal(raw, &r) != nil {
		return conversation.ToolResult{}, false
	}
	tr := conversation.ToolResult{
		CallID:  loose.String(r.ToolUseID),
		Name:    loose.String(r.ToolName),
		IsError: loose.Bool(r.IsError),
		Content: resultText(r.Content),
	}
	if tr.Name == "" {
		tr.Name = d.toolNames[tr.CallID]
	}
	return tr, true
}

// resultText reads LanguageModelToolResultContent, which Zed has written
// as a bare string, {"Text": …}, {"Image": …}, or {"type": "text", …}.
func resultText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return loose.Clean(loose.String(raw))
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch {
	case v["Text"] != nil:
		return loose.Clean(loose.String(v["Text"]))
	case v["Image"] != nil, loose.String(v["type"]) == "image":
		return "[image]"
	case v["text"] != nil:
		return loose.Clean(loose.String(v["text"]))
	}
	return ""
}

// mentionLabel names a MentionUri ({"File": {"abs_path": …}},
// {"Fetch": {"url": …}}, {"Thread": {"id", "name"}}, …) by its kind and
// the most telling of its fields.
func mentionLabel(raw json.RawMessage) string {
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return strings.TrimSpace(loose.String(raw))
	}
	kinds := make([]string, 0, len(v))
	for k := range v {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		var f map[string]json.RawMessage
		if json.Unmarshal(v[kind], &f) != nil {
			return kind
		}
		for _, key := range []string{"abs_path", "path", "url", "name", "id"} {
			if s := loose.String(f[key]); s != "" {
				return s
			}
		}
		return kind
	}
	return "mention"
}

func imageAttachment(raw json.RawMessage) conversation.Attachment {
	var img struct {
		Source json.RawMessage `json:"source"`
	}
	_ = json.Unmarshal(raw, &img)
	a := conversation.Attachment{Type: "image"}
	src := loose.String(img.Source)
	if mt, size, ok := loose.DataURL(src); ok {
		a.Type, a.Size = mt, size
	} else if src != "" {
		a.Size = loose.Base64Size(src)
	}
	return a
}

// modelName reads SerializedLanguageModel {provider, model}.
func modelName(raw json.RawMessage) string {
	var m struct {
		Provider json.RawMessage `json:"provider"`
		Model    json.RawMessage `json:"model"`
	}
	if loose.IsNull(raw) || json.Unmarshal(raw, &m) != nil {
		return ""
	}
	return loose.String(m.Model)
}

// summaryText reads 0.3.0's detailed_summary or 0.2.0's
// detailed_summary_state {"Generated": {"text": …}}.
func summaryText(detailed, state json.RawMessage) string {
	if s := loose.String(detailed); s != "" && loose.Lead(detailed) == '"' {
		return loose.Clean(s)
	}
	var st struct {
		Generated struct {
			Text json.RawMessage `json:"text"`
		} `json:"Generated"`
	}
	if loose.Lead(state) == '{' && json.Unmarshal(state, &st) == nil {
		return loose.Clean(loose.String(st.Generated.Text))
	}
	return ""
}

// finish numbers the messages, orders the dates, and derives a title when
// the thread has none.
func finish(c *conversation.Conversation) {
	c.Renumber()
	if c.Date.IsZero() {
		c.Date = c.Updated
	}
	if c.Updated.Before(c.Date) {
		c.Updated = c.Date
	}
	if c.Title == "" {
		for _, m := range c.Messages {
			if m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
				c.Title = loose.Title(m.Content, titleRunes)
				break
			}
		}
	}
}
