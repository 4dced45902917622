package gemini

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// qwenRecord is one line of a Qwen Code session (ChatRecord in
// packages/core/src/services/chatRecordingService.ts).
type qwenRecord struct {
	UUID           json.RawMessage `json:"uuid"`
	ParentUUID     json.RawMessage `json:"parentUuid"`
	SessionID      json.RawMessage `json:"sessionId"`
	Timestamp      json.RawMessage `json:"timestamp"`
	Type           json.RawMessage `json:"type"`
	Subtype        json.RawMessage `json:"subtype"`
	Provenance     json.RawMessage `json:"provenance"`
	Cwd            json.RawMessage `json:"cwd"`
	GitBranch      json.RawMessage `json:"gitBranch"`
	Message        json.RawMessage `json:"message"`
	Model          json.RawMessage `json:"model"`
	ToolCallResult json.RawMessage `json:"toolCallResult"`
	SystemPayload  json.RawMessage `json:"systemPayload"`
	IsSidechain    json.RawMessage `json:"isSidechain"`
}

// qwenLog gathers a Qwen session's records.
type qwenLog struct {
	path string
	res  parsers.Result

	msgs      []conversation.Message
	seen      map[string]bool
	sessionID string
	cwd       string
	branch    string
	title     string
	summaries []string
	models    map[string]int
	order     []string
}

// parseQwen reads a Qwen Code session: user, assistant and tool_result
// records are messages (a tool_result one of role tool); system records
// give the title (custom_title) and compression summaries (chat_compression,
// kept as hidden system messages); other system records (telemetry, slash
// command replays, snapshots, …) carry no message and are skipped.
func parseQwen(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	q := &qwenLog{path: path, seen: map[string]bool{}, models: map[string]int{}}
	var known int
	lines := loose.Lines{Path: path, Res: &q.res}
	err := loose.EachLine(ctx, path, r, func(n int, data []byte) {
		var rec qwenRecord
		if !lines.Decode(n, data, &rec) {
			return
		}
		if loose.IsNull(rec.UUID) && loose.IsNull(rec.SessionID) {
			return // not a Qwen record
		}
		known++
		q.record(&rec)
	})
	if err != nil {
		return nil, err
	}
	switch {
	case lines.Count() == 0:
		return &q.res, nil
	case known == 0 && lines.Unreadable() != nil:
		return nil, lines.Unreadable()
	case known == 0:
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no Qwen Code record")
	}
	return q.finish()
}

func (q *qwenLog) record(rec *qwenRecord) {
	uuid := loose.String(rec.UUID)
	if uuid != "" {
		if q.seen[uuid] {
			return // the same record written twice
		}
		q.seen[uuid] = true
	}
	if sid := strings.TrimSpace(loose.String(rec.SessionID)); sid != "" {
		q.sessionID = sid
	}
	if v := strings.TrimSpace(loose.String(rec.Cwd)); v != "" && q.cwd == "" {
		q.cwd = v
	}
	if v := strings.TrimSpace(loose.String(rec.GitBranch)); v != "" && q.branch == "" {
		q.branch = v
	}
	m := conversation.Message{
		ID:        uuid,
		ParentID:  loose.String(rec.ParentUUID),
		Timestamp: loose.Time(rec.Timestamp),
		Sidechain: loose.Bool(rec.IsSidechain),
	}
	var msg struct {
		Parts json.RawMessage `json:"parts"`
	}
	_ = json.Unmarshal(rec.Message, &msg)
	subtype := loose.String(rec.Subtype)
	switch loose.String(rec.Type) {
	case "user":
		m.Role = conversation.RoleUser
		switch subtype {
		case "notification", "cron", "background_task_completed", "agent_launch_prompt":
			m.Hidden = true // written by the tool, not typed
		}
		switch loose.String(rec.Provenance) {
		case "system", "goal_control", "goal_runtime":
			m.Hidden = true
		}
	case "assistant":
		m.Role = conversation.RoleAssistant
		m.Model = strings.TrimSpace(loose.String(rec.Model))
	case "tool_result":
		m.Role = conversation.RoleTool
	case "system":
		q.system(subtype, rec, m)
		return
	default:
		return
	}
	p := readParts(msg.Parts)
	m.Content = strings.Join(p.text, "\n\n")
	m.Thinking = strings.Join(p.thinking, "\n\n")
	m.ToolCalls = p.calls
	m.ToolResults = p.results
	m.Attachments = p.attachments
	if m.Role == conversation.RoleTool {
		var tcr struct {
			CallID json.RawMessage `json:"callId"`
			Status json.RawMessage `json:"status"`
			Error  json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal(rec.ToolCallResult, &tcr)
		isErr := loose.String(tcr.Status) == "error" || !loose.IsNull(tcr.Error)
		for i := range m.ToolResults {
			m.ToolResults[i].IsError = m.ToolResults[i].IsError || isErr
		}
		if len(m.ToolResults) == 0 && m.Content != "" {
			m.ToolResults = []conversation.ToolResult{{CallID: loose.String(tcr.CallID), Content: m.Content, IsError: isErr}}
			m.Content = ""
		}
	}
	if m.Model != "" {
		if q.models[m.Model] == 0 {
			q.order = append(q.order, m.Model)
		}
		q.models[m.Model]++
	}
	q.msgs = append(q.msgs, m)
}

// system reads the system records that say something about the
// conversation.
func (q *qwenLog) system(subtype string, rec *qwenRecord, m conversation.Message) {
	switch subtype {
	case "custom_title":
		var p struct {
			CustomTitle json.RawMessage `json:"customTitle"`
		}
		if json.Unmarshal(rec.SystemPayload, &p) == nil {
			if t := strings.TrimSpace(loose.String(p.CustomTitle)); t != "" {
				q.title = t
			}
		}
	case "chat_compression":
		var p struct {
			CompressedHistory []json.RawMessage `json:"compressedHistory"`
		}
		if json.Unmarshal(rec.SystemPayload, &p) != nil || len(p.CompressedHistory) == 0 {
			return
		}
		var first struct {
			Parts json.RawMessage `json:"parts"`
		}
		_ = json.Unmarshal(p.CompressedHistory[0], &first)
		text := strings.Join(readParts(first.Parts).text, "\n\n")
		if strings.TrimSpace(text) == "" {
			return
		}
		q.summaries = append(q.summaries, text)
		m.Role = conversation.RoleSystem
		m.Hidden = true
		m.Content = text
		q.msgs = append(q.msgs, m)
	}
}

func (q *qwenLog) finish() (*parsers.Result, error) {
	if len(q.msgs) == 0 {
		return &q.res, nil
	}
	c := &conversation.Conversation{Source: QwenName, File: q.path, Messages: q.msgs, Summaries: q.summaries}
	c.Renumber()
	c.Date, c.Updated = conversation.Span(c.Messages)
	c.ID = q.sessionID
	if c.ID == "" {
		base := filepath.Base(q.path)
		c.ID = conversation.NewID(base+"\x00"+c.Messages[0].ID, c.Date)
	}
	c.Title = oneLine(q.title)
	if c.Title == "" {
		c.Title = firstPrompt(c.Messages)
	}
	for _, m := range q.order {
		if q.models[m] > q.models[c.Model] {
			c.Model = m
		}
	}
	if q.cwd != "" {
		c.Project = filepath.Base(filepath.Clean(q.cwd))
		c.Tags = append(c.Tags, "cwd:"+q.cwd)
	}
	if q.branch != "" {
		c.Tags = append(c.Tags, "branch:"+q.branch)
	}
	q.res.Conversations = append(q.res.Conversations, c)
	return &q.res, nil
}
