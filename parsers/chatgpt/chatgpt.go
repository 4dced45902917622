package chatgpt

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
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
const Name = "chatgpt"

// Parser reads ChatGPT exports.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns a ChatGPT export parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "ChatGPT data export (conversations.json): each conversation's message tree, main thread and branches, tool and code messages, reasoning, image and file names",
		Detection:   `a JSON array or object whose first bytes hold a "mapping" key with "current_node", "create_time", "children" or "title", or "current_node" with "conversation_id"; never "chat_messages" (claude.ai)`,
		Locations:   []string{"conversations.json in the zip ChatGPT mails from Settings → Data controls → Export data"},
		Version:     3, // 3: JSON arguments and results with their escapes undone
	}
}

// Detect recognises a ChatGPT export by its marker keys.
func (*Parser) Detect(path string, head []byte) bool {
	// The keys may sit in one conversation object, in an array of them or
	// (children) in the mapping's nodes: any depth counts.
	s := jsonhead.Scan(head)
	if (s.Root != '[' && s.Root != '{') || s.Anywhere("chat_messages") {
		return false
	}
	if s.Anywhere("mapping") {
		return s.Anywhere("current_node", "create_time", "children", "title")
	}
	return s.Anywhere("current_node") && s.Anywhere("conversation_id")
}

