// Package claudeai reads the conversations.json of a claude.ai data export
// (Settings → Privacy → Export data): an array of conversations, each with
// its chat_messages. One conversation object given alone is read too.
//
// What real exports do that a reader must undo: chat_messages are not in time
// order and two messages can share a timestamp, so messages are put in time
// order, ties kept in file order; older exports hold only a message's text,
// where assistant replies embed <antThinking> and <antArtifact> markup, while
// newer ones add content blocks (text, thinking, tool_use, tool_result) that
// repeat the text, so the blocks are read when present and the text
// otherwise, never both; newer exports link each message to its parent
// (parent_message_uuid), which keeps the branches left by edited prompts and
// retried replies.
package claudeai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Name is the family name, used as Conversation.Source.
const Name = "claude-ai"

// rootParent is the parent_message_uuid claude.ai gives a conversation's
// first messages: it names no message.
const rootParent = "00000000-0000-4000-8000-000000000000"

// Parser reads claude.ai exports.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns a claude.ai export parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "claude.ai data export (conversations.json): conversations with their chat_messages, artifacts, thinking, tool use and attachments",
		Detection:   `a JSON array or object whose first bytes hold a "chat_messages" key, or "uuid" with "sender" (a message), with "account" and "created_at", or first in an array's object before "name" (a conversation cut before its messages); never a ChatGPT "mapping"`,
		Locations:   []string{"conversations.json in the zip claude.ai mails from Settings → Privacy → Export data"},
		Version:     3, // 3: a torn export keeps the complete messages of the conversation the tear went through
	}
}

// Detect recognises a claude.ai export by its marker keys. A ChatGPT export
// (its "mapping" tree) is never claimed.
func (*Parser) Detect(path string, head []byte) bool {
	// The keys may sit in one conversation object, in an array of them or
	// in their messages: any depth counts.
	s := jsonhead.Scan(head)
	if s.Root != '[' && s.Root != '{' {
		return false
	}
	if s.Anywhere("mapping", "current_node") {
		return false
	}
	if s.Anywhere("chat_messages") {
		return true
	}
	if !s.Anywhere("uuid") {
		return false
	}
	// A head cut before chat_messages (a long summary comes first in newer
	// exports): an array of objects that open with "uuid", with a "name".
	first, _ := s.First("[]")
	return s.Anywhere("sender") || (s.Anywhere("account") && s.Anywhere("created_at")) ||
		(s.Root == '[' && first == "uuid" && s.Anywhere("name"))
}

// Parse reads every conversation of the export, one at a time.
func (p *Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	res := &parsers.Result{}
	base := filepath.Base(path)
	// An export cut short keeps, of the conversation the tear went
	// through, the messages written whole before it.
	torn := loose.Mended[rawConversation]{
		Unit: loose.PathIs("chat_messages"),
		Keep: func(i, line int, rc *rawConversation) string {
			c := rc.convert(path, base, i)
			if c == nil || len(c.Messages) == 0 {
				return ""
			}
			res.AddUnique(c, path, line)
			return fmt.Sprintf("the %d complete messages of conversation %s", len(c.Messages), c.ID)
		},
	}
	err := loose.DecodeEachMended(ctx, path, r, res, func(i, line int, rc *rawConversation) {
		c := rc.convert(path, base, i)
		if c == nil {
			res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "element %d is not a claude.ai conversation (no uuid, name or chat_messages): skipped", i))
			return
		}
		res.AddUnique(c, path, line)
	}, torn)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// rawConversation is one conversation as exported. Loose fields are kept raw
// and read with package loose.
type rawConversation struct {
	UUID        json.RawMessage `json:"uuid"`
	Name        json.RawMessage `json:"name"`
	Summary     json.RawMessage `json:"summary"`
	CreatedAt   json.RawMessage `json:"created_at"`
	UpdatedAt   json.RawMessage `json:"updated_at"`
	Model       json.RawMessage `json:"model"`
	Project     json.RawMessage `json:"project"`
	CurrentLeaf json.RawMessage `json:"current_leaf_message_uuid"`
	Messages    []rawMessage    `json:"chat_messages"`
}

