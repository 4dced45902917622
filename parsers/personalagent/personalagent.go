// Package personalagent reads the conversation store of PersonalAgent: one
// append-only `YYYYMMDDHHMMSS###.jsonl` file of messages per conversation,
// with its metadata (title, dates, context summary) in a companion
// `<same>.meta.json`.
package personalagent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Name is the family name, used as Conversation.Source.
const Name = "personalagent"

const (
	msgExt  = ".jsonl"
	metaExt = ".meta.json"
	// maxMetaSize bounds the companion read: the spec calls it "small JSON".
	maxMetaSize = 16 << 20
)

var (
	// fileName is the spec's YYYYMMDDHHMMSS### (a creation time in UTC and a
	// three-digit suffix; the shipped app wrote milliseconds there).
	fileName = regexp.MustCompile(`^(\d{14})(\d{3})\.jsonl$`)
	// roleKey finds a message's role in the head without decoding it: the
	// first line may be longer than the head.
	roleKey = regexp.MustCompile(`"role"\s*:\s*"[A-Za-z_ -]{1,32}"`)
	// contentFirst is a message line written with its content before its
	// role, which may then lie beyond the head.
	contentFirst = regexp.MustCompile(`^\{\s*"content"\s*:`)
	// defaultTitle matches the titles the app gives a new conversation
	// ("New 2025-01-21 19:30", or the bare file stamp): they say nothing, so
	// the first user message stands in for them.
	defaultTitle = regexp.MustCompile(`^(New \d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?|\d{17})$`)
)

// Parser reads PersonalAgent conversations.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
)

// New returns a PersonalAgent parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "PersonalAgent conversations: YYYYMMDDHHMMSS###.jsonl messages with a .meta.json companion (title, dates, context summary)",
		Detection:   "file named YYYYMMDDHHMMSS###.jsonl whose first JSON object line, past leading NUL bytes and lines that are not JSON objects, has a \"role\" (or opens with \"content\"), or an empty file, as a new conversation is; the .meta.json is read as a companion, never on its own",
		Locations: []string{
			"~/Library/Application Support/PersonalAgent/conversations",
			"$XDG_DATA_HOME/PersonalAgent/conversations (~/.local/share/PersonalAgent/conversations)",
			"%LOCALAPPDATA%\\PersonalAgent\\conversations",
		},
		Version: 4, // 4: records after a torn record on its line read
	}
}

// DefaultRoots returns where the app keeps conversations: Rust's
// dirs::data_local_dir() joined with PersonalAgent/conversations, for each OS.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	roots := []string{filepath.Join(home, "Library", "Application Support", "PersonalAgent", "conversations")}
	if x := getenv("XDG_DATA_HOME"); x != "" {
		roots = append(roots, filepath.Join(x, "PersonalAgent", "conversations"))
	} else {
		roots = append(roots, filepath.Join(home, ".local", "share", "PersonalAgent", "conversations"))
	}
	if l := getenv("LOCALAPPDATA"); l != "" {
		roots = append(roots, filepath.Join(l, "PersonalAgent", "conversations"))
	}
	return roots
}

// Companions returns the .meta.json beside a .jsonl.
func (*Parser) Companions(path string) []string {
	if !strings.HasSuffix(path, msgExt) {
		return nil
	}
	return []string{metaPath(path)}
}

func metaPath(path string) string { return strings.TrimSuffix(path, msgExt) + metaExt }

// IsFileName reports whether name (a base name) is one PersonalAgent gives
// its conversations, YYYYMMDDHHMMSS###.jsonl, for families whose records
// look like its own to leave such files to it.
func IsFileName(name string) bool { return fileName.MatchString(name) }

// Detect claims YYYYMMDDHHMMSS###.jsonl files whose first record is a
// message, past leading damage (NUL bytes, a torn or garbage line) that
// Parse then skips with a warning. The .meta.json never matches: the name
// must end in .jsonl.
func (*Parser) Detect(path string, head []byte) bool {
	if !fileName.MatchString(filepath.Base(path)) {
		return false
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")))) == 0 {
		return true // a conversation created and not yet written to
	}
	line := jsonhead.FirstObjectLine(head)
	return len(line) > 0 && (roleKey.Match(line) || contentFirst.Match(line))
}

// meta is the .meta.json companion.
type meta struct {
	ID           json.RawMessage `json:"id"`
	Title        json.RawMessage `json:"title"`
	CreatedAt    json.RawMessage `json:"created_at"`
	UpdatedAt    json.RawMessage `json:"updated_at"`
	MessageCount json.RawMessage `json:"message_count"`
	ContextState json.RawMessage `json:"context_state"`
	Model        json.RawMessage `json:"model_id"`
}