// Parse reads every conversation of the export, one at a time.
func (p *Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	res := &parsers.Result{}
	base := filepath.Base(path)
	err := loose.DecodeEach(ctx, path, r, res, func(i, line int, rc *rawConversation) {
		c := rc.convert(path, base, i)
		if c == nil {
			res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "element %d is not a ChatGPT conversation (no id, title or mapping): skipped", i))
			return
		}
		res.AddUnique(c, path, line)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// rawConversation is one conversation as exported. Loose fields are kept raw
// and read with package loose.
type rawConversation struct {
	Title            json.RawMessage    `json:"title"`
	CreateTime       json.RawMessage    `json:"create_time"`
	UpdateTime       json.RawMessage    `json:"update_time"`
	Mapping          map[string]rawNode `json:"mapping"`
	CurrentNode      json.RawMessage    `json:"current_node"`
	ConversationID   json.RawMessage    `json:"conversation_id"`
	ID               json.RawMessage    `json:"id"`
	DefaultModelSlug json.RawMessage    `json:"default_model_slug"`
}

type rawNode struct {
	Message  *rawMessage     `json:"message"`
	Parent   json.RawMessage `json:"parent"`
	Children json.RawMessage `json:"children"`
}

type rawMessage struct {
	ID         json.RawMessage `json:"id"`
	Author     rawAuthor       `json:"author"`
	CreateTime json.RawMessage `json:"create_time"`
	Content    rawContent      `json:"content"`
	Status     json.RawMessage `json:"status"`
	Metadata   rawMetadata     `json:"metadata"`
	Recipient  json.RawMessage `json:"recipient"`
}

type rawAuthor struct {
	Role json.RawMessage `json:"role"`
	Name json.RawMessage `json:"name"`
}

// rawContent holds the fields of every content_type seen in exports; each
// type uses a few of them.
type rawContent struct {
	ContentType      json.RawMessage   `json:"content_type"`
	Parts            []json.RawMessage `json:"parts"`
	Text             json.RawMessage   `json:"text"`
	Result           json.RawMessage   `json:"result"`
	Summary          json.RawMessage   `json:"summary"`
	Thoughts         json.RawMessage   `json:"thoughts"`
	Content          json.RawMessage   `json:"content"`
	UserProfile      json.RawMessage   `json:"user_profile"`
	UserInstructions json.RawMessage   `json:"user_instructions"`
	ModelSetContext  json.RawMessage   `json:"model_set_context"`
	Title            json.RawMessage   `json:"title"`
	URL              json.RawMessage   `json:"url"`
	Name             json.RawMessage   `json:"name"`
}

type rawThought struct {
	Summary json.RawMessage `json:"summary"`
	Content json.RawMessage `json:"content"`
	Chunks  json.RawMessage `json:"chunks"`
}

type rawMetadata struct {
	Hidden          json.RawMessage `json:"is_visually_hidden_from_conversation"`
	ModelSlug       json.RawMessage `json:"model_slug"`
	Attachments     json.RawMessage `json:"attachments"`
	FinishDetails   json.RawMessage `json:"finish_details"`
	UserContext     json.RawMessage `json:"user_context_message_data"`
	UserSystem      json.RawMessage `json:"is_user_system_message"`
	AggregateResult json.RawMessage `json:"aggregate_result"`
}

// UnmarshalJSON reads the content object; content given as a bare string
// (some re-exports flatten it) is taken as text.
func (c *rawContent) UnmarshalJSON(data []byte) error {
	type plain rawContent
	switch {
	case len(data) > 0 && data[0] == '{':
		return ignoreType(json.Unmarshal(data, (*plain)(c)))
	case len(data) > 0 && data[0] == '"':
		*c = rawContent{ContentType: json.RawMessage(`"text"`), Parts: []json.RawMessage{data}}
	}
	return nil
}

// tree is a conversation's mapping with its links made consistent.
type tree struct {
	nodes    map[string]rawNode
	parent   map[string]string // "" for a root
	children map[string][]string
	roots    []string
}

func buildTree(mapping map[string]rawNode) *tree {
	t := &tree{nodes: mapping, parent: map[string]string{}, children: map[string][]string{}}
	keys := make([]string, 0, len(mapping))
	times := make(map[string]time.Time, len(mapping))
	for k, n := range mapping {
		keys = append(keys, k)
		times[k] = n.time()
	}
	// Nodes whose order nothing says (extra roots, children missing from
	// their parent's list) go by time, then key: a fixed order, run after run.
	sort.Slice(keys, func(i, j int) bool {
		ti, tj := times[keys[i]], times[keys[j]]
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		p := loose.String(mapping[k].Parent)
		if _, ok := mapping[p]; !ok || p == k {
			p = ""
		}
		t.parent[k] = p
	}
	for _, k := range keys {
		listed := map[string]bool{}
		for _, c := range stringList(mapping[k].Children) {
			if t.parent[c] == k && !listed[c] {
				listed[c] = true
				t.children[k] = append(t.children[k], c)
			}
		}
	}
	for _, k := range keys {
		p := t.parent[k]
		if p == "" {
			t.roots = append(t.roots, k)
			continue
		}
		if !slices.Contains(t.children[p], k) {
			t.children[p] = append(t.children[p], k)
		}
	}
	return t
}

func (n rawNode) time() time.Time {
	if n.Message == nil {
		return time.Time{}
	}
	return loose.Time(n.Message.CreateTime)
}

// mainThread returns the nodes from a root down to leaf, the thread the
// ChatGPT page shows. When the export names no leaf it knows, the latest
// leaf of the largest tree is taken (not a stray node whose parent is lost).
func (t *tree) mainThread(leaf string) []string {
	if _, ok := t.nodes[leaf]; !ok {
		leaf = ""
		var largest []string
		for _, r := range t.roots {
			if sub := t.preorder(r); len(sub) > len(largest) {
				largest = sub
			}
		}
		var latest time.Time
		for _, k := range largest {
			if len(t.children[k]) > 0 {
				continue
			}
			if tm := t.nodes[k].time(); leaf == "" || !tm.Before(latest) {
				leaf, latest = k, tm
			}
		}
	}
	var path []string
	seen := map[string]bool{}
	for k := leaf; k != "" && !seen[k]; k = t.parent[k] {
		seen[k] = true
		path = append(path, k)
	}
	slices.Reverse(path)
	return path
}

// preorder lists the nodes reachable from roots, parents before children,
// children in their listed order.
func (t *tree) preorder(roots ...string) []string {
	var out []string
	seen := map[string]bool{}
	stack := make([]string, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, roots[i])
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
		kids := t.children[k]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out
}

// placed is a node in reading order with the branch it is on.
type placed struct {
	key, branch string
}

// readingOrder is the main thread from root to leaf, then every other
// branch in the tree's order, each one whole: a branch starts where a node
// leaves the main thread or is not its parent's first child, and continues
// through first children. Nodes no root reaches (a cycle of parents) come
// last, on a branch of their own.
func (t *tree) readingOrder(leaf string) []placed {
	main := t.mainThread(leaf)
	onMain := make(map[string]bool, len(main))
	out := make([]placed, 0, len(t.nodes))
	for _, k := range main {
		onMain[k] = true
		out = append(out, placed{key: k})
	}
	branchOf := map[string]string{}
	n := 0
	newBranch := func() string { n++; return strconv.Itoa(n) }
	for _, k := range t.preorder(t.roots...) {
		if onMain[k] {
			continue
		}
		p := t.parent[k]
		if p != "" && !onMain[p] && t.children[p][0] == k {
			branchOf[k] = branchOf[p]
		} else {
			branchOf[k] = newBranch()
		}
		out = append(out, placed{key: k, branch: branchOf[k]})
	}
	if len(out) < len(t.nodes) {
		var lost []string
		for k := range t.nodes {
			if _, ok := branchOf[k]; !ok && !onMain[k] {
				lost = append(lost, k)
			}
		}
		sort.Strings(lost)
		b := newBranch()
		for _, k := range lost {
			out = append(out, placed{key: k, branch: b})
		}
	}
	return out
}

// messageParent is the id of the nearest ancestor of k that holds a message.
func (t *tree) messageParent(k string, ids map[string]string) string {
	seen := map[string]bool{k: true}
	for p := t.parent[k]; p != "" && !seen[p]; p = t.parent[p] {
		if id, ok := ids[p]; ok {
			return id
		}
		seen[p] = true
	}
	return ""
}

// convert builds the canonical conversation, or nil when rc holds nothing of
// a ChatGPT conversation.
func (rc *rawConversation) convert(path, base string, index int) *conversation.Conversation {
	id := firstNonEmpty(loose.String(rc.ConversationID), loose.String(rc.ID))
	title := strings.TrimSpace(loose.String(rc.Title))
	if id == "" && title == "" && len(rc.Mapping) == 0 {
		return nil
	}
	c := &conversation.Conversation{
		Source:  Name,
		File:    path,
		Title:   title,
		Date:    loose.Time(rc.CreateTime),
		Updated: loose.Time(rc.UpdateTime),
		Model:   loose.String(rc.DefaultModelSlug),
	}
	t := buildTree(rc.Mapping)
	order := t.readingOrder(loose.String(rc.CurrentNode))
	ids := make(map[string]string, len(order))
	for _, p := range order {
		if m := t.nodes[p.key].Message; m != nil {
			ids[p.key] = firstNonEmpty(loose.String(m.ID), p.key)
		}
	}
	c.Messages = make([]conversation.Message, 0, len(order))
	for _, p := range order {
		rm := t.nodes[p.key].Message
		if rm == nil {
			continue // the root placeholder
		}
		m := rm.convert()
		m.ID = ids[p.key]
		m.ParentID = t.messageParent(p.key, ids)
		m.Branch = p.branch
		c.Messages = append(c.Messages, m)
	}
	c.Renumber()

	for _, m := range c.Messages {
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
	for _, m := range c.Messages {
		if m.Branch != "" {
			break
		}
		if c.Title == "" && m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
			c.Title = loose.Shorten(m.Content, 80)
		}
		if m.Role == conversation.RoleAssistant && m.Model != "" && loose.String(rc.DefaultModelSlug) == "" {
			c.Model = m.Model // the main thread's last answering model
		}
	}
	c.ID = id
	if c.ID == "" {
		// No id: key on what the file says, never on where it is.
		key := base + "\x00" + strconv.Itoa(index) + "\x00" + title + "\x00" + loose.String(rc.CreateTime)
		if len(c.Messages) > 0 {
			key += "\x00" + c.Messages[0].ID
		}
		c.ID = conversation.NewID(key, c.Date)
	}
	return c
}

// convert reads one message node's message. ID, ParentID and Branch are set
// by the caller, who knows the tree.
func (rm *rawMessage) convert() conversation.Message {
	md := rm.Metadata
	m := conversation.Message{
		Role:      role(loose.String(rm.Author.Role)),
		Timestamp: loose.Time(rm.CreateTime),
		Model:     loose.String(md.ModelSlug),
	}
	ct := rm.Content
	kind := loose.String(ct.ContentType)
	files := attachmentsByID(md.Attachments)
	var text []string
	hidden := loose.Bool(md.Hidden)
	isError := false
	switch kind {
	case "text", "multimodal_text", "":
		text = parts(ct.Parts, files, &m)
		if kind == "" {
			text = appendText(text, loose.String(ct.Text))
		}
	case "code", "execution_output":
		text = appendText(text, loose.String(ct.Text))
		text = appendOutputs(text, md.AggregateResult, &m)
	case "tether_browsing_display":
		text = appendText(text, loose.String(ct.Result))
		text = appendText(text, loose.String(ct.Summary))
	case "tether_quote", "sonic_webpage":
		var quote []string
		for _, raw := range []json.RawMessage{ct.Title, ct.URL, ct.Text} {
			quote = appendText(quote, loose.String(raw))
		}
		text = appendText(text, strings.Join(quote, "\n"))
	case "system_error":
		text = appendText(text, strings.TrimSpace(loose.String(ct.Name)+": "+loose.String(ct.Text)))
		isError = true
	case "user_editable_context":
		text = appendText(text, loose.String(ct.UserProfile))
		text = appendText(text, loose.String(ct.UserInstructions))
		hidden = true
	case "model_editable_context":
		text = appendText(text, loose.String(ct.ModelSetContext))
		hidden = true
	case "thoughts":
		th := thoughts(ct.Thoughts)
		if len(th) == 0 {
			th = parts(ct.Parts, files, &m) // the text in parts instead
		}
		m.Thinking = loose.StripDataURLs(strings.Join(th, "\n\n"))
	case "reasoning_recap":
		// "Thought for 8 seconds", or a recap of the reasoning: in content
		// or, in newer exports, in parts.
		recap := appendText(nil, loose.String(ct.Content))
		if len(recap) == 0 {
			recap = parts(ct.Parts, files, &m)
		}
		m.Thinking = loose.StripDataURLs(strings.Join(recap, "\n\n"))
		hidden = true // procedural
	default:
		// A type this reader does not know: keep whatever text it carries.
		text = parts(ct.Parts, files, &m)
		for _, raw := range []json.RawMessage{ct.Text, ct.Result, ct.Content, ct.Summary} {
			text = appendText(text, loose.String(raw))
		}
	}
	// Custom instructions (2023): an empty system message whose text sits
	// in its metadata. Later exports repeat that metadata beside a
	// user_editable_context, whose text is already read.
	if loose.Bool(md.UserSystem) || len(md.UserContext) > 0 {
		var uc struct {
			AboutUser  json.RawMessage `json:"about_user_message"`
			AboutModel json.RawMessage `json:"about_model_message"`
		}
		if len(text) == 0 && json.Unmarshal(md.UserContext, &uc) == nil {
			text = appendText(text, loose.String(uc.AboutUser))
			text = appendText(text, loose.String(uc.AboutModel))
		}
		hidden = true
	}
	// Files listed in the metadata that no part pointed at (uploaded PDFs,
	// documents) are attachments too.
	for _, f := range files.order {
		if !files.used[f.Ref] {
			m.Attachments = append(m.Attachments, f)
		}
	}
	m.Content = loose.StripDataURLs(strings.Join(text, "\n\n"))

	recipient := loose.String(rm.Recipient)
	switch {
	case m.Role == conversation.RoleTool:
		m.ToolResults = []conversation.ToolResult{{Name: loose.String(rm.Author.Name), IsError: isError}}
	case recipient != "" && recipient != "all":
		// Addressed to a tool (python, browser, dalle.text2im, …): a call
		// whose text is the message's content.
		m.ToolCalls = []conversation.ToolCall{{Name: recipient}}
	}
	switch status := loose.String(rm.Status); {
	case status == "in_progress" || status == "finished_partial_completion":
		m.Partial = true
	}
	var fd struct {
		Type json.RawMessage `json:"type"`
	}
	if len(md.FinishDetails) > 0 && json.Unmarshal(md.FinishDetails, &fd) == nil {
		switch loose.String(fd.Type) {
		case "interrupted":
			m.Cancelled = true
		case "max_tokens":
			m.Partial = true
		}
	}
	empty := m.Content == "" && m.Thinking == "" && len(m.Attachments) == 0 && len(m.ToolCalls) == 0 && len(m.ToolResults) == 0
	m.Hidden = hidden || empty
	return m
}

// files are the attachments a message's metadata lists, by id, so image
// parts can be named after them.
type files struct {
	byID  map[string]conversation.Attachment
	order []conversation.Attachment
	used  map[string]bool
}

func attachmentsByID(raw json.RawMessage) *files {
	f := &files{byID: map[string]conversation.Attachment{}, used: map[string]bool{}}
	var list []struct {
		ID       json.RawMessage `json:"id"`
		Name     json.RawMessage `json:"name"`
		MimeType json.RawMessage `json:"mime_type"`
		MimeOld  json.RawMessage `json:"mimeType"` // 2023 exports
		Size     json.RawMessage `json:"size"`
	}
	if len(raw) == 0 || raw[0] != '[' {
		return f
	}
	_ = ignoreType(json.Unmarshal(raw, &list))
	for _, x := range list {
		size, _ := loose.Int(x.Size)
		a := conversation.Attachment{Name: loose.String(x.Name), Type: firstNonEmpty(loose.String(x.MimeType), loose.String(x.MimeOld)), Size: size, Ref: loose.String(x.ID)}
		if a.Name == "" && a.Ref == "" {
			continue
		}
		f.byID[a.Ref] = a
		f.order = append(f.order, a)
	}
	return f
}

// rawPart is an object among a message's parts: an image, audio or its
// transcription, or another asset.
type rawPart struct {
	ContentType       json.RawMessage `json:"content_type"`
	AssetPointer      json.RawMessage `json:"asset_pointer"`
	SizeBytes         json.RawMessage `json:"size_bytes"`
	Format            json.RawMessage `json:"format"`
	Text              json.RawMessage `json:"text"`
	AudioAssetPointer *rawPart        `json:"audio_asset_pointer"`
	Metadata          struct {
		Dalle struct {
			Prompt json.RawMessage `json:"prompt"`
		} `json:"dalle"`
	} `json:"metadata"`
}

// parts reads a message's parts: strings are its text; image and audio
// pointers become attachments named after the file they point at; a
// transcription or other part with text adds its text.
func parts(raw []json.RawMessage, fs *files, m *conversation.Message) []string {
	var text []string
	for _, r := range raw {
		if len(r) == 0 || r[0] != '{' {
			text = appendText(text, loose.String(r))
			continue
		}
		var p rawPart
		if json.Unmarshal(r, &p) != nil {
			continue
		}
		text = appendText(text, loose.String(p.Text))
		text = appendText(text, loose.String(p.Metadata.Dalle.Prompt))
		for _, q := range []*rawPart{&p, p.AudioAssetPointer} {
			if q == nil || loose.String(q.AssetPointer) == "" {
				continue
			}
			m.Attachments = append(m.Attachments, fs.pointer(q))
		}
	}
	return text
}

// pointer describes the asset a part points at ("file-service://file-…",
// "sediment://file_…"), named after the metadata's file of the same id.
func (fs *files) pointer(p *rawPart) conversation.Attachment {
	ptr := loose.String(p.AssetPointer)
	id := ptr
	if i := strings.Index(ptr, "://"); i >= 0 {
		id = ptr[i+3:]
	}
	if a, ok := fs.byID[id]; ok {
		fs.used[id] = true
		a.Ref = ptr
		return a
	}
	size, _ := loose.Int(p.SizeBytes)
	typ := loose.String(p.ContentType)
	switch {
	case strings.HasPrefix(typ, "image"):
		typ = "image"
	case strings.HasPrefix(typ, "audio") && loose.String(p.Format) != "":
		typ = "audio/" + loose.String(p.Format)
	}
	if strings.HasPrefix(ptr, "data:") {
		mt, n, _ := loose.DataURL(ptr)
		return conversation.Attachment{Name: "inline", Type: firstNonEmpty(mt, typ), Size: n}
	}
	return conversation.Attachment{Name: id, Type: typ, Size: size, Ref: ptr}
}

// appendOutputs adds what code execution showed besides its text: the
// images it drew, as attachments, and its messages' text when the output
// itself is empty.
func appendOutputs(text []string, raw json.RawMessage, m *conversation.Message) []string {
	var agg struct {
		Messages []struct {
			MessageType json.RawMessage `json:"message_type"`
			Text        json.RawMessage `json:"text"`
			ImageURL    json.RawMessage `json:"image_url"`
		} `json:"messages"`
	}
	if len(raw) == 0 || raw[0] != '{' || ignoreType(json.Unmarshal(raw, &agg)) != nil {
		return text
	}
	had := len(text) > 0
	for _, x := range agg.Messages {
		if u := loose.String(x.ImageURL); u != "" {
			id := u
			if i := strings.Index(u, "://"); i >= 0 {
				id = u[i+3:]
			}
			if strings.HasPrefix(u, "data:") {
				id, u = "inline", ""
			}
			m.Attachments = append(m.Attachments, conversation.Attachment{Name: id, Type: "image", Ref: u})
		}
		if !had {
			text = appendText(text, loose.String(x.Text))
		}
	}
	return text
}

// role maps a ChatGPT author role to a canonical role.
func role(r string) conversation.Role {
	switch strings.ToLower(strings.TrimSpace(r)) {
	case "user", "human":
		return conversation.RoleUser
	case "system", "developer":
		return conversation.RoleSystem
	case "tool", "function", "plugin":
		return conversation.RoleTool
	default:
		return conversation.RoleAssistant
	}
}

func stringList(raw json.RawMessage) []string {
	var list []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, r := range list {
		if s := loose.String(r); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// thoughts reads the thoughts of a "thoughts" message: objects with a
// summary and content (or only the chunks content was made of), or plain
// strings.
func thoughts(raw json.RawMessage) []string {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return appendText(nil, loose.String(raw))
	}
	var out []string
	for _, it := range items {
		var x rawThought
		if json.Unmarshal(it, &x) != nil {
			out = appendText(out, loose.String(it))
			continue
		}
		body := loose.String(x.Content)
		if strings.TrimSpace(body) == "" {
			var chunks []json.RawMessage
			_ = json.Unmarshal(x.Chunks, &chunks)
			var cs []string
			for _, c := range chunks {
				cs = appendText(cs, loose.String(c))
			}
			body = strings.Join(cs, "\n")
		}
		out = appendText(out, strings.TrimSpace(loose.String(x.Summary)+"\n"+body))
	}
	return out
}

func appendText(list []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		list = append(list, s)
	}
	return list
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