type rawMessage struct {
	UUID        json.RawMessage       `json:"uuid"`
	Text        json.RawMessage       `json:"text"`
	Content     blocks                `json:"content"`
	Sender      json.RawMessage       `json:"sender"`
	CreatedAt   json.RawMessage       `json:"created_at"`
	Parent      json.RawMessage       `json:"parent_message_uuid"`
	Attachments looseList[attachment] `json:"attachments"`
	Files       looseList[file]       `json:"files"`
	FilesV2     looseList[file]       `json:"files_v2"`
}

type attachment struct {
	FileName         json.RawMessage `json:"file_name"`
	FileSize         json.RawMessage `json:"file_size"`
	FileType         json.RawMessage `json:"file_type"`
	ExtractedContent json.RawMessage `json:"extracted_content"`
}

type file struct {
	FileName json.RawMessage `json:"file_name"`
	FileKind json.RawMessage `json:"file_kind"`
	FileUUID json.RawMessage `json:"file_uuid"`
}

// block is one content block of a newer export's message.
type block struct {
	Type      json.RawMessage `json:"type"`
	Text      json.RawMessage `json:"text"`
	Thinking  json.RawMessage `json:"thinking"`
	Summaries json.RawMessage `json:"summaries"`
	ID        json.RawMessage `json:"id"`
	Name      json.RawMessage `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID json.RawMessage `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   json.RawMessage `json:"is_error"`
	Source    json.RawMessage `json:"source"`
	Title     json.RawMessage `json:"title"`
	URL       json.RawMessage `json:"url"`
}

// blocks is a message's content: an array of blocks, or a bare string taken
// as one text block; anything else is no content. A block that is not an
// object is left out.
type blocks []block

func (b *blocks) UnmarshalJSON(data []byte) error {
	*b = nil
	switch {
	case len(data) > 0 && data[0] == '"':
		*b = blocks{{Type: json.RawMessage(`"text"`), Text: data}}
	case len(data) > 0 && data[0] == '[':
		return ignoreType(json.Unmarshal(data, (*[]block)(b)))
	}
	return nil
}

// looseList is a JSON array of T where writers sometimes put null, {} or a
// single object: those read as no element and one element.
type looseList[T any] []T

func (l *looseList[T]) UnmarshalJSON(data []byte) error {
	*l = nil
	switch {
	case loose.IsNull(data):
	case data[0] == '[':
		return ignoreType(json.Unmarshal(data, (*[]T)(l)))
	case data[0] == '{':
		var v T
		if json.Unmarshal(data, &v) == nil {
			*l = looseList[T]{v}
		}
	}
	return nil
}

// ignoreType drops type errors: json fills in what it can around them, and
// a misshapen side field is no reason to lose a message.
func ignoreType(err error) error {
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return nil
	}
	return err
}

// convert builds the canonical conversation, or nil when rc holds nothing of
// a claude.ai conversation.
func (rc *rawConversation) convert(path, base string, index int) *conversation.Conversation {
	id := loose.String(rc.UUID)
	name := strings.TrimSpace(loose.String(rc.Name))
	if id == "" && name == "" && len(rc.Messages) == 0 {
		return nil
	}
	c := &conversation.Conversation{
		Source:  Name,
		File:    path,
		Title:   name,
		Date:    loose.Time(rc.CreatedAt),
		Updated: loose.Time(rc.UpdatedAt),
		Model:   loose.String(rc.Model),
	}
	if s := strings.TrimSpace(loose.String(rc.Summary)); s != "" {
		c.Summaries = []string{s}
	}
	if len(rc.Project) > 0 && rc.Project[0] == '{' {
		var p struct{ Name json.RawMessage }
		if json.Unmarshal(rc.Project, &p) == nil {
			c.Project = loose.String(p.Name)
		}
	}

	// Messages in time order, each with its own text (without its
	// attachments, for the title) and the artifacts its tool calls made.
	var items []item
	for i := range rc.Messages {
		if rc.Messages[i].isZero() {
			continue // not an object: json reported it, nothing to keep
		}
		items = append(items, rc.Messages[i].convert())
	}
	items = permute(items, timeOrder(items))
	msgs := make([]conversation.Message, len(items))
	for i, it := range items {
		msgs[i] = it.msg
		msgs[i].Index = i
		if it.msg.Role == conversation.RoleAssistant {
			c.Artifacts = append(c.Artifacts, pullMarkup(&msgs[i])...)
		}
		for _, a := range it.artifacts {
			a.MessageIndex = i
			c.Artifacts = append(c.Artifacts, a)
		}
	}
	markBranches(msgs, loose.String(rc.CurrentLeaf))
	c.Messages = msgs
	c.Renumber()

	for _, m := range msgs {
		if m.Timestamp.IsZero() {
			continue
		}
		if c.Date.IsZero() || m.Timestamp.Before(c.Date) {
			c.Date = m.Timestamp
		}
		if m.Timestamp.After(c.Updated) {
			c.Updated = m.Timestamp
		}
	}
	for i, m := range msgs {
		if c.Title != "" {
			break
		}
		if m.Role == conversation.RoleUser {
			c.Title = loose.Shorten(firstNonEmpty(items[i].text, m.Content), 80)
		}
	}
	c.ID = id
	if c.ID == "" {
		// No uuid: key on what the file says, never on where it is.
		key := base + "\x00" + strconv.Itoa(index) + "\x00" + name + "\x00" + loose.String(rc.CreatedAt)
		if len(msgs) > 0 {
			key += "\x00" + msgs[0].ID + "\x00" + msgs[0].Content
		}
		c.ID = conversation.NewID(key, c.Date)
	}
	return c
}

