package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// logEntry is one prompt of logs.json.
type logEntry struct {
	SessionID json.RawMessage `json:"sessionId"`
	MessageID json.RawMessage `json:"messageId"`
	Timestamp json.RawMessage `json:"timestamp"`
	Type      json.RawMessage `json:"type"`
	Message   json.RawMessage `json:"message"`
}

// parseLogs reads logs.json, the project's prompt log. Every prompt of a
// session that has a chats file is in that file too, with the answers, so
// logs.json yields a conversation (of prompts only, tagged prompts-only)
// only for the sessions with no chats/session-*-<first 8 of the id>.json or
// .jsonl beside it: sessions recorded before chat recording existed, or
// whose recording was deleted or switched off. When the chats file appears
// the conversation moves to it under the same id.
func parseLogs(ctx context.Context, path string, r io.Reader, source string) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var list []json.RawMessage
	torn, err := loose.UnmarshalMended(path, data, &list, loose.PathIs())
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	if torn != nil {
		if len(list) == 0 {
			return nil, torn
		}
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d complete entries", len(list))))
	}
	recorded := recordedSessions(filepath.Join(filepath.Dir(path), "chats"))
	bySession := map[string]*conversation.Conversation{}
	var order []*conversation.Conversation
	for i, raw := range list {
		var e logEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "entry %d: %v", i, err))
			continue
		}
		sid := strings.TrimSpace(loose.String(e.SessionID))
		text := loose.Clean(loose.String(e.Message))
		if sid == "" || strings.TrimSpace(text) == "" {
			continue // the tool itself drops entries without these
		}
		if len(sid) >= 8 && recorded[sid[:8]] {
			continue
		}
		c := bySession[sid]
		if c == nil {
			c = &conversation.Conversation{ID: sid, Source: source, File: path, Tags: []string{"prompts-only"}}
			bySession[sid] = c
			order = append(order, c)
		}
		role := conversation.RoleUser
		if typ := loose.String(e.Type); typ != "" && typ != "user" {
			// Only user prompts are logged today; anything else is kept,
			// as the tool's own note.
			role = conversation.RoleSystem
		}
		m := conversation.Message{Role: role, Content: text, Timestamp: loose.Time(e.Timestamp), Hidden: role == conversation.RoleSystem}
		if n, ok := loose.Int(e.MessageID); ok {
			m.ID = sid + "/" + strconv.FormatInt(n, 10)
		}
		c.Messages = append(c.Messages, m)
	}
	for _, c := range order {
		c.Renumber()
		c.Date, c.Updated = conversation.Span(c.Messages)
		c.Title = firstPrompt(c.Messages)
		c.Project = project(filepath.Join(filepath.Dir(path), "chats", "x"), nil)
		res.AddUnique(c, path, 0)
	}
	return res, nil
}

// recordedSessions returns the first eight characters of the session id of
// every session file in chats (session-<time>-<id8>.json or .jsonl).
func recordedSessions(chats string) map[string]bool {
	entries, err := os.ReadDir(chats)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "session-") {
			continue
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".jsonl"), ".json")
		if i := strings.LastIndexByte(name, '-'); i >= 0 && len(name)-i-1 == 8 {
			out[name[i+1:]] = true
		}
	}
	return out
}