type contextState struct {
	Strategy json.RawMessage `json:"strategy"`
	Summary  json.RawMessage `json:"summary"`
}

// line is one message line of the .jsonl. Field names of the spec first,
// then the ones the shipped app wrote.
type line struct {
	Role            json.RawMessage `json:"role"`
	Content         json.RawMessage `json:"content"`
	TS              json.RawMessage `json:"ts"`
	Timestamp       json.RawMessage `json:"timestamp"`
	CreatedAt       json.RawMessage `json:"created_at"`
	ModelID         json.RawMessage `json:"model_id"`
	Model           json.RawMessage `json:"model"`
	Thinking        json.RawMessage `json:"thinking"`
	ThinkingContent json.RawMessage `json:"thinking_content"`
	ToolCalls       json.RawMessage `json:"tool_calls"`
	ToolResults     json.RawMessage `json:"tool_results"`
	Cancelled       json.RawMessage `json:"cancelled"`
	ID              json.RawMessage `json:"id"`
}

// Parse reads the .jsonl at path line by line and its .meta.json companion.
// Malformed lines are skipped with a warning, as the app itself does.
func (p *Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	res := &parsers.Result{}
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, msgExt)
	c := &conversation.Conversation{
		ID:       stem,
		Source:   Name,
		File:     path,
		Messages: []conversation.Message{},
	}
	if stem == "" {
		c.ID = conversation.NewID(base, time.Time{})
	}
	var dates []time.Time
	if m := fileName.FindStringSubmatch(base); m != nil {
		if t, err := time.Parse("20060102150405", m[1]); err == nil {
			dates = append(dates, t)
		}
	}

	// Lines skips NUL bytes a crash left before a record, with a warning,
	// and warns of the lines that are not JSON objects.
	lines := loose.Lines{Path: path, Res: res}
	var firstErr error
	err := loose.EachLine(ctx, path, r, func(lineNo int, raw []byte) {
		var l line
		if !lines.Decode(lineNo, raw, &l) {
			return
		}
		msg, err := readLine(path, lineNo, &l)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			res.Warn(err)
			return
		}
		c.Messages = append(c.Messages, msg)
	})
	if err != nil {
		return nil, err
	}
	// A file with lines, none of which is a message, is not this format.
	if lines.Count() > 0 && len(c.Messages) == 0 {
		if err := lines.Unreadable(); err != nil {
			return nil, err
		}
		return nil, firstErr
	}

	md, err := readMeta(path)
	if err != nil {
		res.Warn(err)
	}
	applyMeta(c, md, &dates)

	for _, m := range c.Messages {
		if !m.Timestamp.IsZero() {
			dates = append(dates, m.Timestamp)
		}
	}
	for _, t := range dates {
		if c.Date.IsZero() || t.Before(c.Date) {
			c.Date = t
		}
		if t.After(c.Updated) {
			c.Updated = t
		}
	}
	if c.Model == "" {
		c.Model = mainModel(c.Messages)
	}
	if c.Title == "" || defaultTitle.MatchString(c.Title) {
		if t := firstUserText(c.Messages); t != "" {
			c.Title = t
		}
	}
	c.Renumber()
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// readLine turns line n, read as a JSON object, into a message.
func readLine(path string, n int, l *line) (conversation.Message, error) {
	if l.Role == nil && l.Content == nil && l.ToolCalls == nil && l.ToolResults == nil {
		return conversation.Message{}, parsers.Errorf(path, n, parsers.ErrShape, "line has no role, content or tool fields, skipped")
	}
	m := conversation.Message{
		ID:        loose.String(l.ID),
		Content:   loose.StripDataURLs(flatten(l.Content)),
		Model:     firstString(l.ModelID, l.Model),
		Thinking:  loose.StripDataURLs(firstText(l.Thinking, l.ThinkingContent)),
		Cancelled: loose.Bool(l.Cancelled),
	}
	for _, raw := range []json.RawMessage{l.TS, l.Timestamp, l.CreatedAt} {
		if t := loose.Time(raw); !t.IsZero() {
			m.Timestamp = t.UTC()
			break
		}
	}
	m.Attachments = attachments(l.Content)
	m.ToolCalls = toolCalls(l.ToolCalls)
	m.ToolResults = toolResults(l.ToolResults)
	m.Role = role(loose.String(l.Role), &m)
	// The system prompt is the app's instruction, not shown in the chat.
	m.Hidden = m.Role == conversation.RoleSystem
	return m, nil
}