func (rm *rawMessage) isZero() bool {
	return rm.UUID == nil && rm.Text == nil && rm.Content == nil && rm.Sender == nil &&
		rm.CreatedAt == nil && rm.Attachments == nil && rm.Files == nil && rm.FilesV2 == nil
}

// item is a message read, with what the conversation needs of it.
type item struct {
	msg       conversation.Message
	text      string // the message's own text, without its attachments'
	artifacts []conversation.Artifact
}

// convert reads one message, its content from the blocks when there are any
// (they repeat the text) and from the text otherwise.
func (rm *rawMessage) convert() item {
	m := conversation.Message{
		ID:        loose.String(rm.UUID),
		Role:      role(loose.String(rm.Sender)),
		Timestamp: loose.Time(rm.CreatedAt),
	}
	if p := loose.String(rm.Parent); p != rootParent {
		m.ParentID = p
	}
	var text, thinking []string
	var arts []conversation.Artifact
	for _, b := range rm.Content {
		switch loose.String(b.Type) {
		case "text":
			text = appendText(text, loose.String(b.Text))
		case "thinking", "redacted_thinking":
			t := loose.String(b.Thinking)
			if t == "" {
				t = summaries(b.Summaries)
			}
			thinking = appendText(thinking, t)
		case "tool_use", "server_tool_use":
			tc := conversation.ToolCall{ID: loose.String(b.ID), Name: loose.String(b.Name)}
			if a, args, ok := toolArtifact(tc.Name, b.Input); ok {
				arts = append(arts, a)
				text = append(text, "[artifact: "+firstNonEmpty(a.Title, "untitled")+"]")
				tc.Arguments = args
			} else {
				tc.Arguments = arguments(b.Input)
			}
			m.ToolCalls = append(m.ToolCalls, tc)
		case "tool_result", "web_search_tool_result":
			m.ToolResults = append(m.ToolResults, conversation.ToolResult{
				CallID:  loose.String(b.ToolUseID),
				Name:    loose.String(b.Name),
				Content: loose.StripDataURLs(flatten(b.Content)),
				IsError: loose.Bool(b.IsError),
			})
		case "image", "document":
			if a, ok := sourceAttachment(b); ok {
				m.Attachments = append(m.Attachments, a)
			}
			text = appendText(text, loose.String(b.Text))
		default:
			// Unknown blocks: keep whatever text they carry.
			text = appendText(text, loose.String(b.Text))
		}
	}
	content := strings.Join(text, "\n\n")
	if content == "" {
		content = strings.TrimSpace(loose.String(rm.Text))
	}
	m.Thinking = strings.Join(thinking, "\n\n")

	// Attachments: pasted or uploaded text comes with its extracted content,
	// which is what the person gave: it is searched with the message.
	var extra []string
	for _, a := range rm.Attachments {
		name := loose.String(a.FileName)
		size, _ := loose.Int(a.FileSize)
		m.Attachments = addAttachment(m.Attachments, conversation.Attachment{Name: name, Type: loose.String(a.FileType), Size: size})
		if x := strings.TrimSpace(loose.String(a.ExtractedContent)); x != "" {
			extra = append(extra, "[attachment: "+firstNonEmpty(name, "untitled")+"]\n"+x)
		}
	}
	for _, f := range append(rm.Files, rm.FilesV2...) {
		m.Attachments = addAttachment(m.Attachments, conversation.Attachment{Name: loose.String(f.FileName), Type: loose.String(f.FileKind)})
	}
	own := content
	if len(extra) > 0 {
		content = joinParts(append([]string{content}, extra...))
	}
	m.Content = loose.StripDataURLs(content)
	return item{msg: m, text: own, artifacts: arts}
}

