package portable

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// rawConversation is a conversation file. Every field is raw: writers of this
// format disagree on types (null projects, ids as numbers).
type rawConversation struct {
	ID            json.RawMessage `json:"id"`
	Date          json.RawMessage `json:"date"`
	Title         json.RawMessage `json:"title"`
	Messages      json.RawMessage `json:"messages"`
	Metadata      json.RawMessage `json:"metadata"`
	Conversations json.RawMessage `json:"conversations"`
}

// rawMessage is one message: the spec's role, content and timestamp, the
// extra keys Marshal writes, and the aliases other writers use.
type rawMessage struct {
	Role        json.RawMessage `json:"role"`
	Sender      json.RawMessage `json:"sender"`
	Content     json.RawMessage `json:"content"`
	Text        json.RawMessage `json:"text"`
	Timestamp   json.RawMessage `json:"timestamp"`
	TS          json.RawMessage `json:"ts"`
	CreatedAt   json.RawMessage `json:"created_at"`
	ID          json.RawMessage `json:"id"`
	ParentID    json.RawMessage `json:"parent_id"`
	Model       json.RawMessage `json:"model"`
	Thinking    json.RawMessage `json:"thinking"`
	ToolCalls   json.RawMessage `json:"tool_calls"`
	ToolResults json.RawMessage `json:"tool_results"`
	Attachments json.RawMessage `json:"attachments"`
	Hidden      json.RawMessage `json:"hidden"`
	Cancelled   json.RawMessage `json:"cancelled"`
	Partial     json.RawMessage `json:"partial"`
	Deleted     json.RawMessage `json:"deleted"`
	Sidechain   json.RawMessage `json:"sidechain"`
	Branch      json.RawMessage `json:"branch"`
	Author      json.RawMessage `json:"author"`
	// Name and Speaker say who wrote a message where author does not: the
	// chat-completions "name" of a participant, a transcript's "speaker".
	Name    json.RawMessage `json:"name"`
	Speaker json.RawMessage `json:"speaker"`
}

