package opencode

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// titleLen is the most runes a title derived from a prompt keeps.
const titleLen = 80

// sessionInfo is a session file (Session.Info), or a session row.
type sessionInfo struct {
	ID        json.RawMessage `json:"id"`
	Title     json.RawMessage `json:"title"`
	ProjectID json.RawMessage `json:"projectID"`
	Directory json.RawMessage `json:"directory"`
	ParentID  json.RawMessage `json:"parentID"`
	Time      struct {
		Created json.RawMessage `json:"created"`
		Updated json.RawMessage `json:"updated"`
	} `json:"time"`
}

// messageInfo is a message file or a message row's data (MessageV2.Info).
type messageInfo struct {
	ID       json.RawMessage `json:"id"`
	Role     json.RawMessage `json:"role"`
	ParentID json.RawMessage `json:"parentID"`
	ModelID  json.RawMessage `json:"modelID"`
	Model    json.RawMessage `json:"model"` // user messages: {providerID, modelID}
	Error    json.RawMessage `json:"error"`
	Summary  json.RawMessage `json:"summary"`
	Time     struct {
		Created json.RawMessage `json:"created"`
	} `json:"time"`
	Parts []json.RawMessage `json:"parts"` // the oldest layout kept parts inline
}

// part is a part file or a part row's data (MessageV2.Part).
type part struct {
	ID        json.RawMessage `json:"id"`
	Type      json.RawMessage `json:"type"`
	Text      json.RawMessage `json:"text"`
	Synthetic json.RawMessage `json:"synthetic"`
	Ignored   json.RawMessage `json:"ignored"`
	CallID    json.RawMessage `json:"callID"`
	Tool      json.RawMessage `json:"tool"`
	State     struct {
		Status json.RawMessage `json:"status"`
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	} `json:"state"`
	Mime        json.RawMessage `json:"mime"`
	Filename    json.RawMessage `json:"filename"`
	URL         json.RawMessage `json:"url"`
	Files       json.RawMessage `json:"files"`       // patch
	Prompt      json.RawMessage `json:"prompt"`      // subtask
	Description json.RawMessage `json:"description"` // subtask
}

// rawMessage is a message as read, before it is built: its info, its id
// and time when the store's columns give them, and its parts in order.
type rawMessage struct {
	id      string
	created time.Time
	info    messageInfo
	parts   []part
}

