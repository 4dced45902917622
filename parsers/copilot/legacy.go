package copilot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// legacySession is a history-session-state/<id>.json: the whole session in
// one object, its messages in OpenAI chat shape and, beside them, a
// timeline of what the terminal showed.
type legacySession struct {
	SessionID    json.RawMessage   `json:"sessionId"`
	StartTime    json.RawMessage   `json:"startTime"`
	ChatMessages []json.RawMessage `json:"chatMessages"`
	Timeline     []json.RawMessage `json:"timeline"`
}

type chatMessage struct {
	Role       json.RawMessage `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       json.RawMessage `json:"name"`
	ToolCallID json.RawMessage `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       json.RawMessage `json:"id"`
		Function struct {
			Name      json.RawMessage `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type timelineEntry struct {
	Type      json.RawMessage `json:"type"`
	Timestamp json.RawMessage `json:"timestamp"`
	Text      json.RawMessage `json:"text"`
	CallID    json.RawMessage `json:"callId"`
	ToolTitle json.RawMessage `json:"toolTitle"`
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result"`
}

func parseLegacy(_ context.Context, path string, r io.Reader) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	var s legacySession
	// A session torn by a crash while it was saved keeps the messages (or
	// timeline entries) written whole before the tear; the one it cut is
	// dropped.
	torn, err := loose.UnmarshalMended(path, data, &s, legacyUnit)
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	var msgs []conversation.Message
	kept := ""
	if len(s.ChatMessages) > 0 {
		msgs = legacyMessages(path, s.ChatMessages, res)
		kept = fmt.Sprintf("the %d complete chatMessages", len(s.ChatMessages))
	} else {
		msgs = timelineMessages(path, s.Timeline, res)
		kept = fmt.Sprintf("the %d complete timeline entries", len(s.Timeline))
	}
	if len(msgs) == 0 {
		if torn != nil {
			return nil, torn // nothing whole to keep
		}
		return res, nil
	}
	if torn != nil {
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("%s (%d messages)", kept, len(msgs))))
	}
	c := &conversation.Conversation{ID: strings.TrimSpace(loose.String(s.SessionID)), Messages: msgs}
	if c.ID == "" {
		c.ID = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	c.Date = loose.Time(s.StartTime)
	first, last := legacySpan(s.Timeline)
	if c.Date.IsZero() {
		c.Date = first
	}
	c.Updated = last
	c.Title = firstPrompt(msgs)
	c.Renumber()
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// legacyUnit is the unit a torn legacy session is cut back in: its
// chatMessages or its timeline, whichever the tear went through, never an
// array of that name inside a message.
func legacyUnit(p []string) bool {
	return loose.PathIs("chatMessages")(p) || loose.PathIs("timeline")(p)
}

// legacySpan is the first and last time of the timeline: chatMessages have
// none.
func legacySpan(timeline []json.RawMessage) (first, last time.Time) {
	var msgs []conversation.Message
	for _, raw := range timeline {
		var e timelineEntry
		if json.Unmarshal(raw, &e) == nil {
			msgs = append(msgs, conversation.Message{Timestamp: loose.Time(e.Timestamp)})
		}
	}
	return conversation.Span(msgs)
}

// legacyMessages reads chatMessages: system prompts hidden, tool results
// as tool messages, names of tools taken from the calls they answer.
func legacyMessages(path string, raws []json.RawMessage, res *parsers.Result) []conversation.Message {
	var msgs []conversation.Message
	names := map[string]string{}
	for i, raw := range raws {
		var cm chatMessage
		if err := json.Unmarshal(raw, &cm); err != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "chatMessages[%d]: %v: skipped", i, err))
			continue
		}
		text, atts := partsText(cm.Content)
		switch role := strings.ToLower(loose.String(cm.Role)); role {
		case "system", "developer":
			msgs = append(msgs, conversation.Message{Role: conversation.RoleSystem, Content: text, Hidden: true})
		case "assistant":
			m := conversation.Message{Role: conversation.RoleAssistant, Content: text, Attachments: atts}
			for _, tc := range cm.ToolCalls {
				call := conversation.ToolCall{ID: loose.String(tc.ID), Name: loose.String(tc.Function.Name), Arguments: argText(tc.Function.Arguments)}
				names[call.ID] = call.Name
				m.ToolCalls = append(m.ToolCalls, call)
			}
			msgs = append(msgs, m)
		case "tool", "function":
			id := loose.String(cm.ToolCallID)
			name := names[id]
			if name == "" {
				name = loose.String(cm.Name)
			}
			msgs = append(msgs, conversation.Message{Role: conversation.RoleTool,
				ToolResults: []conversation.ToolResult{{CallID: id, Name: name, Content: loose.Clean(text)}}})
		case "user":
			msgs = append(msgs, conversation.Message{Role: conversation.RoleUser, Content: text, Attachments: atts, Hidden: injected(text)})
		default:
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "chatMessages[%d]: unknown role %q: read as a user message", i, role))
			msgs = append(msgs, conversation.Message{Role: conversation.RoleUser, Content: text, Attachments: atts})
		}
	}
	return msgs
}

