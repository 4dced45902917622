package kirosession

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// maxMetaSize bounds the companion read: it holds metadata, not messages.
const maxMetaSize = 16 << 20

// titleLen is the most runes a title derived from a prompt keeps.
const titleLen = 80

// event is one line of a session.
type event struct {
	Version json.RawMessage `json:"version"`
	Kind    json.RawMessage `json:"kind"`
	Data    json.RawMessage `json:"data"`
}

type eventData struct {
	MessageID json.RawMessage `json:"message_id"`
	Content   json.RawMessage `json:"content"`
	Meta      json.RawMessage `json:"meta"`
}

// block is one content block: data is a string for text, an object for
// the other kinds.
type block struct {
	Kind json.RawMessage `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// meta is the companion <id>.json.
type meta struct {
	SessionID       json.RawMessage `json:"session_id"`
	Title           json.RawMessage `json:"title"`
	Cwd             json.RawMessage `json:"cwd"`
	CreatedAt       json.RawMessage `json:"created_at"`
	UpdatedAt       json.RawMessage `json:"updated_at"`
	ParentSessionID json.RawMessage `json:"parent_session_id"`
	SessionState    struct {
		RTSModelState struct {
			ModelInfo struct {
				ModelID   json.RawMessage `json:"model_id"`
				ModelName json.RawMessage `json:"model_name"`
			} `json:"model_info"`
		} `json:"rts_model_state"`
	} `json:"session_state"`
}

type builder struct {
	path  string
	res   parsers.Result
	msgs  []conversation.Message
	names map[string]string // toolUseId → tool name
	lines loose.Lines       // the lines read, and those that could not be
	known int
}

func parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b := &builder{path: path, names: map[string]string{}}
	b.lines = loose.Lines{Path: path, Res: &b.res}
	if err := loose.EachLine(ctx, path, r, b.line); err != nil {
		return nil, err
	}
	switch {
	case b.lines.Count() == 0:
		return &b.res, nil // a session created and not yet written to
	case b.known == 0 && b.lines.Unreadable() != nil:
		return nil, b.lines.Unreadable()
	case b.known == 0:
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no Kiro CLI event")
	}
	return b.finish()
}

func (b *builder) line(n int, data []byte) {
	var ev event
	if !b.lines.Decode(n, data, &ev) {
		return
	}
	kind := loose.String(ev.Kind)
	if kind == "" {
		return
	}
	b.known++
	var d eventData
	_ = json.Unmarshal(ev.Data, &d) // a bad field leaves it empty
	m := conversation.Message{ID: loose.String(d.MessageID)}
	var ts struct {
		Timestamp json.RawMessage `json:"timestamp"`
	}
	if json.Unmarshal(d.Meta, &ts) == nil {
		m.Timestamp = loose.Time(ts.Timestamp)
	}
	switch kind {
	case "Prompt":
		m.Role = conversation.RoleUser
	case "AssistantMessage":
		m.Role = conversation.RoleAssistant
	case "ToolResults":
		m.Role = conversation.RoleTool
	default:
		// Clear, and kinds to come: no message of their own.
		return
	}
	b.content(&m, d.Content)
	b.msgs = append(b.msgs, m)
}

// content reads a message's blocks.
func (b *builder) content(m *conversation.Message, raw json.RawMessage) {
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		if s := loose.String(raw); s != "" && !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
			m.Content = loose.Clean(s) // a bare string
		}
		return
	}
	var text, thinking []string
	for _, bl := range blocks {
		switch k := loose.String(bl.Kind); k {
		case "text":
			if s := loose.Clean(loose.String(bl.Data)); strings.TrimSpace(s) != "" {
				text = append(text, s)
			}
		case "thinking", "reasoning", "reasoningContent":
			var t struct {
				Text json.RawMessage `json:"text"`
			}
			s := loose.String(bl.Data)
			if json.Unmarshal(bl.Data, &t) == nil && !loose.IsNull(t.Text) {
				s = loose.String(t.Text)
			}
			if s = loose.Clean(s); strings.TrimSpace(s) != "" {
				thinking = append(thinking, s)
			}
		case "toolUse":
			var tu struct {
				ToolUseID json.RawMessage `json:"toolUseId"`
				Name      json.RawMessage `json:"name"`
				Input     json.RawMessage `json:"input"`
			}
			if json.Unmarshal(bl.Data, &tu) != nil {
				continue
			}
			id, name := loose.String(tu.ToolUseID), loose.String(tu.Name)
			if id != "" {
				b.names[id] = name
			}
			m.ToolCalls = append(m.ToolCalls, conversation.ToolCall{ID: id, Name: name, Arguments: loose.Clean(loose.String(tu.Input))})
		case "toolResult":
			b.result(m, bl.Data)
		case "image":
			m.Attachments = append(m.Attachments, image(bl.Data))
		default:
			// A kind to come: its text, when it is text.
			if d := bytes.TrimSpace(bl.Data); len(d) > 0 && d[0] == '"' {
				if s := loose.Clean(loose.String(d)); strings.TrimSpace(s) != "" {
					text = append(text, s)
				}
			}
		}
	}
	m.Content = strings.Join(text, "\n\n")
	m.Thinking = strings.Join(thinking, "\n\n")
}

// result reads a toolResult block: its text and json parts, in order.
func (b *builder) result(m *conversation.Message, raw json.RawMessage) {
	var tr struct {
		ToolUseID json.RawMessage `json:"toolUseId"`
		Content   []block         `json:"content"`
		Status    json.RawMessage `json:"status"`
	}
	if json.Unmarshal(raw, &tr) != nil {
		return
	}
	var parts []string
	for _, c := range tr.Content {
		switch loose.String(c.Kind) {
		case "image":
			m.Attachments = append(m.Attachments, image(c.Data))
		default: // text, json
			if s := loose.Clean(loose.String(c.Data)); strings.TrimSpace(s) != "" {
				parts = append(parts, s)
			}
		}
	}
	id := loose.String(tr.ToolUseID)
	m.ToolResults = append(m.ToolResults, conversation.ToolResult{
		CallID:  id,
		Name:    b.names[id],
		Content: strings.Join(parts, "\n"),
		IsError: strings.EqualFold(loose.String(tr.Status), "error"),
	})
}

// image describes an image block without its bytes.
func image(raw json.RawMessage) conversation.Attachment {
	var im struct {
		Format json.RawMessage `json:"format"`
		Name   json.RawMessage `json:"name"`
		Source struct {
			Bytes json.RawMessage `json:"bytes"`
		} `json:"source"`
	}
	_ = json.Unmarshal(raw, &im)
	a := conversation.Attachment{Name: loose.String(im.Name), Type: "image"}
	if f := loose.String(im.Format); f != "" {
		a.Type = "image/" + strings.ToLower(f)
	}
	var bs []json.RawMessage
	switch t := bytes.TrimSpace(im.Source.Bytes); {
	case len(t) > 0 && t[0] == '[' && json.Unmarshal(t, &bs) == nil:
		a.Size = int64(len(bs)) // bytes written as an array of numbers
	case len(t) > 0 && t[0] == '"':
		a.Size = loose.Base64Size(loose.String(t))
	}
	return a
}

func (b *builder) finish() (*parsers.Result, error) {
	if len(b.msgs) == 0 {
		return &b.res, nil
	}
	c := &conversation.Conversation{Source: Name, File: b.path, Messages: b.msgs}
	c.Renumber()
	// The file is named after the session id, so the id survives a move and
	// a missing companion.
	base := filepath.Base(b.path)
	c.ID = strings.TrimSuffix(base, filepath.Ext(base))
	c.Date, c.Updated = conversation.Span(c.Messages)
	if m, ok := b.meta(); ok {
		if t := strings.Join(strings.Fields(loose.String(m.Title)), " "); t != "" {
			c.Title = t
		}
		if t := loose.Time(m.CreatedAt); !t.IsZero() {
			c.Date = t
		}
		if t := loose.Time(m.UpdatedAt); t.After(c.Updated) {
			c.Updated = t
		}
		if cwd := strings.TrimSpace(loose.String(m.Cwd)); cwd != "" {
			c.Project = loose.ProjectName(cwd)
			c.Tags = append(c.Tags, "cwd:"+cwd)
		}
		mi := m.SessionState.RTSModelState.ModelInfo
		c.Model = loose.String(mi.ModelID)
		if c.Model == "" {
			c.Model = loose.String(mi.ModelName)
		}
		if p := loose.String(m.ParentSessionID); p != "" {
			c.RelatedConversations = []string{p}
			c.Tags = append(c.Tags, "subagent")
		}
	}
	if c.Title == "" {
		c.Title = firstPrompt(c.Messages)
	}
	b.res.Conversations = append(b.res.Conversations, c)
	return &b.res, nil
}

// meta reads the companion; a missing one is no problem, an unreadable one
// a warning.
func (b *builder) meta() (meta, bool) {
	var m meta
	found, err := loose.ReadSideFile(metaPath(b.path), maxMetaSize, &m)
	if err != nil {
		b.res.Warn(&parsers.Error{Path: b.path, Err: fmt.Errorf("companion %w", err)})
		return m, false
	}
	return m, found
}

func firstPrompt(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && strings.TrimSpace(m.Content) != "" {
			return loose.Title(m.Content, titleLen)
		}
	}
	return ""
}