// role maps the line's role onto a canonical one; with none, the fields the
// message carries tell.
func role(s string, m *conversation.Message) conversation.Role {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "user", "human":
		return conversation.RoleUser
	case "assistant", "ai", "model", "bot":
		return conversation.RoleAssistant
	case "system", "developer":
		return conversation.RoleSystem
	case "tool", "function", "tool_result":
		return conversation.RoleTool
	}
	switch {
	case len(m.ToolResults) > 0:
		return conversation.RoleTool
	case s == "" && m.Model == "" && len(m.ToolCalls) == 0 && m.Thinking == "":
		return conversation.RoleUser
	}
	// Any other speaker is the app's side of the conversation.
	return conversation.RoleAssistant
}

// toolCalls reads tool_calls given as an array or as JSON text holding one:
// [{id, name, arguments}] per the spec, with the OpenAI {function: {name,
// arguments}} nesting accepted too.
func toolCalls(raw json.RawMessage) []conversation.ToolCall {
	var items []json.RawMessage
	if !decodeList(raw, &items) {
		return nil
	}
	var out []conversation.ToolCall
	for _, it := range items {
		var tc struct {
			ID       json.RawMessage `json:"id"`
			CallID   json.RawMessage `json:"call_id"`
			Name     json.RawMessage `json:"name"`
			Args     json.RawMessage `json:"arguments"`
			Input    json.RawMessage `json:"input"`
			Function *struct {
				Name json.RawMessage `json:"name"`
				Args json.RawMessage `json:"arguments"`
			} `json:"function"`
		}
		if json.Unmarshal(it, &tc) != nil {
			// Not an object: keep what it says as the call's name.
			if s := loose.String(it); s != "" {
				out = append(out, conversation.ToolCall{Name: loose.StripDataURLs(s)})
			}
			continue
		}
		call := conversation.ToolCall{
			ID:        firstString(tc.ID, tc.CallID),
			Name:      loose.String(tc.Name),
			Arguments: arguments(tc.Args, tc.Input),
		}
		if tc.Function != nil {
			if call.Name == "" {
				call.Name = loose.String(tc.Function.Name)
			}
			if call.Arguments == "" {
				call.Arguments = arguments(tc.Function.Args)
			}
		}
		out = append(out, call)
	}
	return out
}

// arguments returns the first non-empty of raws as JSON text, unwrapping JSON
// encoded inside a string.
func arguments(raws ...json.RawMessage) string {
	for _, raw := range raws {
		if s := loose.String(raw); s != "" {
			return loose.StripDataURLs(loose.JSONText(s))
		}
	}
	return ""
}

// toolResults reads tool_results given as an array or as JSON text holding
// one: [{tool_call_id, content, is_error}].
func toolResults(raw json.RawMessage) []conversation.ToolResult {
	var items []json.RawMessage
	if !decodeList(raw, &items) {
		return nil
	}
	var out []conversation.ToolResult
	for _, it := range items {
		var tr struct {
			ToolCallID json.RawMessage `json:"tool_call_id"`
			CallID     json.RawMessage `json:"call_id"`
			ID         json.RawMessage `json:"id"`
			Name       json.RawMessage `json:"name"`
			Content    json.RawMessage `json:"content"`
			Output     json.RawMessage `json:"output"`
			IsError    json.RawMessage `json:"is_error"`
		}
		if json.Unmarshal(it, &tr) != nil {
			if s := loose.String(it); s != "" {
				out = append(out, conversation.ToolResult{Content: loose.StripDataURLs(s)})
			}
			continue
		}
		content := resultText(tr.Content)
		if content == "" {
			content = resultText(tr.Output)
		}
		out = append(out, conversation.ToolResult{
			CallID:  firstString(tr.ToolCallID, tr.CallID, tr.ID),
			Name:    loose.String(tr.Name),
			Content: loose.StripDataURLs(loose.JSONText(content)),
			IsError: loose.Bool(tr.IsError),
		})
	}
	return out
}

// decodeList decodes raw as a JSON array, or as a string holding one (the
// shipped app wrote tool fields as JSON text). A single object counts as a
// list of one.
func decodeList(raw json.RawMessage, items *[]json.RawMessage) bool {
	if loose.IsNull(raw) {
		return false
	}
	t := bytes.TrimSpace(raw)
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) != nil {
			return false
		}
		t = bytes.TrimSpace([]byte(s))
		if loose.IsNull(t) {
			return false
		}
	}
	switch t[0] {
	case '[':
		return json.Unmarshal(t, items) == nil && len(*items) > 0
	case '{':
		*items = []json.RawMessage{json.RawMessage(t)}
		return true
	}
	return false
}

