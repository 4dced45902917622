package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// record is a session's metadata, a message, or a JSONL control line. Every
// field is raw so that a value of an unexpected type spoils only itself.
type record struct {
	// metadata (the whole .json, a .jsonl's first line, a $set)
	SessionID   json.RawMessage `json:"sessionId"`
	ProjectHash json.RawMessage `json:"projectHash"`
	StartTime   json.RawMessage `json:"startTime"`
	LastUpdated json.RawMessage `json:"lastUpdated"`
	Summary     json.RawMessage `json:"summary"`
	Directories json.RawMessage `json:"directories"`
	Kind        json.RawMessage `json:"kind"`
	Messages    json.RawMessage `json:"messages"`
	// control lines of the .jsonl
	Set      json.RawMessage `json:"$set"`
	RewindTo json.RawMessage `json:"$rewindTo"`
	// a message
	ID             json.RawMessage `json:"id"`
	Timestamp      json.RawMessage `json:"timestamp"`
	Type           json.RawMessage `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	ToolCalls      json.RawMessage `json:"toolCalls"`
	Thoughts       json.RawMessage `json:"thoughts"`
	Model          json.RawMessage `json:"model"`
}

// toolCall is one entry of a gemini message's toolCalls.
type toolCall struct {
	ID            json.RawMessage `json:"id"`
	Name          json.RawMessage `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        json.RawMessage `json:"status"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

// entry is a message of the session being built; deleted marks one a
// rewind took back (kept, flagged, never dropped).
type entry struct {
	rec     record
	deleted bool
}

// session gathers one session's metadata and messages.
type session struct {
	path   string
	source string
	res    parsers.Result

	id, projectHash, summary, kind string
	start, updated                 time.Time
	dirs                           []string

	entries []*entry
	byID    map[string]*entry // live entries by message id
}

func newSession(path, source string) *session {
	return &session{path: path, source: source, byID: map[string]*entry{}}
}

// meta takes what a metadata record says; later values win.
func (s *session) meta(rec *record) {
	if v := strings.TrimSpace(loose.String(rec.SessionID)); v != "" {
		s.id = v
	}
	if v := loose.String(rec.ProjectHash); v != "" {
		s.projectHash = v
	}
	if t := loose.Time(rec.StartTime); !t.IsZero() {
		s.start = t
	}
	if t := loose.Time(rec.LastUpdated); !t.IsZero() {
		s.updated = t
	}
	if v := strings.TrimSpace(loose.String(rec.Summary)); v != "" {
		s.summary = v
	}
	if v := loose.String(rec.Kind); v != "" {
		s.kind = v
	}
	var dirs []string
	if json.Unmarshal(rec.Directories, &dirs) == nil && len(dirs) > 0 {
		s.dirs = dirs
	}
}

// messages reads a messages array, warning for each element that is not
// an object.
func (s *session) messages(raw json.RawMessage, line int) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		if !loose.IsNull(raw) {
			s.res.Warn(parsers.Errorf(s.path, line, parsers.ErrShape, "messages is not an array"))
		}
		return
	}
	for i, m := range list {
		var rec record
		if err := json.Unmarshal(m, &rec); err != nil {
			s.res.Warn(parsers.Errorf(s.path, line, parsers.ErrShape, "message %d: %v", i, err))
			continue
		}
		s.add(rec)
	}
}

// add records a message. One whose id is already live is a rewrite (tokens
// or tool results added): it replaces the earlier one where it stood, as
// the tool's own loader does.
func (s *session) add(rec record) {
	id := loose.String(rec.ID)
	if e := s.byID[id]; id != "" && e != nil {
		e.rec = rec
		return
	}
	e := &entry{rec: rec}
	s.entries = append(s.entries, e)
	if id != "" {
		s.byID[id] = e
	}
}

// rewind takes back the message id and every later one, as /rewind does;
// when id is unknown the tool clears the whole session. Taken-back
// messages are kept, marked deleted.
func (s *session) rewind(id string) {
	from := 0
	if e := s.byID[id]; e != nil {
		for i, x := range s.entries {
			if x == e {
				from = i
				break
			}
		}
	}
	for _, e := range s.entries[from:] {
		if !e.deleted {
			e.deleted = true
			delete(s.byID, loose.String(e.rec.ID))
		}
	}
}

// parseSessionJSON reads a whole-session .json. It yields nothing when a
// .jsonl beside it has taken over the session (a resumed legacy session is
// copied whole into one).
func parseSessionJSON(ctx context.Context, path string, r io.Reader, source string) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rec record
	// A file torn by a crash while the tool rewrote it keeps the messages
	// written whole before the tear; the one it cut is dropped.
	torn, err := loose.UnmarshalMended(path, data, &rec, loose.PathIs("messages"))
	if err != nil {
		return nil, err
	}
	s := newSession(path, source)
	if torn != nil {
		var list []json.RawMessage
		if json.Unmarshal(rec.Messages, &list) != nil || len(list) == 0 {
			return nil, torn // nothing whole to keep
		}
		s.res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d complete messages", len(list))))
	}
	s.meta(&rec)
	if s.id == "" && loose.IsNull(rec.Messages) {
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no sessionId and no messages")
	}
	if st, err := os.Stat(path + "l"); err == nil && st.Mode().IsRegular() {
		return &s.res, nil // superseded by the .jsonl, which holds all of it
	}
	s.messages(rec.Messages, 0)
	return s.finish()
}

// parseSessionLog reads a Gemini session .jsonl.
func parseSessionLog(ctx context.Context, path string, r io.Reader, source string) (*parsers.Result, error) {
	s := newSession(path, source)
	var known int
	lines := loose.Lines{Path: path, Res: &s.res}
	err := loose.EachLine(ctx, path, r, func(n int, data []byte) {
		var rec record
		if !lines.Decode(n, data, &rec) {
			return
		}
		switch {
		case !loose.IsNull(rec.RewindTo):
			known++
			s.rewind(loose.String(rec.RewindTo))
		case !loose.IsNull(rec.Set):
			known++
			var set record
			if json.Unmarshal(rec.Set, &set) == nil {
				s.meta(&set)
				if !loose.IsNull(set.Messages) {
					// The whole history as the tool holds it now: each
					// message updates its own entry or is added; none
					// is removed.
					s.messages(set.Messages, n)
				}
			}
		case loose.String(rec.ID) != "" && loose.Lead(rec.ID) == '"':
			known++
			s.add(rec)
		case !loose.IsNull(rec.SessionID):
			known++
			s.meta(&rec)
		}
	})
	if err != nil {
		return nil, err
	}
	switch {
	case lines.Count() == 0:
		return &s.res, nil // created and not yet written to
	case known == 0 && lines.Unreadable() != nil:
		return nil, lines.Unreadable()
	case known == 0:
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no Gemini CLI record")
	}
	return s.finish()
}

// titleLen is the most runes a title derived from a prompt keeps.
const titleLen = 80

func (s *session) finish() (*parsers.Result, error) {
	c := &conversation.Conversation{
		Source:   s.source,
		File:     s.path,
		Messages: make([]conversation.Message, 0, len(s.entries)),
	}
	models := map[string]int{}
	var modelOrder []string
	for _, e := range s.entries {
		m, ok := message(&e.rec)
		if !ok {
			continue
		}
		m.Deleted = e.deleted
		m.Sidechain = s.kind == "subagent"
		if m.Role == conversation.RoleAssistant && m.Model != "" {
			if models[m.Model] == 0 {
				modelOrder = append(modelOrder, m.Model)
			}
			models[m.Model]++
		}
		c.Messages = append(c.Messages, m)
	}
	if len(c.Messages) == 0 {
		return &s.res, nil // a session created and left empty
	}
	c.Renumber()
	first, last := conversation.Span(c.Messages)
	c.Date, c.Updated = s.start, s.updated
	if c.Date.IsZero() || (!first.IsZero() && first.Before(c.Date)) {
		c.Date = first
	}
	if last.After(c.Updated) {
		c.Updated = last
	}
	c.ID = s.id
	if c.ID == "" {
		key := filepath.Base(s.path)
		if len(c.Messages) > 0 {
			key += "\x00" + c.Messages[0].ID
		}
		c.ID = conversation.NewID(key, c.Date)
	}
	if s.summary != "" {
		c.Title = oneLine(s.summary)
		c.Summaries = []string{s.summary}
	} else {
		c.Title = firstPrompt(c.Messages)
	}
	for _, m := range modelOrder {
		if models[m] > models[c.Model] {
			c.Model = m
		}
	}
	c.Project = project(s.path, s.dirs)
	for _, d := range s.dirs {
		c.Tags = append(c.Tags, "dir:"+d)
	}
	if s.kind == "subagent" {
		c.Tags = append(c.Tags, "subagent")
	}
	s.res.Conversations = append(s.res.Conversations, c)
	return &s.res, nil
}

// message turns a message record into a message. Records of a type it
// does not know are skipped.
func message(rec *record) (conversation.Message, bool) {
	m := conversation.Message{
		ID:        loose.String(rec.ID),
		Timestamp: loose.Time(rec.Timestamp),
		Model:     strings.TrimSpace(loose.String(rec.Model)),
	}
	switch typ := loose.String(rec.Type); typ {
	case "user":
		m.Role = conversation.RoleUser
	case "gemini", "model", "qwen", "assistant":
		m.Role = conversation.RoleAssistant
	case "info", "error", "warning":
		// The tool's own notices in the chat (a cancelled request, a quota
		// error): nothing the model or the person wrote.
		m.Role = conversation.RoleSystem
		m.Hidden = true
	default:
		return m, false
	}
	p := readParts(rec.Content)
	if len(p.text) == 0 && len(p.results) == 0 {
		p.text = readParts(rec.DisplayContent).text
	}
	m.Content = strings.Join(p.text, "\n\n")
	m.ToolCalls = p.calls
	m.ToolResults = p.results
	m.Attachments = p.attachments
	thinking := p.thinking
	thinking = append(thinking, thoughts(rec.Thoughts)...)
	m.Thinking = strings.Join(thinking, "\n\n")
	if m.Role == conversation.RoleUser && len(p.text) == 0 && len(p.results) > 0 {
		m.Role = conversation.RoleTool // function responses sent back as a user turn
	}
	if m.Role == conversation.RoleUser && injected(m.Content) {
		m.Hidden = true
	}
	calls(rec.ToolCalls, &m)
	if m.Role != conversation.RoleAssistant {
		m.Model = ""
	}
	return m, true
}

// thoughts reads a gemini message's thought summaries ({subject,
// description}).
func thoughts(raw json.RawMessage) []string {
	var list []struct {
		Subject     json.RawMessage `json:"subject"`
		Description json.RawMessage `json:"description"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []string
	for _, t := range list {
		subj := strings.TrimSpace(loose.String(t.Subject))
		desc := strings.TrimSpace(loose.Clean(loose.String(t.Description)))
		switch {
		case subj != "" && desc != "":
			out = append(out, subj+": "+desc)
		case subj != "" || desc != "":
			out = append(out, subj+desc)
		}
	}
	return out
}