// partsText flattens OpenAI content: a string, or parts of type text and
// image_url (whose data is never kept).
func partsText(raw json.RawMessage) (string, []conversation.Attachment) {
	var parts []struct {
		Type     json.RawMessage `json:"type"`
		Text     json.RawMessage `json:"text"`
		ImageURL struct {
			URL json.RawMessage `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return loose.String(raw), nil
	}
	var text string
	var atts []conversation.Attachment
	for _, p := range parts {
		switch loose.String(p.Type) {
		case "image_url":
			url := loose.String(p.ImageURL.URL)
			a := conversation.Attachment{Type: "image"}
			if mt, size, ok := loose.DataURL(url); ok {
				a.Type, a.Size = mt, size
			} else {
				a.Ref = url
			}
			atts = append(atts, a)
		default:
			text = loose.AppendParagraph(text, loose.String(p.Text))
		}
	}
	return text, atts
}

// timelineMessages reads the timeline when a session has no chatMessages:
// user and copilot entries are the turns, tool_call_completed the tools.
func timelineMessages(path string, raws []json.RawMessage, res *parsers.Result) []conversation.Message {
	var msgs []conversation.Message
	for i, raw := range raws {
		var e timelineEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "timeline[%d]: %v: skipped", i, err))
			continue
		}
		ts := loose.Time(e.Timestamp)
		name := loose.String(e.ToolTitle)
		if name == "" {
			name = loose.String(e.Name)
		}
		switch loose.String(e.Type) {
		case "user":
			text := loose.String(e.Text)
			msgs = append(msgs, conversation.Message{Role: conversation.RoleUser, Content: text, Timestamp: ts, Hidden: injected(text)})
		case "copilot":
			msgs = append(msgs, conversation.Message{Role: conversation.RoleAssistant, Content: loose.String(e.Text), Timestamp: ts})
		case "tool_call_requested":
			call := conversation.ToolCall{ID: loose.String(e.CallID), Name: name, Arguments: argText(e.Arguments)}
			if k := len(msgs) - 1; k >= 0 && msgs[k].Role == conversation.RoleAssistant {
				msgs[k].ToolCalls = append(msgs[k].ToolCalls, call)
			} else {
				msgs = append(msgs, conversation.Message{Role: conversation.RoleAssistant, Timestamp: ts, ToolCalls: []conversation.ToolCall{call}})
			}
		case "tool_call_completed":
			var r struct {
				Type json.RawMessage `json:"type"`
				Log  json.RawMessage `json:"log"`
			}
			_ = json.Unmarshal(e.Result, &r)
			tr := conversation.ToolResult{CallID: loose.String(e.CallID), Name: name, Content: loose.Clean(loose.String(r.Log))}
			if t := loose.String(r.Type); t == "failure" || t == "error" || t == "rejected" {
				tr.IsError = true
			}
			msgs = append(msgs, conversation.Message{Role: conversation.RoleTool, Timestamp: ts, ToolResults: []conversation.ToolResult{tr}})
		}
		// info and error entries are terminal notices.
	}
	return msgs
}
