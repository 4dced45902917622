package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// record is one line of a session log. Every field is raw so that a value of
// an unexpected type spoils only that field, never the line.
type record struct {
	Type             json.RawMessage `json:"type"`
	UUID             json.RawMessage `json:"uuid"`
	ParentUUID       json.RawMessage `json:"parentUuid"`
	SessionID        json.RawMessage `json:"sessionId"`
	Timestamp        json.RawMessage `json:"timestamp"`
	Cwd              json.RawMessage `json:"cwd"`
	GitBranch        json.RawMessage `json:"gitBranch"`
	IsSidechain      json.RawMessage `json:"isSidechain"`
	IsMeta           json.RawMessage `json:"isMeta"`
	IsCompactSummary json.RawMessage `json:"isCompactSummary"`
	Message          json.RawMessage `json:"message"`
	// system records
	Content json.RawMessage `json:"content"`
	Subtype json.RawMessage `json:"subtype"`
	Error   json.RawMessage `json:"error"`
	// summary, custom-title, ai-title, file-history-snapshot records
	Summary     json.RawMessage `json:"summary"`
	LeafUUID    json.RawMessage `json:"leafUuid"`
	CustomTitle json.RawMessage `json:"customTitle"`
	AITitle     json.RawMessage `json:"aiTitle"`
	Snapshot    json.RawMessage `json:"snapshot"`
}

// apiMessage is the Anthropic API message a user or assistant record holds.
type apiMessage struct {
	ID      json.RawMessage `json:"id"`
	Role    json.RawMessage `json:"role"`
	Model   json.RawMessage `json:"model"`
	Content json.RawMessage `json:"content"`
}

// draft is a message being built: an assistant reply gathers the content
// blocks of every line that shares its message.id.
type draft struct {
	m        conversation.Message
	text     []string
	thinking []string
	callIDs  map[string]bool
}

type summary struct{ text, leaf string }

// builder gathers one session log's records into a conversation.
type builder struct {
	path string
	res  parsers.Result

	drafts  []*draft
	byAPIID map[string]*draft // message.id → the reply it belongs to
	// alias maps the uuid of a line that is not a message of its own (a
	// merged reply line, a progress record) to the id its children should
	// point at instead, so ParentID always names a message where it can.
	alias map[string]string
	// seen holds, for each uuid of a message record, a hash of each
	// distinct record read under it: the same record written twice is read
	// once, two different records that share a uuid are both kept.
	seen      map[string][]uint64
	uuids     map[string]bool // the uuid of every record, for summaries' leaves
	toolNames map[string]string

	sessionID  string          // the last one seen
	sessionIDs map[string]bool // all seen
	cwd        string
	branch     string
	models     map[string]int
	modelOrder []string

	summaries   []summary
	customTitle string
	aiTitle     string
	files       []string
	fileSeen    map[string]bool
	filesTime   time.Time

	lines loose.Lines // the lines read, and those that could not be
	known int         // lines recognised as Claude Code records
}

func parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b := &builder{
		path:       path,
		byAPIID:    map[string]*draft{},
		alias:      map[string]string{},
		seen:       map[string][]uint64{},
		uuids:      map[string]bool{},
		toolNames:  map[string]string{},
		sessionIDs: map[string]bool{},
		models:     map[string]int{},
		fileSeen:   map[string]bool{},
	}
	b.lines = loose.Lines{Path: path, Res: &b.res}
	if err := loose.EachLine(ctx, path, r, b.line); err != nil {
		return nil, err
	}
	return b.finish()
}

func (b *builder) line(n int, data []byte) {
	var rec record
	if !b.lines.Decode(n, data, &rec) {
		return
	}
	if id := loose.String(rec.UUID); id != "" {
		b.uuids[id] = true
	}
	typ := loose.String(rec.Type)
	switch typ {
	case "user", "assistant":
		b.known++
		b.chat(typ, &rec)
	case "system":
		b.known++
		b.system(&rec)
	case "summary":
		b.known++
		if s := strings.TrimSpace(loose.String(rec.Summary)); s != "" {
			b.summaries = append(b.summaries, summary{text: s, leaf: loose.String(rec.LeafUUID)})
		}
	case "custom-title":
		b.known++
		if s := strings.TrimSpace(loose.String(rec.CustomTitle)); s != "" {
			b.customTitle = s
		}
	case "ai-title":
		b.known++
		if s := strings.TrimSpace(loose.String(rec.AITitle)); s != "" {
			b.aiTitle = s
		}
	case "file-history-snapshot":
		b.known++
		b.snapshot(rec.Snapshot)
	default:
		// progress, queue-operation, agent-name and types to come: no
		// message of their own (a queued prompt comes back as a user record).
		if !loose.IsNull(rec.SessionID) || !loose.IsNull(rec.UUID) {
			b.known++
		}
		if id := loose.String(rec.UUID); id != "" && len(b.seen[id]) == 0 {
			b.alias[id] = loose.String(rec.ParentUUID)
		}
	}
}