// flatten returns the text of a content value: a string, an array of strings
// or {text} blocks, or any other JSON as its compact text.
func flatten(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		if len(t) > 0 && t[0] == '{' {
			var b map[string]json.RawMessage
			if json.Unmarshal(t, &b) == nil {
				if text, ok := b["text"]; ok {
					return loose.String(text)
				}
				if _, ok := blockAttachment(b); ok {
					return "" // described in Attachments
				}
			}
		}
		return loose.String(t)
	}
	var parts []json.RawMessage
	if json.Unmarshal(t, &parts) != nil {
		return loose.String(t)
	}
	var texts []string
	for _, p := range parts {
		if s := flatten(p); s != "" {
			texts = append(texts, s)
		}
	}
	return strings.Join(texts, "\n")
}

// resultText is a tool output as text: a string or blocks flattened, any
// other object kept whole as compact JSON.
func resultText(raw json.RawMessage) string {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
		return loose.String(t)
	}
	return flatten(raw)
}

// attachments describes the inline files of a content given as blocks: their
// name, type and size, never the payload.
func attachments(raw json.RawMessage) []conversation.Attachment {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		return nil
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(t, &blocks) != nil {
		return nil
	}
	var out []conversation.Attachment
	for _, b := range blocks {
		if a, ok := blockAttachment(b); ok {
			out = append(out, a)
		}
	}
	return out
}

// blockAttachment describes a content block holding an inline file (a data:
// URL under source, url, image_url, data or file, maybe nested in {url}).
func blockAttachment(b map[string]json.RawMessage) (conversation.Attachment, bool) {
	for _, k := range []string{"source", "url", "image_url", "data", "file"} {
		v := b[k]
		var nested struct {
			URL json.RawMessage `json:"url"`
		}
		if bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) && json.Unmarshal(v, &nested) == nil {
			v = nested.URL
		}
		if mt, size, ok := loose.DataURL(loose.String(v)); ok {
			return conversation.Attachment{
				Name: firstString(b["name"], b["filename"], b["file_name"]),
				Type: mt,
				Size: size,
			}, true
		}
	}
	return conversation.Attachment{}, false
}

func firstString(raws ...json.RawMessage) string {
	for _, raw := range raws {
		if s := loose.String(raw); s != "" {
			return s
		}
	}
	return ""
}

func firstText(raws ...json.RawMessage) string {
	for _, raw := range raws {
		if s := flatten(raw); s != "" {
			return s
		}
	}
	return ""
}

// readMeta reads the companion of path. A missing companion is no error; a
// malformed one is returned (naming both files) for the caller to warn about.
func readMeta(path string) (*meta, error) {
	var md meta
	found, err := loose.ReadSideFile(metaPath(path), maxMetaSize, &md)
	if err != nil {
		return nil, parsers.Wrap(path, 0, fmt.Errorf("companion ignored: %w", err))
	}
	if !found {
		return nil, nil
	}
	return &md, nil
}

// applyMeta copies what the companion says onto c.
func applyMeta(c *conversation.Conversation, md *meta, dates *[]time.Time) {
	if md == nil {
		return
	}
	c.Title = strings.TrimSpace(loose.String(md.Title))
	if t := loose.Time(md.CreatedAt); !t.IsZero() {
		*dates = append(*dates, t.UTC())
	}
	if t := loose.Time(md.UpdatedAt); !t.IsZero() {
		*dates = append(*dates, t.UTC())
	}
	c.Model = loose.String(md.Model)
	var cs contextState
	if !loose.IsNull(md.ContextState) && json.Unmarshal(md.ContextState, &cs) == nil {
		if s := strings.TrimSpace(loose.StripDataURLs(flatten(cs.Summary))); s != "" {
			c.Summaries = append(c.Summaries, s)
		}
	}
}

// mainModel is the model that wrote most assistant messages (the first seen
// on a tie): the app records it per message, not per conversation.
func mainModel(msgs []conversation.Message) string {
	count := map[string]int{}
	best := ""
	for _, m := range msgs {
		if m.Model == "" {
			continue
		}
		count[m.Model]++
		if count[m.Model] > count[best] {
			best = m.Model
		}
	}
	return best
}

// firstUserText is the first user message, whitespace collapsed and cut to
// about 80 characters, for conversations with no title of their own.
func firstUserText(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role != conversation.RoleUser {
			continue
		}
		if t := loose.Shorten(m.Content, 80); t != "" {
			return t
		}
	}
	return ""
}