type rawToolCall struct {
	ID        json.RawMessage `json:"id"`
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	// Function is the chat-completions shape {"function": {name, arguments}}.
	Function *struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type rawToolResult struct {
	CallID     json.RawMessage `json:"call_id"`
	ToolCallID json.RawMessage `json:"tool_call_id"`
	Name       json.RawMessage `json:"name"`
	Content    json.RawMessage `json:"content"`
	Output     json.RawMessage `json:"output"`
	IsError    json.RawMessage `json:"is_error"`
}

type rawAttachment struct {
	Name     json.RawMessage `json:"name"`
	FileName json.RawMessage `json:"file_name"`
	Type     json.RawMessage `json:"type"`
	MimeType json.RawMessage `json:"mime_type"`
	Size     json.RawMessage `json:"size"`
	Ref      json.RawMessage `json:"ref"`
	URL      json.RawMessage `json:"url"`
}

type rawDecision struct {
	Decision     json.RawMessage `json:"decision"`
	Rationale    json.RawMessage `json:"rationale"`
	Timestamp    json.RawMessage `json:"timestamp"`
	MessageIndex json.RawMessage `json:"message_index"`
	Origin       json.RawMessage `json:"origin"`
}

type rawArtifact struct {
	Type         json.RawMessage `json:"type"`
	Path         json.RawMessage `json:"path"`
	Title        json.RawMessage `json:"title"`
	Description  json.RawMessage `json:"description"`
	Content      json.RawMessage `json:"content"`
	MessageIndex json.RawMessage `json:"message_index"`
}

type rawNote struct {
	Kind  json.RawMessage `json:"kind"`
	Title json.RawMessage `json:"title"`
	Text  json.RawMessage `json:"text"`
	Time  json.RawMessage `json:"time"`
}

// checkEvery is how many messages pass between context checks.
const checkEvery = 256

func parse(ctx context.Context, path string, data []byte) (*parsers.Result, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' {
		var top json.RawMessage
		if err := loose.Unmarshal(path, data, &top); err != nil {
			return nil, err
		}
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "want one conversation object, got %s", loose.KindOf(top))
	}
	var rc rawConversation
	// A file cut short (a crash while it was written, a partial copy)
	// keeps the messages written whole before the tear; the one it cut is
	// dropped.
	torn, err := loose.UnmarshalMended(path, data, &rc, loose.PathIs("messages"))
	if err != nil {
		return nil, err
	}
	if torn != nil && rc.Messages == nil {
		return nil, torn // cut short before its messages
	}
	if rc.Messages == nil {
		if rc.Conversations != nil {
			return nil, parsers.Errorf(path, 1, parsers.ErrShape, "a manifest (index.json), not a conversation")
		}
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "no \"messages\": not a portable conversation")
	}
	if !loose.IsNull(rc.Messages) && rc.Messages[0] != '[' {
		return nil, parsers.Errorf(path, loose.LineAt(data, int64(bytes.Index(data, []byte(`"messages"`)))), parsers.ErrShape, "\"messages\" is %s, want an array", loose.KindOf(rc.Messages))
	}
	var raws []json.RawMessage
	if !loose.IsNull(rc.Messages) {
		if err := json.Unmarshal(rc.Messages, &raws); err != nil {
			return nil, parsers.Errorf(path, 0, parsers.ErrShape, "messages: %v", err)
		}
	}

	res := &parsers.Result{}
	c := &conversation.Conversation{Source: Name, File: path, Messages: make([]conversation.Message, 0, len(raws))}
	for i, raw := range raws {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m, ok, err := readMessage(raw)
		if err != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "message %d: %v", i, err))
		}
		if ok {
			c.Messages = append(c.Messages, m)
		}
	}
	c.Renumber()

	c.Title = strings.TrimSpace(loose.String(rc.Title))
	c.Date = loose.Time(rc.Date)
	readMetadata(path, rc.Metadata, c, res)

	first, last := conversation.Span(c.Messages)
	if c.Date.IsZero() {
		c.Date = first
	}
	if c.Updated.IsZero() {
		c.Updated = last
		if c.Updated.IsZero() || c.Updated.Before(c.Date) {
			c.Updated = c.Date
		}
	}
	if c.Title == "" {
		c.Title = DeriveTitle(c.Messages)
	}
	c.ID = strings.TrimSpace(loose.String(rc.ID))
	if c.ID == "" {
		// No id: derive one from what the file holds, never from its folder.
		key := "portable:" + filepath.Base(path) + "\n" + c.Title
		if len(c.Messages) > 0 {
			key += "\n" + c.Messages[0].Content
		}
		c.ID = conversation.NewID(key, c.Date)
	}
	if torn != nil {
		if len(c.Messages) == 0 {
			return nil, torn // nothing whole to keep
		}
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d complete messages", len(c.Messages))))
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// readMessage reads one message. ok is false for a message that holds
// nothing (null); err explains what was odd about it.
func readMessage(raw json.RawMessage) (m conversation.Message, ok bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return m, false, problem("null message skipped")
	}
	if raw[0] != '{' {
		// A bare value where a message object belongs: keep its text.
		m.Role = conversation.RoleAssistant
		m.Content = clean(contentText(raw))
		return m, true, problem("not an object: kept as an assistant message")
	}
	var rm rawMessage
	if err := json.Unmarshal(raw, &rm); err != nil {
		return m, false, err
	}
	role := rm.Role
	if loose.IsNull(role) {
		role = rm.Sender
	}
	m.Role = MapRole(loose.String(role))
	content := rm.Content
	if loose.IsNull(content) {
		content = rm.Text
	}
	m.Content = clean(contentText(content))
	m.Timestamp = firstTime(rm.Timestamp, rm.TS, rm.CreatedAt)
	m.ID = loose.String(rm.ID)
	m.ParentID = loose.String(rm.ParentID)
	m.Model = loose.String(rm.Model)
	m.Thinking = clean(contentText(rm.Thinking))
	m.ToolCalls = readToolCalls(rm.ToolCalls)
	m.ToolResults = readToolResults(rm.ToolResults)
	m.Attachments = readAttachments(rm.Attachments)
	m.Hidden = loose.Bool(rm.Hidden)
	m.Cancelled = loose.Bool(rm.Cancelled)
	m.Partial = loose.Bool(rm.Partial)
	m.Deleted = loose.Bool(rm.Deleted)
	m.Sidechain = loose.Bool(rm.Sidechain)
	m.Branch = loose.String(rm.Branch)
	m.Author = strings.TrimSpace(loose.String(rm.Author))
	if m.Author == "" && (m.Role == conversation.RoleUser || m.Role == conversation.RoleAssistant) {
		// A tool's message names the tool, not a person. A "name" or a
		// role that reads as a person's name ("role": "Caroline") says who
		// wrote the message; "gpt-4o" or "AI Assistant" does not.
		m.Author = cmp.Or(strings.TrimSpace(loose.String(rm.Speaker)), personName(rm.Name), personName(role))
	}
	return m, true, nil
}

