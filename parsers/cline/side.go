package cline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// uiMessage is one record of ui_messages.json (cline ExtensionMessage.ts
// ClineMessage).
type uiMessage struct {
	Ts                       json.RawMessage `json:"ts"`
	Type                     json.RawMessage `json:"type"`
	Say                      json.RawMessage `json:"say"`
	Ask                      json.RawMessage `json:"ask"`
	Text                     json.RawMessage `json:"text"`
	Reasoning                json.RawMessage `json:"reasoning"`
	ConversationHistoryIndex json.RawMessage `json:"conversationHistoryIndex"`
}

// metadata is task_metadata.json (cline context-tracking TaskMetadata).
type metadata struct {
	Files []struct {
		Path   json.RawMessage `json:"path"`
		Source json.RawMessage `json:"record_source"`
	} `json:"files_in_context"`
	Models []struct {
		ModelID json.RawMessage `json:"model_id"`
	} `json:"model_usage"`
}

// historyItem is Roo Code's history_item.json (its HistoryItem).
type historyItem struct {
	Ts        json.RawMessage `json:"ts"`
	Task      json.RawMessage `json:"task"`
	Workspace json.RawMessage `json:"workspace"`
}

// reasoning is a reasoning text of the chat as shown, with the index of the
// last history message when it was written (-1 when not known).
type reasoning struct {
	text  string
	after int
}

// side is what the side files of a task folder say.
type side struct {
	first, last time.Time
	task        string // the task as the extension titles it
	workspace   string
	model       string
	reasonings  []reasoning
	edited      []string
	files       []string
}

func readSide(ctx context.Context, primary string, res *parsers.Result) side {
	dir := filepath.Dir(primary)
	var s side
	var ui []json.RawMessage
	if readJSON(ctx, primary, filepath.Join(dir, uiName), &ui, res) {
		for _, raw := range ui {
			var u uiMessage
			if json.Unmarshal(raw, &u) != nil {
				continue
			}
			if t := loose.Time(u.Ts); !t.IsZero() {
				if s.first.IsZero() || t.Before(s.first) {
					s.first = t
				}
				if t.After(s.last) {
					s.last = t
				}
			}
			say := loose.String(u.Say)
			if say == "task" && s.task == "" {
				s.task = strings.TrimSpace(loose.String(u.Text))
			}
			text := loose.String(u.Reasoning)
			if say == "reasoning" {
				text = loose.String(u.Text)
			}
			if text = loose.Clean(strings.TrimSpace(text)); text != "" {
				after := -1
				if n, ok := loose.Int(u.ConversationHistoryIndex); ok {
					after = int(n)
				}
				s.reasonings = append(s.reasonings, reasoning{text: text, after: after})
			}
		}
	}
	var md metadata
	if readJSON(ctx, primary, filepath.Join(dir, metadataName), &md, res) {
		seen := map[string]bool{}
		seenEdit := map[string]bool{}
		for _, f := range md.Files {
			p := strings.TrimSpace(loose.String(f.Path))
			if p == "" {
				continue
			}
			if !seen[p] {
				seen[p] = true
				s.files = append(s.files, p)
			}
			if src := loose.String(f.Source); (src == "cline_edited" || src == "roo_edited" || src == "user_edited") && !seenEdit[p] {
				seenEdit[p] = true
				s.edited = append(s.edited, p)
			}
		}
		for _, m := range md.Models {
			if id := strings.TrimSpace(loose.String(m.ModelID)); id != "" {
				s.model = id
			}
		}
	}
	var item historyItem
	if readJSON(ctx, primary, filepath.Join(dir, itemName), &item, res) {
		if t := strings.TrimSpace(loose.String(item.Task)); t != "" {
			s.task = t
		}
		s.workspace = strings.TrimSpace(loose.String(item.Workspace))
		if t := loose.Time(item.Ts); t.After(s.last) {
			s.last = t
		}
	}
	return s
}

// cwdLine is where the environment details name the workspace (Cline:
// "Working", Roo Code: "Workspace").
var cwdLine = regexp.MustCompile(`# Current (?:Working|Workspace) Directory \(([^)\n]+)\)`)

// apply completes c with what the side files say.
func (s side) apply(c *conversation.Conversation) {
	c.Date, c.Updated = s.first, s.last
	if s.task != "" {
		c.Title = loose.Title(loose.Clean(s.task), titleLen)
	}
	if s.model != "" {
		c.Model = s.model
	}
	if ws := s.workspace; ws != "" {
		c.Project = filepath.Base(filepath.FromSlash(strings.TrimRight(strings.ReplaceAll(ws, `\`, "/"), "/")))
		c.Tags = append(c.Tags, "cwd:"+ws)
	}
	// A reasoning shown while reply n+1 streamed belongs to the first reply
	// after history message n that carries no thinking of its own.
	for _, r := range s.reasonings {
		if r.after < -1 {
			continue
		}
		for i := r.after + 1; i < len(c.Messages); i++ {
			m := &c.Messages[i]
			if m.Role == conversation.RoleAssistant {
				if m.Thinking == "" {
					m.Thinking = r.text
				}
				break
			}
		}
	}
	if len(s.edited) > 0 {
		c.Notes = append(c.Notes, conversation.Note{Kind: "file_change", Title: "Files edited", Text: strings.Join(s.edited, "\n")})
	}
	if len(s.files) > 0 {
		c.Notes = append(c.Notes, conversation.Note{Kind: "context", Title: "Files in context", Text: strings.Join(s.files, "\n")})
	}
}
