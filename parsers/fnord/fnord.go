// Package fnord reads the conversations fnord keeps per project under
// ~/.fnord/projects/<project>/conversations/<uuid>.json: the v1 JSON object
// ({version, timestamp, messages, metadata, memory, tasks}) and the legacy v0
// `<unix_seconds>:<json>` shape. Messages mix chat-completions and Responses
// API shapes; memories and task lists become notes.
package fnord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/google/uuid"
)

// Name is the family name, used as Conversation.Source.
const Name = "fnord"

// v0Head is the legacy `<unix_seconds>:` prefix followed by a JSON object.
var v0Head = regexp.MustCompile(`^\d{1,19}:\s*\{`)

// Parser reads fnord conversations.
type Parser struct{}

var (
	_ parsers.Parser  = (*Parser)(nil)
	_ parsers.Locator = (*Parser)(nil)
)

// New returns a fnord parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "fnord conversations (v1 JSON and legacy v0 <unix_seconds>:<json>) with their memories and task lists",
		Detection:   "v0: content starting with <digits>:{ and a fnord key (memory, messages, metadata, tasks) or a <uuid>.json name; v1: a JSON object named <uuid>.json with a memory, tasks or version key in the first bytes, or any JSON object whose first bytes hold messages, memory and tasks",
		Locations:   []string{"~/.fnord/projects/<project>/conversations"},
		Version:     3, // 3: Copilot Chat sessions named <uuid>.json left to copilot-vscode, so they are detected again
	}
}

// DefaultRoots returns fnord's project store.
func (*Parser) DefaultRoots(home string, _ func(string) string) []string {
	return []string{filepath.Join(home, ".fnord", "projects")}
}

// Detect recognises v0 by its numeric prefix and v1 by its keys. Keys are
// written in sorted order (memory first), so with large memories or messages
// the distinctive ones may lie beyond the head: the <uuid>.json name then
// vouches for the file.
func (*Parser) Detect(path string, head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	named := uuidName(filepath.Base(path))
	if v0Head.Match(head) {
		keys := jsonhead.Scan(head[bytes.IndexByte(head, '{'):])
		return named || keys.Anywhere("messages", "memory", "metadata", "tasks")
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	keys := jsonhead.Scan(t)
	if named {
		// Copilot's VS Code sessions are <uuid>.json too, with a version:
		// their requests and sessionId at the root are not fnord's.
		return keys.Anywhere("memory", "tasks", "version") && !keys.Has("", "requests", "sessionId")
	}
	return keys.Anywhere("messages") && keys.Anywhere("memory") && keys.Anywhere("tasks")
}

// file is the top-level object, v0 and v1 alike.
type file struct {
	Version   json.RawMessage `json:"version"`
	Timestamp json.RawMessage `json:"timestamp"`
	Messages  json.RawMessage `json:"messages"`
	Metadata  json.RawMessage `json:"metadata"`
	Memory    json.RawMessage `json:"memory"`
	Tasks     json.RawMessage `json:"tasks"`
}

// Parse reads one conversation file.
func (p *Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	body := data
	var stamp time.Time
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] >= '0' && t[0] <= '9' {
		// v0: `<unix_seconds>:<json>`.
		prefix, rest, ok := bytes.Cut(data, []byte(":"))
		secs, perr := strconv.ParseInt(string(bytes.TrimSpace(prefix)), 10, 64)
		if !ok || perr != nil {
			return nil, parsers.Errorf(path, 1, parsers.ErrSyntax, "neither a v1 JSON object nor a v0 <unix_seconds>:<json> file")
		}
		stamp = loose.Epoch(float64(secs))
		body = rest
	}
	var f file
	// A file cut short (a crash while fnord rewrote it, a partial copy)
	// keeps the messages written whole before the tear; the one it cut is
	// dropped.
	torn, err := loose.UnmarshalMended(path, body, &f, loose.PathIs("messages"))
	if err != nil {
		return nil, err
	}
	if torn != nil && f.Messages == nil {
		return nil, torn // cut short before its messages
	}
	if f.Messages == nil && f.Memory == nil && f.Tasks == nil && f.Version == nil {
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no messages, memory, tasks or version: not a fnord conversation")
	}
	if t := loose.Time(f.Timestamp); !t.IsZero() {
		stamp = t
	}

	res := &parsers.Result{}
	base := filepath.Base(path)
	c := &conversation.Conversation{
		ID:      strings.TrimSuffix(base, filepath.Ext(base)),
		Source:  Name,
		File:    path,
		Date:    stamp,
		Updated: stamp,
		Project: project(path),
		// An empty list rather than null, for a conversation with none yet.
		Messages: []conversation.Message{},
	}
	if c.ID == "" {
		c.ID = conversation.NewID(string(data), stamp)
	}

	items, err := list(f.Messages)
	if err != nil {
		return nil, parsers.Wrap(path, 0, fmt.Errorf("%w: messages: %v", parsers.ErrShape, err))
	}
	names := callNames(items)
	for i, raw := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, ok := message(raw, names)
		if !ok {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "message %d is neither an object nor text, skipped", i))
			continue
		}
		c.Messages = append(c.Messages, m)
	}

	readMetadata(c, f.Metadata)
	readMemory(path, c, f.Memory, res)
	readTasks(path, c, f.Tasks, res)

	if c.Title == "" {
		c.Title = firstUserText(c.Messages)
	}
	c.Renumber()
	if torn != nil {
		if len(c.Messages) == 0 {
			return nil, torn // nothing whole to keep
		}
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d complete messages", len(c.Messages))))
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// project is the <project> of a path .../projects/<project>/conversations/<file>.
func project(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "conversations" {
		return ""
	}
	proj := filepath.Dir(dir)
	if filepath.Base(filepath.Dir(proj)) != "projects" {
		return ""
	}
	if name := filepath.Base(proj); name != "." && name != string(filepath.Separator) {
		return name
	}
	return ""
}

// list decodes raw as a JSON array; nothing-shapes are an empty list.
func list(raw json.RawMessage) ([]json.RawMessage, error) {
	if loose.IsNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("not a list")
	}
	return items, nil
}