// common reads what every message record carries. dup is true for a
// record already read: same uuid, type and content.
func (b *builder) common(rec *record) (uuid string, ts time.Time, dup bool) {
	uuid = loose.String(rec.UUID)
	if uuid != "" {
		h := sameness(rec)
		if slices.Contains(b.seen[uuid], h) {
			return uuid, ts, true
		}
		b.seen[uuid] = append(b.seen[uuid], h)
	}
	if sid := loose.String(rec.SessionID); sid != "" {
		b.sessionID = sid
		b.sessionIDs[sid] = true
	}
	if b.cwd == "" {
		b.cwd = strings.TrimSpace(loose.String(rec.Cwd))
	}
	if b.branch == "" {
		b.branch = strings.TrimSpace(loose.String(rec.GitBranch))
	}
	return uuid, loose.Time(rec.Timestamp), false
}

// sameness hashes what makes two records with one uuid the same record:
// their type and content, not when or in which session they were written.
func sameness(rec *record) uint64 {
	h := fnv.New64a()
	for _, part := range [][]byte{rec.Type, rec.Message, rec.Content, rec.Subtype, rec.Error, rec.IsSidechain} {
		h.Write(bytes.TrimSpace(part))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func (b *builder) chat(typ string, rec *record) {
	uuid, ts, dup := b.common(rec)
	if dup {
		return
	}
	var msg apiMessage
	if loose.Lead(rec.Message) == '{' {
		_ = json.Unmarshal(rec.Message, &msg) // a bad field leaves it raw-empty
	} else {
		msg.Content = rec.Message // a bare string or array
	}
	c := readContent(msg.Content)

	if typ == "assistant" {
		apiID := loose.String(msg.ID)
		if d := b.byAPIID[apiID]; apiID != "" && d != nil {
			// The next part of a reply already begun.
			d.add(c)
			if d.m.Model == "" {
				d.m.Model = model(msg.Model)
			}
			if d.m.Timestamp.IsZero() {
				d.m.Timestamp = ts
			}
			if uuid != "" && uuid != d.m.ID {
				b.alias[uuid] = d.m.ID
			}
			return
		}
		d := b.newDraft(rec, uuid, ts, conversation.RoleAssistant)
		if d.m.ID == "" {
			d.m.ID = apiID
		}
		d.m.Model = model(msg.Model)
		d.add(c)
		if apiID != "" {
			b.byAPIID[apiID] = d
		}
		return
	}

	role := conversation.RoleUser
	if len(c.results) > 0 && len(c.text) == 0 && c.own == 0 {
		role = conversation.RoleTool
	}
	// A slash command given arguments is what the person typed: read as
	// "/name args". Without arguments (/model, /clear) it stays Claude
	// Code's own echo.
	command := false
	if len(c.text) == 1 {
		if typed, ok := slashCommand(c.text[0]); ok {
			c.text[0], command = typed, true
		}
	}
	d := b.newDraft(rec, uuid, ts, role)
	d.add(c)
	if loose.Bool(rec.IsCompactSummary) {
		d.m.Hidden = true
		if s := strings.TrimSpace(strings.Join(c.text, "\n\n")); s != "" {
			b.summaries = append(b.summaries, summary{text: s})
		}
	}
	if role == conversation.RoleUser && (loose.Bool(rec.IsMeta) || (!command && injected(c.text))) {
		d.m.Hidden = true
	}
}

func (b *builder) newDraft(rec *record, uuid string, ts time.Time, role conversation.Role) *draft {
	d := &draft{m: conversation.Message{
		ID:        uuid,
		ParentID:  loose.String(rec.ParentUUID),
		Role:      role,
		Timestamp: ts,
		Sidechain: loose.Bool(rec.IsSidechain),
	}}
	b.drafts = append(b.drafts, d)
	return d
}

// system records (API errors, compaction boundaries, local command output)
// are Claude Code's own notes: kept, as hidden system messages.
func (b *builder) system(rec *record) {
	uuid, ts, dup := b.common(rec)
	if dup {
		return
	}
	d := b.newDraft(rec, uuid, ts, conversation.RoleSystem)
	d.m.Hidden = true
	text := loose.Clean(loose.String(rec.Content))
	if text == "" {
		text = loose.String(rec.Subtype)
		if e := loose.String(rec.Error); e != "" {
			text = strings.TrimSpace(text + ": " + e)
		}
	}
	if text != "" {
		d.text = append(d.text, text)
	}
}

// snapshot records which files Claude Code backed up before changing them.
func (b *builder) snapshot(raw json.RawMessage) {
	var s struct {
		Files     map[string]json.RawMessage `json:"trackedFileBackups"`
		Timestamp json.RawMessage            `json:"timestamp"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return
	}
	names := make([]string, 0, len(s.Files))
	for name := range s.Files {
		names = append(names, name)
	}
	slices.Sort(names) // map order is random; output must not be
	for _, name := range names {
		if name != "" && !b.fileSeen[name] {
			b.fileSeen[name] = true
			b.files = append(b.files, name)
		}
	}
	if t := loose.Time(s.Timestamp); t.After(b.filesTime) {
		b.filesTime = t
	}
}

func (d *draft) add(c content) {
	d.text = append(d.text, c.text...)
	d.thinking = append(d.thinking, c.thinking...)
	for _, tc := range c.calls {
		if tc.ID != "" {
			if d.callIDs[tc.ID] {
				continue // a block written again by a later line
			}
			if d.callIDs == nil {
				d.callIDs = map[string]bool{}
			}
			d.callIDs[tc.ID] = true
		}
		d.m.ToolCalls = append(d.m.ToolCalls, tc)
	}
	d.m.ToolResults = append(d.m.ToolResults, c.results...)
	d.m.Attachments = append(d.m.Attachments, c.attachments...)
}

// model returns the model name, without the "<synthetic>" Claude Code puts
// on replies it wrote itself (errors, "No response requested.").
func model(raw json.RawMessage) string {
	m := strings.TrimSpace(loose.String(raw))
	if m == "<synthetic>" {
		return ""
	}
	return m
}

func (b *builder) finish() (*parsers.Result, error) {
	if b.known == 0 {
		switch {
		case b.lines.Count() == 0:
			return &b.res, nil // a blank file: a session just created
		case b.lines.Unreadable() != nil:
			return nil, b.lines.Unreadable() // not one line could be read
		}
		return nil, parsers.Errorf(b.path, 0, parsers.ErrShape, "no Claude Code record")
	}
	if len(b.drafts) == 0 {
		return &b.res, nil // only snapshots or summaries: no conversation
	}

	c := &conversation.Conversation{
		Source:   Name,
		File:     b.path,
		Messages: make([]conversation.Message, 0, len(b.drafts)),
	}
	for _, d := range b.drafts {
		m := d.m
		m.Content = strings.Join(nonEmpty(d.text), "\n\n")
		m.Thinking = strings.Join(nonEmpty(d.thinking), "\n\n")
		m.ParentID = b.resolve(m.ParentID)
		for i := range m.ToolResults {
			if m.ToolResults[i].Name == "" {
				m.ToolResults[i].Name = b.toolName(m.ToolResults[i].CallID)
			}
		}
		if m.Role == conversation.RoleAssistant && m.Model != "" {
			if b.models[m.Model] == 0 {
				b.modelOrder = append(b.modelOrder, m.Model)
			}
			b.models[m.Model]++
		}
		if !m.Timestamp.IsZero() {
			if c.Date.IsZero() || m.Timestamp.Before(c.Date) {
				c.Date = m.Timestamp
			}
			if m.Timestamp.After(c.Updated) {
				c.Updated = m.Timestamp
			}
		}
		c.Messages = append(c.Messages, m)
	}
	c.Renumber()

	c.ID = b.id(c)
	c.Title = b.title(c.Messages)
	c.Project = project(b.cwd)
	c.Model = b.mainModel()
	if b.cwd != "" {
		c.Tags = append(c.Tags, "cwd:"+b.cwd)
	}
	if b.branch != "" {
		c.Tags = append(c.Tags, "branch:"+b.branch)
	}
	for _, s := range b.summaries {
		if b.own(s) {
			c.Summaries = append(c.Summaries, s.text)
		}
	}
	if len(b.files) > 0 {
		c.Notes = append(c.Notes, conversation.Note{
			Kind:  "file_change",
			Title: "files changed in the session",
			Text:  strings.Join(b.files, "\n"),
			Time:  b.filesTime,
		})
	}
	b.res.Conversations = append(b.res.Conversations, c)
	return &b.res, nil
}

// id is the session id: the file's own name when it is one of the session
// ids inside (a resumed session may carry its predecessor's id on copied
// lines), else the last one seen. A sub-agent log (agent-<id>.jsonl) shares
// its parent session's id, so its name is added to stay unique.
func (b *builder) id(c *conversation.Conversation) string {
	base := filepath.Base(b.path)
	base = base[:len(base)-len(filepath.Ext(base))]
	id := b.sessionID
	if b.sessionIDs[base] {
		id = base
	}
	if strings.HasPrefix(base, "agent-") && id != base {
		if id == "" {
			return base
		}
		return id + "/" + base
	}
	if id == "" {
		key := base
		if len(c.Messages) > 0 {
			key += "\x00" + c.Messages[0].ID + "\x00" + c.Messages[0].Content
		}
		id = conversation.NewID(key, c.Date)
	}
	return id
}

// own reports whether a summary is this session's: a compaction summary, or
// a summary line whose leafUuid names a record of this file. Claude Code
// also writes into the newest file summary lines of other sessions (the
// ones a resumed session continues, the ones /resume listed): those are
// neither this session's title nor its summaries.
func (b *builder) own(s summary) bool {
	return s.leaf == "" || b.uuids[s.leaf]
}

// title is, in order: the name the user gave (/rename), the title Claude
// Code generated, the last summary line of this session's own records, and
// the first prompt a person typed. A sub-agent's prompt was written by the
// model, not the person: never the title, unless the file is that
// sub-agent's own log (agent-<id>.jsonl, every message a sidechain).
func (b *builder) title(msgs []conversation.Message) string {
	if b.customTitle != "" {
		return oneLine(b.customTitle)
	}
	if b.aiTitle != "" {
		return oneLine(b.aiTitle)
	}
	for i := len(b.summaries) - 1; i >= 0; i-- {
		if s := b.summaries[i]; s.leaf != "" && b.own(s) {
			return oneLine(s.text)
		}
	}
	main := slices.ContainsFunc(msgs, func(m conversation.Message) bool { return !m.Sidechain })
	usable := func(m conversation.Message) bool {
		return !m.Hidden && !(main && m.Sidechain) && strings.TrimSpace(m.Content) != ""
	}
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && usable(m) {
			return loose.Title(m.Content, titleLen)
		}
	}
	for _, m := range msgs {
		if usable(m) {
			return loose.Title(m.Content, titleLen)
		}
	}
	return ""
}

// resolve follows aliases from a parent uuid to the message standing for it.
func (b *builder) resolve(id string) string {
	for hops := 0; hops < 64; hops++ {
		next, ok := b.alias[id]
		if !ok || next == id {
			return id
		}
		id = next
	}
	return id
}

func (b *builder) toolName(callID string) string {
	if callID == "" {
		return ""
	}
	if n, ok := b.toolNames[callID]; ok {
		return n
	}
	for _, d := range b.drafts {
		for _, tc := range d.m.ToolCalls {
			if tc.ID != "" {
				b.toolNames[tc.ID] = tc.Name
			}
		}
	}
	n := b.toolNames[callID]
	b.toolNames[callID] = n // remember misses too
	return n
}

func (b *builder) mainModel() string {
	best := ""
	for _, m := range b.modelOrder {
		if b.models[m] > b.models[best] {
			best = m
		}
	}
	return best
}

// project is the folder the session ran in; for a git worktree checked out
// under <repo>/.worktrees/<name> it is the repository's folder.
func project(cwd string) string {
	parts := strings.FieldsFunc(cwd, func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return ""
	}
	if n := len(parts); n >= 3 && (parts[n-2] == ".worktrees" || parts[n-2] == "worktrees") {
		return parts[n-3]
	}
	return parts[len(parts)-1]
}

func nonEmpty(ss []string) []string {
	out := ss[:0:0]
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}
