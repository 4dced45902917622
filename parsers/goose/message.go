package goose

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// gooseMessage is goose's Message as serde writes it (camelCase). Fields
// are raw so one of an unexpected type spoils only itself.
type gooseMessage struct {
	ID       json.RawMessage `json:"id"`
	Role     json.RawMessage `json:"role"`
	Created  json.RawMessage `json:"created"`
	Content  json.RawMessage `json:"content"`
	Metadata json.RawMessage `json:"metadata"`
}

// block is one element of content[]: MessageContent, tagged by "type".
type block struct {
	Type json.RawMessage `json:"type"`
	// text
	Text json.RawMessage `json:"text"`
	// image
	Data     json.RawMessage `json:"data"`
	MimeType json.RawMessage `json:"mimeType"`
	// toolRequest, frontendToolRequest, toolResponse
	ID         json.RawMessage `json:"id"`
	ToolCall   json.RawMessage `json:"toolCall"`
	ToolResult json.RawMessage `json:"toolResult"`
	// thinking
	Thinking json.RawMessage `json:"thinking"`
	// systemNotification, conversationCompacted, contextLengthExceeded, …
	Msg json.RawMessage `json:"msg"`
}

// visibility is MessageMetadata; both flags default to true.
type visibility struct {
	UserVisible  json.RawMessage `json:"userVisible"`
	AgentVisible json.RawMessage `json:"agentVisible"`
}