// item holds every field any message shape has.
type item struct {
	Type       json.RawMessage `json:"type"`
	Role       json.RawMessage `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       json.RawMessage `json:"name"`
	CallID     json.RawMessage `json:"call_id"`
	ID         json.RawMessage `json:"id"`
	Arguments  json.RawMessage `json:"arguments"`
	Output     json.RawMessage `json:"output"`
	ToolCalls  json.RawMessage `json:"tool_calls"`
	ToolCallID json.RawMessage `json:"tool_call_id"`
	Summary    json.RawMessage `json:"summary"`
	Text       json.RawMessage `json:"text"`
	Model      json.RawMessage `json:"model"`
}

type legacyCall struct {
	ID       json.RawMessage `json:"id"`
	Name     json.RawMessage `json:"name"`
	Args     json.RawMessage `json:"arguments"`
	Function struct {
		Name json.RawMessage `json:"name"`
		Args json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// callNames maps call ids to tool names, from function_call items and legacy
// tool_calls, so an output can name the tool it came from.
func callNames(items []json.RawMessage) map[string]string {
	names := map[string]string{}
	for _, raw := range items {
		var it item
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		if loose.String(it.Type) == "function_call" {
			if id := firstString(it.CallID, it.ID); id != "" {
				names[id] = loose.String(it.Name)
			}
		}
		for _, lc := range legacyCalls(it.ToolCalls) {
			if id := loose.String(lc.ID); id != "" {
				names[id] = firstString(lc.Function.Name, lc.Name)
			}
		}
	}
	return names
}

func legacyCalls(raw json.RawMessage) []legacyCall {
	if loose.IsNull(raw) {
		return nil
	}
	var calls []legacyCall
	if json.Unmarshal(raw, &calls) == nil {
		return calls
	}
	// One call not wrapped in a list.
	var one legacyCall
	if json.Unmarshal(raw, &one) == nil {
		return []legacyCall{one}
	}
	return nil
}

// message turns one item of `messages` into a message. A function_call item
// becomes an assistant message holding the call; a function_call_output or
// tool-role item a tool message holding the result, named after its call; a
// reasoning item an assistant message with only Thinking (its encrypted
// payload is dropped).
func message(raw json.RawMessage, names map[string]string) (conversation.Message, bool) {
	var it item
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		// A bare string item: text with no speaker, kept rather than lost.
		if s := loose.StripDataURLs(loose.String(t)); s != "" {
			return conversation.Message{Role: conversation.RoleAssistant, Content: s}, true
		}
	}
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &it) != nil {
		return conversation.Message{}, false
	}
	typ := strings.ToLower(loose.String(it.Type))
	roleName := strings.ToLower(strings.TrimSpace(loose.String(it.Role)))
	m := conversation.Message{Model: loose.String(it.Model)}
	switch {
	case typ == "function_call":
		m.Role = conversation.RoleAssistant
		m.ToolCalls = []conversation.ToolCall{{
			ID:        firstString(it.CallID, it.ID),
			Name:      loose.String(it.Name),
			Arguments: arguments(it.Arguments),
		}}
	case typ == "function_call_output", roleName == "tool", roleName == "function":
		id := firstString(it.CallID, it.ToolCallID)
		name := loose.String(it.Name)
		if name == "" {
			name = names[id]
		}
		out := text(it.Output)
		if out == "" {
			out = text(it.Content)
		}
		m.Role = conversation.RoleTool
		m.ToolResults = []conversation.ToolResult{{CallID: id, Name: name, Content: loose.JSONText(out)}}
	case typ == "reasoning":
		m.Role = conversation.RoleAssistant
		m.Thinking = text(it.Summary)
		if m.Thinking == "" {
			m.Thinking = text(it.Content)
		}
	default:
		m.Role = role(roleName)
		m.Content = text(it.Content)
		m.Attachments = attachments(it.Content)
		if m.Content == "" {
			m.Content = text(it.Text)
		}
		m.Hidden = m.Role == conversation.RoleSystem // instructions fnord injects
		for _, lc := range legacyCalls(it.ToolCalls) {
			m.ToolCalls = append(m.ToolCalls, conversation.ToolCall{
				ID:        loose.String(lc.ID),
				Name:      firstString(lc.Function.Name, lc.Name),
				Arguments: arguments(lc.Function.Args, lc.Args),
			})
		}
		if roleName == "" && m.Content == "" && len(m.ToolCalls) == 0 && len(m.Attachments) == 0 {
			// A shape we do not know: keep its JSON so nothing is lost.
			m.Content = loose.StripDataURLs(loose.String(raw))
		}
	}
	return m, true
}

// role maps fnord's roles onto canonical ones.
func role(s string) conversation.Role {
	switch s {
	case "user", "human":
		return conversation.RoleUser
	case "system", "developer":
		return conversation.RoleSystem
	case "tool", "function":
		return conversation.RoleTool
	}
	return conversation.RoleAssistant
}

// arguments returns tool arguments as JSON text, whether written as text
// (the canonical form) or as a decoded object (a legacy v0 shape).
func arguments(raws ...json.RawMessage) string {
	for _, raw := range raws {
		if s := loose.String(raw); s != "" {
			return loose.StripDataURLs(loose.JSONText(s))
		}
	}
	return ""
}

// text flattens a content value: a string, or a list of parts ({type:
// input_text|output_text|summary_text, text}); file and image parts are
// left to attachments.
func text(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return ""
	}
	switch t[0] {
	case '[':
		var parts []json.RawMessage
		if json.Unmarshal(t, &parts) != nil {
			break
		}
		var out []string
		for _, p := range parts {
			if s := text(p); s != "" {
				out = append(out, s)
			}
		}
		return strings.Join(out, "\n")
	case '{':
		var p struct {
			Text json.RawMessage `json:"text"`
		}
		if json.Unmarshal(t, &p) != nil {
			break
		}
		if p.Text != nil {
			return loose.StripDataURLs(loose.String(p.Text))
		}
		if _, ok := partAttachment(t); ok {
			return "" // described in Attachments
		}
	}
	return loose.StripDataURLs(loose.String(t))
}

// partAttachment describes an input_image or input_file part: its name,
// type and size, or where it lives; never its payload.
func partAttachment(raw json.RawMessage) (conversation.Attachment, bool) {
	var p struct {
		Type     json.RawMessage `json:"type"`
		ImageURL json.RawMessage `json:"image_url"`
		FileData json.RawMessage `json:"file_data"`
		FileID   json.RawMessage `json:"file_id"`
		FileName json.RawMessage `json:"filename"`
	}
	if json.Unmarshal(raw, &p) != nil || (p.ImageURL == nil && p.FileData == nil && p.FileID == nil) {
		return conversation.Attachment{}, false
	}
	url := loose.String(p.ImageURL)
	var nested struct {
		URL json.RawMessage `json:"url"`
	}
	if json.Unmarshal(p.ImageURL, &nested) == nil {
		url = loose.String(nested.URL)
	}
	if url == "" {
		url = loose.String(p.FileData)
	}
	a := conversation.Attachment{Name: loose.String(p.FileName), Type: loose.String(p.Type)}
	if mt, size, ok := loose.DataURL(url); ok {
		a.Type, a.Size = mt, size
	} else if url != "" && len(url) < 2048 {
		a.Ref = url
	} else if id := loose.String(p.FileID); id != "" {
		a.Ref = id
	}
	return a, true
}

// attachments lists the file parts of a content value.
func attachments(raw json.RawMessage) []conversation.Attachment {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		return nil
	}
	var parts []json.RawMessage
	if json.Unmarshal(t, &parts) != nil {
		return nil
	}
	var out []conversation.Attachment
	for _, p := range parts {
		if a, ok := partAttachment(p); ok {
			out = append(out, a)
		}
	}
	return out
}

func firstString(raws ...json.RawMessage) string {
	for _, raw := range raws {
		if s := loose.String(raw); s != "" {
			return s
		}
	}
	return ""
}

// readMetadata takes the few metadata keys with a meaning here. fnord keeps
// the map free-form; nothing in it is required.
func readMetadata(c *conversation.Conversation, raw json.RawMessage) {
	if loose.IsNull(raw) {
		return
	}
	var md struct {
		Title json.RawMessage `json:"title"`
		Model json.RawMessage `json:"model"`
	}
	if json.Unmarshal(raw, &md) != nil {
		return
	}
	c.Title = loose.Shorten(loose.String(md.Title), 200)
	c.Model = loose.String(md.Model)
}

// memory is one entry of `memory`; embeddings are deliberately not decoded.
type memory struct {
	Scope      json.RawMessage `json:"scope"`
	Title      json.RawMessage `json:"title"`
	Slug       json.RawMessage `json:"slug"`
	Content    json.RawMessage `json:"content"`
	Topics     json.RawMessage `json:"topics"`
	InsertedAt json.RawMessage `json:"inserted_at"`
	UpdatedAt  json.RawMessage `json:"updated_at"`
}

// readMemory turns memories into notes of kind "memory", and their topics
// into explicit conversation topics: fnord's agent wrote them while the
// conversation ran.
func readMemory(path string, c *conversation.Conversation, raw json.RawMessage, res *parsers.Result) {
	items, err := list(raw)
	if err != nil {
		res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "memory is not a list, ignored"))
		return
	}
	seen := map[string]bool{}
	for i, it := range items {
		var mem memory
		if json.Unmarshal(it, &mem) != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "memory %d is not an object, ignored", i))
			continue
		}
		title := strings.TrimSpace(firstString(mem.Title, mem.Slug))
		body := strings.TrimSpace(text(mem.Content))
		topics := topicList(mem.Topics)
		if len(topics) > 0 {
			body = strings.TrimSpace(body + "\nTopics: " + strings.Join(topics, ", "))
		}
		if scope := loose.String(mem.Scope); scope != "" && title != "" {
			title = scope + ": " + title
		}
		if title == "" && body == "" {
			continue
		}
		when := loose.Time(mem.UpdatedAt)
		if when.IsZero() {
			when = loose.Time(mem.InsertedAt)
		}
		c.Notes = append(c.Notes, conversation.Note{Kind: "memory", Title: title, Text: body, Time: when})
		for _, t := range topics {
			if k := strings.ToLower(t); !seen[k] {
				seen[k] = true
				c.Topics = append(c.Topics, conversation.Topic{Name: t, Origin: conversation.OriginExplicit})
			}
		}
	}
}

// topicList reads topics given as a list of strings or one comma-separated
// string.
func topicList(raw json.RawMessage) []string {
	if loose.IsNull(raw) {
		return nil
	}
	var parts []string
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		for _, it := range list {
			parts = append(parts, loose.String(it))
		}
	} else {
		parts = strings.Split(loose.String(raw), ",")
	}
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "data:") {
			out = append(out, p)
		}
	}
	return out
}

// readTasks turns task lists into notes of kind "task", one per list, one
// line per task. `tasks` is {list_id: {description, status, tasks: [...]}},
// {list_id: [...]} (the legacy bare list) or a bare list.
func readTasks(path string, c *conversation.Conversation, raw json.RawMessage, res *parsers.Result) {
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return
	}
	switch t[0] {
	case '[':
		addTaskList(c, "", "", "", t)
	case '{':
		kvs, err := members(t)
		if err != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "tasks unreadable, ignored: %v", err))
			return
		}
		for _, kv := range kvs {
			v := bytes.TrimSpace(kv.value)
			if len(v) > 0 && v[0] == '{' {
				var l struct {
					Description json.RawMessage `json:"description"`
					Status      json.RawMessage `json:"status"`
					Tasks       json.RawMessage `json:"tasks"`
				}
				if json.Unmarshal(v, &l) == nil {
					addTaskList(c, kv.key, text(l.Description), loose.String(l.Status), l.Tasks)
					continue
				}
			}
			addTaskList(c, kv.key, "", "", v)
		}
	default:
		res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "tasks is neither a map nor a list, ignored"))
	}
}

func addTaskList(c *conversation.Conversation, id, desc, status string, raw json.RawMessage) {
	var lines []string
	if desc != "" {
		lines = append(lines, desc)
	}
	items, _ := list(raw)
	for _, it := range items {
		var tk struct {
			ID      json.RawMessage `json:"id"`
			Data    json.RawMessage `json:"data"`
			Outcome json.RawMessage `json:"outcome"`
			Status  json.RawMessage `json:"status"`
			Result  json.RawMessage `json:"result"`
		}
		if json.Unmarshal(it, &tk) != nil {
			if s := text(it); s != "" {
				lines = append(lines, "- "+s)
			}
			continue
		}
		var b strings.Builder
		b.WriteString("- ")
		if o := firstString(tk.Outcome, tk.Status); o != "" {
			fmt.Fprintf(&b, "[%s] ", o)
		}
		if tid := loose.String(tk.ID); tid != "" {
			b.WriteString(tid)
			b.WriteString(": ")
		}
		b.WriteString(text(tk.Data))
		if r := text(tk.Result); r != "" {
			b.WriteString(" → ")
			b.WriteString(r)
		}
		lines = append(lines, strings.TrimSpace(b.String()))
	}
	if len(lines) == 0 {
		return
	}
	title := id
	if status != "" {
		title = strings.TrimSpace(title + " (" + status + ")")
	}
	c.Notes = append(c.Notes, conversation.Note{Kind: "task", Title: title, Text: strings.Join(lines, "\n")})
}

type member struct {
	key   string
	value json.RawMessage
}

// members returns an object's members in file order (a Go map would lose
// the order of task lists).
func members(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key: key, value: v})
	}
	return out, nil
}

// firstUserText is fnord's "question": the first user message, cut to about
// 80 characters for a title.
func firstUserText(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser {
			if t := loose.Shorten(m.Content, 80); t != "" {
				return t
			}
		}
	}
	return ""
}

// uuidName reports whether base is how fnord names a conversation file:
// <uuid>.json, the uuid in its 36-character form.
func uuidName(base string) bool {
	id, ok := strings.CutSuffix(strings.ToLower(base), ".json")
	return ok && len(id) == 36 && uuid.Validate(id) == nil
}