// pullMarkup moves the <antThinking> and <antArtifact> blocks of an
// assistant message out of its content.
func pullMarkup(m *conversation.Message) []conversation.Artifact {
	content, thinking, tags := extractMarkup(m.Content)
	m.Content = content
	if thinking != "" {
		m.Thinking = joinParts([]string{m.Thinking, thinking})
	}
	arts := make([]conversation.Artifact, 0, len(tags))
	for _, t := range tags {
		arts = append(arts, conversation.Artifact{
			Type:         t.typ,
			Title:        firstNonEmpty(t.title, t.identifier),
			Description:  describe(t.identifier, t.language),
			Content:      loose.StripDataURLs(t.content),
			MessageIndex: m.Index,
		})
	}
	return arts
}

// toolArtifact reads a call of the "artifacts" tool of newer exports as an
// artifact, and returns the call's arguments without the artifact's text,
// which is indexed once, as the artifact.
func toolArtifact(name string, input json.RawMessage) (conversation.Artifact, string, bool) {
	var in map[string]json.RawMessage
	if name != "artifacts" || len(input) == 0 || input[0] != '{' || json.Unmarshal(input, &in) != nil {
		return conversation.Artifact{}, "", false
	}
	text := loose.String(in["content"])
	if text == "" {
		text = loose.String(in["new_str"])
	}
	id, title := loose.String(in["id"]), loose.String(in["title"])
	if text == "" && title == "" {
		return conversation.Artifact{}, "", false
	}
	a := conversation.Artifact{
		Type:        loose.String(in["type"]),
		Title:       firstNonEmpty(title, id),
		Description: describe(id, loose.String(in["language"])),
		Content:     loose.StripDataURLs(text),
	}
	delete(in, "content")
	delete(in, "new_str")
	delete(in, "old_str")
	args, err := json.Marshal(in)
	if err != nil {
		return conversation.Artifact{}, "", false
	}
	// Marshal escapes "<" and "&", and the values keep the file's escapes.
	rest, _ := loose.CompactJSON(args)
	return a, rest, true
}

func describe(identifier, language string) string {
	var parts []string
	if identifier != "" {
		parts = append(parts, "identifier: "+identifier)
	}
	if language != "" {
		parts = append(parts, "language: "+language)
	}
	return strings.Join(parts, ", ")
}

// timeOrder returns the order that puts messages in time order, keeping file
// order between equal times. A message with no time keeps its place after
// the one before it in the file.
func timeOrder(items []item) []int {
	keys := make([]time.Time, len(items))
	var last time.Time
	for i, it := range items {
		if !it.msg.Timestamp.IsZero() {
			last = it.msg.Timestamp
		}
		keys[i] = last
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]].Before(keys[order[b]]) })
	return order
}

func permute[T any](list []T, order []int) []T {
	out := make([]T, len(order))
	for i, j := range order {
		out[i] = list[j]
	}
	return out
}

// markBranches names the branches of a conversation whose messages link to
// their parents: the main line runs from the current leaf (or the last
// message) back to the first; every other message is on a numbered branch,
// one per fork, numbered in reading order.
func markBranches(msgs []conversation.Message, leaf string) {
	byID := make(map[string]int, len(msgs))
	kids := map[string]int{}
	for i, m := range msgs {
		if m.ID != "" {
			byID[m.ID] = i
		}
		if m.ParentID != "" {
			kids[m.ParentID]++
		}
	}
	forked := false
	for _, n := range kids {
		forked = forked || n > 1
	}
	if !forked || len(msgs) == 0 {
		return
	}
	main := make([]bool, len(msgs))
	at, ok := byID[leaf]
	if !ok {
		at = len(msgs) - 1
	}
	for steps := 0; steps <= len(msgs); steps++ {
		main[at] = true
		next, ok := byID[msgs[at].ParentID]
		if !ok || main[next] {
			break
		}
		at = next
	}
	names := map[int]string{}
	for i := range msgs {
		if main[i] {
			continue
		}
		// The fork: the first message of this one's line that is not on the main line.
		fork := i
		for steps := 0; steps <= len(msgs); steps++ {
			p, ok := byID[msgs[fork].ParentID]
			if !ok || main[p] || p == fork {
				break
			}
			fork = p
		}
		if _, ok := names[fork]; !ok {
			names[fork] = strconv.Itoa(len(names) + 1)
		}
		msgs[i].Branch = names[fork]
	}
}