// status is goose's ToolResult<T> wrapper: {"status":"success","value":…}
// or {"status":"error","error":"…"}.
type status struct {
	Status json.RawMessage `json:"status"`
	Value  json.RawMessage `json:"value"`
	Error  json.RawMessage `json:"error"`
	// Some writers put the call itself here, with no wrapper.
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// mcpContent is an MCP content item of a tool result.
type mcpContent struct {
	Type     json.RawMessage `json:"type"`
	Text     json.RawMessage `json:"text"`
	Data     json.RawMessage `json:"data"`
	MimeType json.RawMessage `json:"mimeType"`
	Resource json.RawMessage `json:"resource"`
	URI      json.RawMessage `json:"uri"`
}

// converter turns goose messages into canonical ones, remembering tool
// names by call id so results can name their tool.
type converter struct {
	toolNames map[string]string
}

func newConverter() *converter { return &converter{toolNames: map[string]string{}} }

// convert reads one goose message given its role. ok is false when raw
// content is not an array of blocks at all.
func (cv *converter) convert(role string, content, metadata json.RawMessage) (conversation.Message, error) {
	var m conversation.Message
	switch role {
	case "assistant":
		m.Role = conversation.RoleAssistant
	case "user":
		m.Role = conversation.RoleUser
	case "system":
		m.Role = conversation.RoleSystem
		m.Hidden = true
	default:
		return m, fmt.Errorf("message role %q is not user or assistant", role)
	}
	var blocks []json.RawMessage
	if !loose.IsNull(content) {
		if err := json.Unmarshal(content, &blocks); err != nil {
			return m, fmt.Errorf("content is not an array of blocks: %w", err)
		}
	}
	var text, thinking []string
	onlyResponses := len(blocks) > 0
	for _, raw := range blocks {
		var b block
		if json.Unmarshal(raw, &b) != nil {
			onlyResponses = false
			continue
		}
		typ := loose.String(b.Type)
		if typ != "toolResponse" {
			onlyResponses = false
		}
		switch typ {
		case "text":
			if t := loose.Clean(loose.String(b.Text)); t != "" {
				text = append(text, t)
			}
		case "image":
			m.Attachments = append(m.Attachments, imageAttachment(b.Data, b.MimeType))
		case "toolRequest", "frontendToolRequest":
			m.ToolCalls = append(m.ToolCalls, cv.toolCall(loose.String(b.ID), b.ToolCall))
		case "toolResponse":
			m.ToolResults = append(m.ToolResults, cv.toolResult(loose.String(b.ID), b.ToolResult))
		case "thinking":
			if t := loose.Clean(loose.String(b.Thinking)); t != "" {
				thinking = append(thinking, t)
			}
		case "redactedThinking":
			// The data is the provider's encrypted reasoning: nothing to read.
			thinking = append(thinking, "[redacted thinking]")
		case "systemNotification", "conversationCompacted", "contextLengthExceeded", "summarizationRequested":
			if t := loose.Clean(loose.String(b.Msg)); t != "" {
				text = append(text, t)
			}
		}
		// toolConfirmationRequest and actionRequired are prompts of the
		// UI that repeat a toolRequest; other types are newer than this
		// reader and carry nothing it knows.
	}
	m.Content = strings.Join(text, "\n\n")
	m.Thinking = strings.Join(thinking, "\n\n")
	if m.Role == conversation.RoleUser && onlyResponses {
		m.Role = conversation.RoleTool
	}
	var v visibility
	if !loose.IsNull(metadata) && json.Unmarshal(metadata, &v) == nil {
		if len(v.UserVisible) > 0 && !loose.Bool(v.UserVisible) {
			m.Hidden = true
		}
	}
	return m, nil
}

func imageAttachment(data, mime json.RawMessage) conversation.Attachment {
	a := conversation.Attachment{Type: loose.String(mime)}
	if a.Type == "" {
		a.Type = "image"
	}
	d := loose.String(data)
	if mt, size, ok := loose.DataURL(d); ok {
		if a.Type == "image" && mt != "" {
			a.Type = mt
		}
		a.Size = size
	} else if d != "" {
		a.Size = loose.Base64Size(d)
	}
	return a
}

func (cv *converter) toolCall(id string, raw json.RawMessage) conversation.ToolCall {
	tc := conversation.ToolCall{ID: id}
	var s status
	if loose.IsNull(raw) || json.Unmarshal(raw, &s) != nil {
		tc.Name = "unknown"
		return tc
	}
	call := s
	if !loose.IsNull(s.Value) {
		var v status
		if json.Unmarshal(s.Value, &v) == nil {
			call = v
		}
	}
	tc.Name = loose.String(call.Name)
	tc.Arguments = loose.Clean(loose.String(call.Arguments))
	if loose.String(s.Status) == "error" || (tc.Name == "" && !loose.IsNull(s.Error)) {
		// goose could not read the model's call: keep what it says.
		if tc.Name == "" {
			tc.Name = "invalid"
		}
		tc.Arguments = loose.Clean(loose.String(s.Error))
	}
	if tc.Name == "" {
		tc.Name = "unknown"
	}
	if id != "" {
		cv.toolNames[id] = tc.Name
	}
	return tc
}

func (cv *converter) toolResult(id string, raw json.RawMessage) conversation.ToolResult {
	tr := conversation.ToolResult{CallID: id, Name: cv.toolNames[id]}
	var s status
	if loose.IsNull(raw) || json.Unmarshal(raw, &s) != nil {
		tr.Content = loose.Clean(loose.String(raw))
		return tr
	}
	if loose.String(s.Status) == "error" {
		tr.IsError = true
		tr.Content = loose.Clean(loose.String(s.Error))
		return tr
	}
	value := s.Value
	if loose.IsNull(value) {
		return tr
	}
	// CallToolResult {content, isError} since goose 1.9; a bare content
	// array before.
	items := value
	if t := loose.Lead(value); t == '{' {
		var ctr struct {
			Content json.RawMessage `json:"content"`
			IsError json.RawMessage `json:"isError"`
		}
		if json.Unmarshal(value, &ctr) == nil {
			items = ctr.Content
			tr.IsError = loose.Bool(ctr.IsError)
		}
	}
	var list []json.RawMessage
	if json.Unmarshal(items, &list) != nil {
		tr.Content = loose.Clean(loose.String(items))
		return tr
	}
	var parts []string
	for _, raw := range list {
		if p := contentText(raw); p != "" {
			parts = append(parts, p)
		}
	}
	tr.Content = strings.Join(parts, "\n")
	return tr
}

// contentText is the searchable text of one MCP content item: text as
// itself, an image or blob by its type only.
func contentText(raw json.RawMessage) string {
	var c mcpContent
	if json.Unmarshal(raw, &c) != nil {
		return loose.Clean(loose.String(raw))
	}
	switch loose.String(c.Type) {
	case "text":
		return loose.Clean(loose.String(c.Text))
	case "image", "audio":
		mt := loose.String(c.MimeType)
		if mt == "" {
			mt = loose.String(c.Type)
		}
		return "[" + mt + "]"
	case "resource":
		var r struct {
			URI      json.RawMessage `json:"uri"`
			Text     json.RawMessage `json:"text"`
			MimeType json.RawMessage `json:"mimeType"`
		}
		if json.Unmarshal(c.Resource, &r) == nil {
			if t := loose.String(r.Text); t != "" {
				return loose.Clean(t)
			}
			return "[resource " + loose.String(r.URI) + "]"
		}
	case "resource_link":
		return "[resource " + loose.String(c.URI) + "]"
	}
	return loose.Clean(loose.String(c.Text))
}