type problem string

func (e problem) Error() string { return string(e) }

// personName returns the string raw holds when it reads as a person's
// name, else "".
func personName(raw json.RawMessage) string {
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '"' {
		return "" // a number or an object names nobody
	}
	if s := strings.TrimSpace(loose.String(raw)); conversation.PersonName(s) {
		return s
	}
	return ""
}

// MapRole maps a role or sender name onto a canonical role. Names it does not
// know become assistant, as the format's own importers do ("user" if the
// sender is Human, else "assistant").
func MapRole(s string) conversation.Role {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "user", "human", "you", "me", "prompt":
		return conversation.RoleUser
	case "system", "developer", "context":
		return conversation.RoleSystem
	case "tool", "function", "tool_result", "function_call_output", "ipython":
		return conversation.RoleTool
	}
	return conversation.RoleAssistant
}

// contentText flattens a content value: a string, an array of strings or
// {"text"} blocks, or an object with a text.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if loose.IsNull(raw) {
		return ""
	}
	switch raw[0] {
	case '[':
		var parts []json.RawMessage
		if json.Unmarshal(raw, &parts) != nil {
			return loose.String(raw)
		}
		var texts []string
		for _, p := range parts {
			if t := contentText(p); t != "" {
				texts = append(texts, t)
			}
		}
		return strings.Join(texts, "\n")
	case '{':
		var block struct {
			Text    json.RawMessage `json:"text"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &block) == nil {
			if !loose.IsNull(block.Text) {
				return contentText(block.Text)
			}
			if !loose.IsNull(block.Content) {
				return contentText(block.Content)
			}
		}
	}
	return loose.String(raw)
}

// exactText returns raw as text without treating {} or [] as nothing:
// tool arguments of {} must come back as "{}".
func exactText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '{', '[':
		if s, ok := loose.CompactJSON(raw); ok {
			return s
		}
	}
	return string(raw)
}

// clean drops inline base64 payloads; other text, data: prose included, is
// kept as written so exported conversations read back unchanged.
func clean(s string) string {
	if strings.Contains(s, ";base64,") {
		return loose.StripDataURLs(s)
	}
	return s
}

func firstTime(raws ...json.RawMessage) time.Time {
	for _, r := range raws {
		if t := loose.Time(r); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// list returns the elements of raw: an array, an array given as JSON text
// (as some writers store tool calls), or a single value as a list of one.
func list(raw json.RawMessage) []json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if loose.IsNull(raw) {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		inner := bytes.TrimSpace([]byte(s))
		if len(inner) == 0 || (inner[0] != '[' && inner[0] != '{') {
			return []json.RawMessage{raw}
		}
		raw = inner
	}
	if raw[0] != '[' {
		return []json.RawMessage{raw}
	}
	var out []json.RawMessage
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

func readToolCalls(raw json.RawMessage) []conversation.ToolCall {
	var out []conversation.ToolCall
	for _, r := range list(raw) {
		var rt rawToolCall
		if json.Unmarshal(r, &rt) != nil {
			out = append(out, conversation.ToolCall{Name: loose.String(r)})
			continue
		}
		tc := conversation.ToolCall{ID: loose.String(rt.ID), Name: loose.String(rt.Name)}
		args := rt.Arguments
		if args == nil {
			args = rt.Input
		}
		if rt.Function != nil {
			if tc.Name == "" {
				tc.Name = loose.String(rt.Function.Name)
			}
			if args == nil {
				args = rt.Function.Arguments
			}
		}
		// A string is kept as written (Marshal writes arguments that are not
		// compact JSON as a string); an object is compacted, its escapes
		// undone.
		tc.Arguments = clean(exactText(args))
		out = append(out, tc)
	}
	return out
}

func readToolResults(raw json.RawMessage) []conversation.ToolResult {
	var out []conversation.ToolResult
	for _, r := range list(raw) {
		var rt rawToolResult
		if json.Unmarshal(r, &rt) != nil {
			out = append(out, conversation.ToolResult{Content: clean(exactText(r))})
			continue
		}
		tr := conversation.ToolResult{
			CallID:  loose.String(rt.CallID),
			Name:    loose.String(rt.Name),
			IsError: loose.Bool(rt.IsError),
		}
		if tr.CallID == "" {
			tr.CallID = loose.String(rt.ToolCallID)
		}
		content := rt.Content
		if content == nil {
			content = rt.Output
		}
		tr.Content = clean(exactText(content))
		out = append(out, tr)
	}
	return out
}

func readAttachments(raw json.RawMessage) []conversation.Attachment {
	var out []conversation.Attachment
	for _, r := range list(raw) {
		var ra rawAttachment
		if json.Unmarshal(r, &ra) != nil {
			out = append(out, conversation.Attachment{Name: clean(loose.String(r))})
			continue
		}
		a := conversation.Attachment{Name: loose.String(ra.Name), Type: loose.String(ra.Type), Ref: loose.String(ra.Ref)}
		if a.Name == "" {
			a.Name = loose.String(ra.FileName)
		}
		if a.Type == "" {
			a.Type = loose.String(ra.MimeType)
		}
		if n, ok := loose.Int(ra.Size); ok && n > 0 {
			a.Size = n
		}
		if a.Ref == "" {
			a.Ref = loose.String(ra.URL)
		}
		// A payload is never kept: a data: URL leaves its type and size.
		if mt, size, ok := loose.DataURL(a.Ref); ok {
			a.Ref = ""
			if a.Type == "" {
				a.Type = mt
			}
			if a.Size == 0 {
				a.Size = size
			}
		}
		out = append(out, a)
	}
	return out
}

// field is one key of a JSON object, in file order.
type field struct {
	key string
	val json.RawMessage
}

// fields returns the keys of the object raw in the order written, so that
// the notes made of unknown keys come out in a stable, meaningful order.
func fields(raw json.RawMessage) ([]field, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out, false
		}
		out = append(out, field{key, v})
	}
	return out, true
}

// readMetadata fills c from the metadata object: the spec's keys, the extra
// keys Marshal writes, and any other key as a searchable note.
func readMetadata(path string, raw json.RawMessage, c *conversation.Conversation, res *parsers.Result) {
	if loose.IsNull(raw) {
		return
	}
	fs, ok := fields(raw)
	if !ok && len(fs) == 0 {
		res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "metadata is %s, want an object: ignored", loose.KindOf(raw)))
		return
	}
	var source, projectPath string
	for _, f := range fs {
		switch f.key {
		case "project":
			c.Project = strings.TrimSpace(loose.String(f.val))
		case "topics":
			c.Topics = append(c.Topics, readTopics(f.val, conversation.OriginExplicit)...)
		case "extracted_topics":
			c.Topics = append(c.Topics, readTopics(f.val, conversation.OriginExtracted)...)
		case "decisions":
			c.Decisions = append(c.Decisions, readDecisions(f.val, c.Messages)...)
		case "related_conversations":
			c.RelatedConversations = append(c.RelatedConversations, strs(f.val, "id")...)
		case "tags":
			c.Tags = append(c.Tags, strs(f.val, "name")...)
		case "artifacts":
			c.Artifacts = append(c.Artifacts, readArtifacts(f.val, len(c.Messages))...)
		case "source":
			source = strings.TrimSpace(loose.String(f.val))
		case "summaries", "summary":
			for _, s := range strs(f.val, "text") {
				c.Summaries = append(c.Summaries, clean(s))
			}
		case "notes":
			c.Notes = append(c.Notes, readNotes(f.val)...)
		case "model":
			c.Model = loose.String(f.val)
		case "updated":
			c.Updated = loose.Time(f.val)
		default:
			if f.key == "project_path" {
				projectPath = loose.String(f.val)
			}
			if text := clean(contentText(f.val)); text != "" {
				c.Notes = append(c.Notes, conversation.Note{Kind: "metadata", Title: f.key, Text: text})
			}
		}
	}
	if c.Project == "" && projectPath != "" {
		c.Project = lastElem(projectPath)
	}
	// The origin (q-cli, browser-chat, or the family convsearch first read it
	// with) is kept as a tag: Source names this parser.
	if source != "" {
		tag := "source:" + source
		if !contains(c.Tags, tag) {
			c.Tags = append(c.Tags, tag)
		}
	}
}

func readTopics(raw json.RawMessage, origin conversation.Origin) []conversation.Topic {
	var out []conversation.Topic
	for _, name := range strs(raw, "name") {
		out = append(out, conversation.Topic{Name: name, Origin: origin})
	}
	return out
}

// strs reads a list of names: strings, numbers, or objects holding key.
func strs(raw json.RawMessage, key string) []string {
	var out []string
	for _, r := range list(raw) {
		s := loose.String(r)
		if r[0] == '{' {
			var obj map[string]json.RawMessage
			if json.Unmarshal(r, &obj) == nil && obj[key] != nil {
				s = loose.String(obj[key])
			}
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func readDecisions(raw json.RawMessage, msgs []conversation.Message) []conversation.Decision {
	var out []conversation.Decision
	for _, r := range list(raw) {
		d := conversation.Decision{MessageIndex: -1, Origin: conversation.OriginExplicit}
		var rd rawDecision
		if r[0] != '{' || json.Unmarshal(r, &rd) != nil {
			d.Decision = strings.TrimSpace(loose.String(r))
		} else {
			d.Decision = strings.TrimSpace(loose.String(rd.Decision))
			// Read as it follows "because" wherever it is shown: a file's
			// "because the p99 …" would read "because because".
			d.Rationale = conversation.Reason(loose.String(rd.Rationale))
			d.Timestamp = loose.Time(rd.Timestamp)
			if loose.String(rd.Origin) == string(conversation.OriginExtracted) {
				d.Origin = conversation.OriginExtracted
			}
			d.MessageIndex = messageIndex(rd.MessageIndex, d.Timestamp, msgs)
		}
		if d.Decision == "" && d.Rationale == "" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// messageIndex is the message a decision was taken in: the index written by
// Marshal when it is in range, else the last message whose timestamp is
// exactly the decision's (the ecosystem stamps both with the same clock),
// else -1. No nearest-time guess: a decision may be logged long after.
func messageIndex(raw json.RawMessage, ts time.Time, msgs []conversation.Message) int {
	if n, ok := loose.Int(raw); ok && n >= -1 && n < int64(len(msgs)) {
		return int(n)
	}
	if ts.IsZero() {
		return -1
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Timestamp.Equal(ts) {
			return i
		}
	}
	return -1
}

func readArtifacts(raw json.RawMessage, nmsgs int) []conversation.Artifact {
	var out []conversation.Artifact
	for _, r := range list(raw) {
		a := conversation.Artifact{MessageIndex: -1}
		var ra rawArtifact
		if r[0] != '{' || json.Unmarshal(r, &ra) != nil {
			a.Path = loose.String(r)
		} else {
			a.Type = loose.String(ra.Type)
			a.Path = loose.String(ra.Path)
			a.Title = loose.String(ra.Title)
			a.Description = clean(loose.String(ra.Description))
			a.Content = clean(exactText(ra.Content))
			if n, ok := loose.Int(ra.MessageIndex); ok && n >= 0 && n < int64(nmsgs) {
				a.MessageIndex = int(n)
			}
		}
		if a == (conversation.Artifact{MessageIndex: a.MessageIndex}) {
			continue
		}
		out = append(out, a)
	}
	return out
}

func readNotes(raw json.RawMessage) []conversation.Note {
	var out []conversation.Note
	for _, r := range list(raw) {
		var rn rawNote
		if r[0] != '{' || json.Unmarshal(r, &rn) != nil {
			if t := clean(loose.String(r)); t != "" {
				out = append(out, conversation.Note{Kind: "note", Text: t})
			}
			continue
		}
		n := conversation.Note{
			Kind:  loose.String(rn.Kind),
			Title: loose.String(rn.Title),
			Text:  clean(exactText(rn.Text)),
			Time:  loose.Time(rn.Time),
		}
		if n.Kind == "" {
			n.Kind = "note"
		}
		out = append(out, n)
	}
	return out
}

// titleLen is how many characters of the first user message make a title.
const titleLen = 80

// DeriveTitle makes a title from the first user message (or the first
// message with text) for conversations that have none: the portable family
// and the browser exports it imports.
func DeriveTitle(msgs []conversation.Message) string {
	pick := ""
	for _, m := range msgs {
		if strings.TrimSpace(m.Content) == "" {
			continue
		}
		if m.Role == conversation.RoleUser {
			pick = m.Content
			break
		}
		if pick == "" {
			pick = m.Content
		}
	}
	t := strings.Join(strings.Fields(pick), " ")
	if utf8.RuneCountInString(t) <= titleLen {
		return t
	}
	r := []rune(t)
	return strings.TrimSpace(string(r[:titleLen-1])) + "…"
}

func lastElem(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