// calls adds a gemini message's tool calls, with the result each holds.
func calls(raw json.RawMessage, m *conversation.Message) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return
	}
	for _, item := range list {
		var tc toolCall
		if json.Unmarshal(item, &tc) != nil {
			continue
		}
		id, name := loose.String(tc.ID), loose.String(tc.Name)
		m.ToolCalls = append(m.ToolCalls, conversation.ToolCall{ID: id, Name: name, Arguments: loose.Arguments(tc.Args)})
		status := loose.String(tc.Status)
		res := readParts(tc.Result)
		m.Attachments = append(m.Attachments, res.attachments...)
		if len(res.results) == 0 {
			text := strings.Join(res.text, "\n\n")
			if text == "" {
				// No result kept (a cancelled call, an older version): what
				// the tool showed is the next best thing.
				if loose.Lead(tc.ResultDisplay) == '"' {
					text = loose.Clean(loose.String(tc.ResultDisplay))
				}
			}
			if text == "" && status == "" {
				continue
			}
			res.results = []conversation.ToolResult{{Content: text}}
		}
		for _, r := range res.results {
			if r.CallID == "" {
				r.CallID = id
			}
			if r.Name == "" {
				r.Name = name
			}
			if status == "error" {
				r.IsError = true
			}
			m.ToolResults = append(m.ToolResults, r)
		}
	}
}