// build makes a conversation of a session and its messages.
func build(file string, s sessionInfo, idFallback string, msgs []rawMessage) *conversation.Conversation {
	c := &conversation.Conversation{
		ID:      strings.TrimSpace(loose.String(s.ID)),
		Source:  Name,
		File:    file,
		Date:    loose.Time(s.Time.Created),
		Updated: loose.Time(s.Time.Updated),
		// A session opened and left has no message: [] rather than null.
		Messages: make([]conversation.Message, 0, len(msgs)),
	}
	if c.ID == "" {
		c.ID = idFallback
	}
	dir := strings.TrimSpace(loose.String(s.Directory))
	if dir != "" {
		c.Project = loose.ProjectName(dir)
		c.Tags = append(c.Tags, "cwd:"+dir)
	}
	child := !loose.IsNull(s.ParentID)
	if child {
		c.RelatedConversations = []string{loose.String(s.ParentID)}
	}
	slices.SortStableFunc(msgs, func(a, b rawMessage) int {
		if c := a.created.Compare(b.created); c != 0 && !a.created.IsZero() && !b.created.IsZero() {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	var edited []string
	seen := map[string]bool{}
	var lastModel string
	for _, rm := range msgs {
		m, files := message(rm)
		m.Sidechain = child
		for _, f := range files {
			if !seen[f] {
				seen[f] = true
				edited = append(edited, f)
			}
		}
		if m.Model != "" && m.Role == conversation.RoleAssistant {
			lastModel = m.Model
		}
		c.Messages = append(c.Messages, m)
	}
	c.Renumber()
	c.Model = lastModel
	if first, last := conversation.Span(c.Messages); !first.IsZero() {
		if c.Date.IsZero() || first.Before(c.Date) {
			c.Date = first
		}
		if last.After(c.Updated) {
			c.Updated = last
		}
	}
	c.Title = strings.TrimSpace(loose.String(s.Title))
	if c.Title == "" || strings.HasPrefix(c.Title, "New session - ") || strings.HasPrefix(c.Title, "Child session - ") {
		for _, m := range c.Messages {
			if m.Role == conversation.RoleUser && !m.Hidden && m.Content != "" {
				c.Title = loose.Title(m.Content, titleLen)
				break
			}
		}
	}
	if len(edited) > 0 {
		c.Notes = append(c.Notes, conversation.Note{Kind: "file_change", Title: "Files changed", Text: strings.Join(edited, "\n")})
	}
	return c
}

// message builds one message from its info and parts; files are the paths
// its patch parts name.
func message(rm rawMessage) (conversation.Message, []string) {
	in := rm.info
	m := conversation.Message{
		ID:        rm.id,
		ParentID:  loose.String(in.ParentID),
		Timestamp: rm.created,
	}
	if m.ID == "" {
		m.ID = loose.String(in.ID)
	}
	if t := loose.Time(in.Time.Created); !t.IsZero() {
		m.Timestamp = t
	}
	switch loose.String(in.Role) {
	case "assistant":
		m.Role = conversation.RoleAssistant
		m.Model = loose.String(in.ModelID)
	case "system":
		m.Role = conversation.RoleSystem
		m.Hidden = true
	default:
		m.Role = conversation.RoleUser
		var model struct {
			ModelID json.RawMessage `json:"modelID"`
		}
		if json.Unmarshal(in.Model, &model) == nil {
			m.Model = loose.String(model.ModelID)
		}
	}
	var text, synthetic, thinking, files []string
	for _, p := range rm.parts {
		switch typ := loose.String(p.Type); typ {
		case "text":
			t := loose.Clean(strings.TrimSpace(loose.String(p.Text)))
			switch {
			case t == "" || loose.Bool(p.Ignored):
			case loose.Bool(p.Synthetic):
				synthetic = append(synthetic, t)
			default:
				text = append(text, t)
			}
		case "reasoning":
			if t := loose.Clean(strings.TrimSpace(loose.String(p.Text))); t != "" {
				thinking = append(thinking, t)
			}
		case "tool":
			call := conversation.ToolCall{ID: loose.String(p.CallID), Name: loose.String(p.Tool), Arguments: loose.Clean(loose.String(p.State.Input))}
			m.ToolCalls = append(m.ToolCalls, call)
			status := loose.String(p.State.Status)
			out := loose.String(p.State.Output)
			if status == "error" {
				out = loose.String(p.State.Error)
			}
			if status == "completed" || status == "error" || out != "" {
				m.ToolResults = append(m.ToolResults, conversation.ToolResult{
					CallID: call.ID, Name: call.Name, Content: loose.Clean(out), IsError: status == "error",
				})
			}
		case "file":
			m.Attachments = append(m.Attachments, attachment(p))
		case "patch":
			var fs []string
			if json.Unmarshal(p.Files, &fs) == nil {
				files = append(files, fs...)
			}
		case "subtask":
			if t := loose.Clean(strings.TrimSpace(loose.String(p.Prompt))); t != "" {
				text = append(text, t)
			}
		case "step-start", "step-finish", "snapshot", "agent", "compaction", "retry":
			// Bookkeeping: no text of its own.
		default:
			if t := loose.Clean(strings.TrimSpace(loose.String(p.Text))); t != "" {
				text = append(text, t)
			}
		}
	}
	m.Content = strings.Join(text, "\n\n")
	m.Thinking = strings.Join(thinking, "\n\n")
	if m.Content == "" && len(synthetic) > 0 {
		// Only text OpenCode wrote itself (a file's contents read in for
		// the user, a "continue" prompt): kept, hidden.
		m.Content = strings.Join(synthetic, "\n\n")
		if len(m.Attachments) == 0 {
			m.Hidden = true
		}
	}
	if m.Role == conversation.RoleAssistant && m.Content == "" && !loose.IsNull(in.Error) {
		var e struct {
			Name json.RawMessage `json:"name"`
			Data struct {
				Message json.RawMessage `json:"message"`
			} `json:"data"`
		}
		if json.Unmarshal(in.Error, &e) == nil {
			m.Content = strings.TrimSpace(loose.String(e.Name) + ": " + loose.String(e.Data.Message))
		}
	}
	return m, files
}

// attachment describes a file part without its payload: a data: URL gives
// only its type and size.
func attachment(p part) conversation.Attachment {
	a := conversation.Attachment{Name: loose.String(p.Filename), Type: loose.String(p.Mime)}
	u := loose.String(p.URL)
	if mt, size, ok := loose.DataURL(u); ok {
		a.Size = size
		if a.Type == "" {
			a.Type = mt
		}
	} else {
		a.Ref = u
	}
	return a
}