// role maps a claude.ai sender to a canonical role.
func role(sender string) conversation.Role {
	switch s := strings.ToLower(strings.TrimSpace(sender)); s {
	case "human", "user", "person":
		return conversation.RoleUser
	case "assistant", "claude", "ai", "model", "bot":
		return conversation.RoleAssistant
	case "system":
		return conversation.RoleSystem
	case "tool", "function":
		return conversation.RoleTool
	default:
		if strings.Contains(s, "human") || strings.Contains(s, "user") {
			return conversation.RoleUser
		}
		return conversation.RoleAssistant
	}
}

func appendText(list []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		list = append(list, s)
	}
	return list
}

func summaries(raw json.RawMessage) string {
	var list []struct {
		Summary json.RawMessage `json:"summary"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var out []string
	for _, s := range list {
		out = appendText(out, loose.String(s.Summary))
	}
	return strings.Join(out, "\n")
}

// arguments renders a tool call's input as compact JSON text.
func arguments(raw json.RawMessage) string {
	s := loose.String(raw)
	return loose.StripDataURLs(loose.JSONText(s))
}

// flatten turns a tool result's content (a string, or a list of text,
// knowledge and other blocks) into text.
func flatten(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '[' {
		return loose.String(raw)
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return loose.String(raw)
	}
	var out []string
	for _, it := range items {
		var b block
		if len(it) == 0 || it[0] != '{' || json.Unmarshal(it, &b) != nil {
			out = appendText(out, loose.String(it))
			continue
		}
		var lines []string
		lines = appendText(lines, loose.String(b.Title))
		lines = appendText(lines, loose.String(b.URL))
		lines = appendText(lines, loose.String(b.Text))
		if len(lines) == 0 && !loose.IsNull(b.Content) {
			lines = appendText(lines, flatten(b.Content))
		}
		out = appendText(out, strings.Join(lines, "\n"))
	}
	return strings.Join(out, "\n\n")
}

// sourceAttachment describes an image or document block without its
// payload.
func sourceAttachment(b block) (conversation.Attachment, bool) {
	var src struct {
		Type      json.RawMessage `json:"type"`
		MediaType json.RawMessage `json:"media_type"`
		Data      json.RawMessage `json:"data"`
		URL       json.RawMessage `json:"url"`
	}
	if len(b.Source) == 0 || b.Source[0] != '{' || json.Unmarshal(b.Source, &src) != nil {
		return conversation.Attachment{}, false
	}
	a := conversation.Attachment{Name: loose.String(b.Title), Type: loose.String(src.MediaType)}
	if data := loose.String(src.Data); data != "" {
		a.Size = int64(len(data))
		if loose.String(src.Type) == "base64" {
			a.Size = loose.Base64Size(data)
		}
	}
	if u := loose.String(src.URL); u != "" && !strings.HasPrefix(u, "data:") {
		a.Ref = u
	}
	if a.Type == "" {
		a.Type = loose.String(b.Type)
	}
	return a, true
}

// addAttachment appends a unless it is empty or already listed (files and
// files_v2 name the same files).
func addAttachment(list []conversation.Attachment, a conversation.Attachment) []conversation.Attachment {
	if a.Name == "" && a.Type == "" && a.Size == 0 {
		return list
	}
	for i, b := range list {
		if b.Name == a.Name && (b.Type == a.Type || a.Type == "" || b.Type == "") {
			if list[i].Type == "" {
				list[i].Type = a.Type
			}
			if list[i].Size == 0 {
				list[i].Size = a.Size
			}
			return list
		}
	}
	return append(list, a)
}