// reInjected matches the context Gemini CLI sends as a user turn on its
// own (the session's setup, a compression snapshot): not something a person
// typed.
var reInjected = regexp.MustCompile(`^(?:This is the Gemini CLI\. We are setting up the context|<session_context>|<state_snapshot>)`)

func injected(text string) bool { return reInjected.MatchString(strings.TrimSpace(text)) }

// firstPrompt derives a title from the first prompt a person typed.
func firstPrompt(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
			return loose.Title(m.Content, titleLen)
		}
	}
	for _, m := range msgs {
		if !m.Hidden && strings.TrimSpace(m.Content) != "" {
			return loose.Title(m.Content, titleLen)
		}
	}
	return ""
}

var reHex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// project is the session's project: the first workspace folder it names,
// else the project folder under tmp/ when newer versions name it (older
// ones use a hash, which says nothing).
func project(path string, dirs []string) string {
	if len(dirs) > 0 {
		if b := loose.ProjectName(dirs[0]); b != "" && b != "." {
			return b
		}
	}
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "chats" {
		dir = filepath.Dir(dir) // a sub-agent's chats/<parent>/
		if filepath.Base(dir) != "chats" {
			return ""
		}
	}
	name := filepath.Base(filepath.Dir(dir))
	if reHex64.MatchString(name) || name == "." || name == string(filepath.Separator) {
		return ""
	}
	return name
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
