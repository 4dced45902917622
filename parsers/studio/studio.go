// Package studio reads Conversation Studio exports: one comment tree written
// as JSON (the native format), as MIME-style multipart text, or as XML. Each
// export file is one conversation; its tree is flattened depth-first, with
// every message's parent and branch kept.
package studio

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Name is the family name, used as Conversation.Source.
const Name = "studio"

// Parser reads the JSON, Text and XML exports of Conversation Studio. The
// export is told apart by content, not by extension: the app's importer
// itself trusts the extension, but files get renamed.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns a studio parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Conversation Studio exports (comments.json, comments.text, comments.xml): a branching comment tree, flattened depth-first with parents and branches kept",
		Detection: "JSON: an array of objects with contentHash and userId or children, or whose first object starts with id and has userId and children or timestamp (or a comments*.json whose first object starts with id and has content); " +
			"XML: a <comments> root whose head holds <userId> or <contentHash>; " +
			"Text: a multipart/mixed preamble with User-Id, Hash or E-Tag headers, or the early export starting with User-Id, Hash and Timestamp lines",
		Locations: []string{"browser downloads: comments.json, comments.text, comments.xml (the app keeps its tree in localStorage and writes files only on export)"},
		Version:   2, // 2: a torn JSON or XML export keeps the comments whose text was complete
	}
}

// format is one of the three export formats.
type format int

const (
	formatJSON format = iota
	formatText
	formatXML
)

// bom is the UTF-8 byte order mark some editors put first.
var bom = []byte("\xef\xbb\xbf")

// sniff tells the export format from the first non-space byte.
func sniff(head []byte) (format, bool) {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, bom), " \t\r\n")
	if len(t) == 0 {
		return 0, false
	}
	switch t[0] {
	case '[', '{':
		return formatJSON, true
	case '<':
		return formatXML, true
	}
	return formatText, true
}

// Detect recognises the three exports by their marker keys, elements and
// headers. The head may be cut anywhere, so it is searched, never decoded.
func (*Parser) Detect(path string, head []byte) bool {
	f, ok := sniff(head)
	if !ok {
		return false
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(head, bom), " \t\r\n")
	switch f {
	case formatJSON:
		return detectJSON(path, t)
	case formatXML:
		return bytes.Contains(t, []byte("<comments")) && bytes.Contains(t, []byte("<comment")) &&
			(bytes.Contains(t, []byte("<userId")) || bytes.Contains(t, []byte("<contentHash")))
	}
	return detectText(t)
}

// firstKeyID matches an array whose first object starts with "id": the app
// builds every comment with id first, so its exports all do.
var firstKeyID = regexp.MustCompile(`^\[\s*\{\s*"id"\s*:`)

func detectJSON(path string, t []byte) bool {
	if !bytes.HasPrefix(t, []byte("[")) || !bytes.HasPrefix(bytes.TrimLeft(t[1:], " \t\r\n"), []byte("{")) {
		return false
	}
	has := func(k string) bool { return bytes.Contains(t, []byte(`"`+k+`"`)) }
	idFirst := firstKeyID.Match(t)
	switch {
	case has("contentHash") && (has("userId") || has("children")):
		return true
	case idFirst && has("userId") && (has("children") || has("timestamp")):
		return true
	}
	// A first comment with a long content pushes the other keys past the
	// head; the app's download name then vouches for the file.
	base := strings.ToLower(filepath.Base(path))
	return strings.HasPrefix(base, "comments") && idFirst && has("content")
}

func detectText(t []byte) bool {
	studio := bytes.Contains(t, []byte("\nUser-Id:")) || bytes.Contains(t, []byte("\nE-Tag:")) || bytes.Contains(t, []byte("\nHash:"))
	if bytes.HasPrefix(t, []byte("Content-Type: multipart/")) && bytes.Contains(t[:min(len(t), 200)], []byte("boundary=")) {
		return studio
	}
	// The earliest Text export has no preamble: each comment starts with
	// its User-Id, Hash and Timestamp lines.
	return bytes.HasPrefix(t, []byte("User-Id:")) && bytes.Contains(t, []byte("\nHash:")) && bytes.Contains(t, []byte("\nTimestamp:"))
}

// Parse reads one export file as one conversation.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(512)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, parsers.ReadError(path, err)
	}
	if bytes.HasPrefix(head, bom) {
		_, _ = br.Discard(len(bom))
		head = head[len(bom):]
	}
	f, ok := sniff(head)
	if !ok {
		// Blank files: read the rest to tell empty from all-space.
		rest, err := loose.ReadAll(path, br)
		if err != nil {
			return nil, err
		}
		if f, ok = sniff(rest); !ok {
			return nil, parsers.Errorf(path, 0, parsers.ErrSyntax, "empty file")
		}
		br = bufio.NewReader(bytes.NewReader(rest))
	}
	res := &parsers.Result{}
	var roots []*node
	switch f {
	case formatJSON:
		roots, err = parseJSON(ctx, path, br, res)
	case formatXML:
		roots, err = parseXML(ctx, path, br, res)
	default:
		roots, err = parseText(ctx, path, br, res)
	}
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		// An export of an empty board: nothing to search.
		return res, nil
	}
	c, err := build(ctx, path, roots)
	if err != nil {
		return nil, err
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// node is one comment of the tree, whichever format it was read from.
type node struct {
	id       string
	parentID string // the comment's own parentId, or the reply target named in Text
	userID   string
	typ      string
	ts       time.Time
	content  string
	deleted  bool
	atts     []conversation.Attachment
	arts     []conversation.Artifact // MessageIndex filled in by build
	hash     string                  // contentHash: identifies roots that have no id
	children []*node
}

// add appends child to parent's children, or to roots when parent is nil.
func add(roots *[]*node, parent, child *node) {
	if parent == nil {
		*roots = append(*roots, child)
		return
	}
	parent.children = append(parent.children, child)
}

// role maps a comment to a canonical role. Comments carry a chat role in
// `type` since the app learned to generate replies ("assistant" for those);
// the early exports have no type and every comment is a person's.
func role(n *node) conversation.Role {
	switch strings.ToLower(strings.TrimSpace(n.typ)) {
	case "assistant", "ai", "bot", "model", "agent":
		return conversation.RoleAssistant
	case "system", "developer":
		return conversation.RoleSystem
	case "tool", "function":
		return conversation.RoleTool
	case "":
		switch strings.ToLower(strings.TrimSpace(n.userID)) {
		case "assistant", "ai", "bot":
			return conversation.RoleAssistant
		}
	}
	return conversation.RoleUser
}

// author is the comment's userId, which tells the people of a shared thread
// apart, unless it only repeats the role.
func author(n *node, r conversation.Role) string {
	id := strings.TrimSpace(n.userID)
	if strings.EqualFold(id, string(r)) {
		return ""
	}
	return id
}

// build flattens the tree into one conversation. Reading order is
// depth-first, children right after their parent, siblings in the order of
// the file: that is the order the app shows them in. Timestamps cannot give
// it: the app lets people drag a comment under another and swap a comment
// with its parent, and an edit resets the timestamp, so 920de45 has children
// older than their parents.
//
// Branch is the dotted path of sibling positions down to the comment where
// the message's branch forks off: the first-child chain below any comment
// stays on that comment's branch, so the main line (the first root and its
// first children) is "0", a second reply to the first root opens "0.1", and
// the second root is "1".
func build(ctx context.Context, path string, roots []*node) (*conversation.Conversation, error) {
	c := &conversation.Conversation{Source: Name, File: path}
	// Each item carries its branch and how many first-child steps follow
	// the branch's fork, so a deep chain costs no copied paths.
	type item struct {
		n      *node
		parent *node
		branch string
		zeros  int
	}
	stack := make([]item, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{n: roots[i], branch: strconv.Itoa(i)})
	}
	// Iterative: a Text export's nesting depth is bounded only by its size.
	for len(stack) > 0 {
		if len(c.Messages)%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		r := role(n)
		m := conversation.Message{
			ID:          n.id,
			ParentID:    n.parentID,
			Role:        r,
			Author:      author(n, r),
			Content:     loose.StripDataURLs(n.content),
			Timestamp:   n.ts,
			Attachments: n.atts,
			Deleted:     n.deleted,
			Branch:      it.branch,
		}
		if it.parent != nil && it.parent.id != "" {
			m.ParentID = it.parent.id
		}
		for _, a := range n.arts {
			a.MessageIndex = len(c.Messages)
			c.Artifacts = append(c.Artifacts, a)
		}
		c.Messages = append(c.Messages, m)
		for i := len(n.children) - 1; i >= 0; i-- {
			child := item{n: n.children[i], parent: n, branch: it.branch, zeros: it.zeros + 1}
			if i > 0 {
				child.branch, child.zeros = forkBranch(it.branch, it.zeros, i), 0
			}
			stack = append(stack, child)
		}
		if !n.ts.IsZero() {
			if c.Date.IsZero() || n.ts.Before(c.Date) {
				c.Date = n.ts
			}
			if n.ts.After(c.Updated) {
				c.Updated = n.ts
			}
		}
	}
	c.Renumber()
	c.Title = title(roots, c.Messages)
	// The roots identify the tree; the base name tells apart the exports of
	// one tree (comments.json and comments.xml side by side are two files,
	// and the index must keep both), and survives a move of the folder.
	c.ID = conversation.NewID("studio:"+rootKeys(roots)+":"+filepath.Base(path), c.Date)
	return c, nil
}

// forkBranch names the branch opened by the i-th child (i > 0) of a comment
// that lies zeros first-child steps below the fork of branch parent: the
// dotted path of sibling positions down to that child.
func forkBranch(parent string, zeros, i int) string {
	var b strings.Builder
	b.Grow(len(parent) + 2*zeros + 4)
	b.WriteString(parent)
	for range zeros {
		b.WriteString(".0")
	}
	b.WriteByte('.')
	b.WriteString(strconv.Itoa(i))
	return b.String()
}

// rootKeys identifies the tree by its roots: their ids, or for the early
// Text export (no ids) their timestamps or hashes.
func rootKeys(roots []*node) string {
	keys := make([]string, 0, len(roots))
	for _, r := range roots {
		switch {
		case r.id != "":
			keys = append(keys, r.id)
		case !r.ts.IsZero():
			keys = append(keys, "t"+strconv.FormatInt(r.ts.UnixMilli(), 10))
		case r.hash != "":
			keys = append(keys, "h"+r.hash)
		default:
			keys = append(keys, "c"+firstLine(r.content, 40))
		}
	}
	return strings.Join(keys, ",")
}

const titleMax = 80

// title is the first root's first line; when that root is empty (roots can
// be), the first message with text, then the first attachment's name.
func title(roots []*node, msgs []conversation.Message) string {
	if t := firstLine(loose.StripDataURLs(roots[0].content), titleMax); t != "" {
		return t
	}
	for _, m := range msgs {
		if t := firstLine(m.Content, titleMax); t != "" {
			return t
		}
	}
	for _, m := range msgs {
		for _, a := range m.Attachments {
			if a.Name != "" {
				return firstLine(a.Name, titleMax)
			}
		}
	}
	return "Conversation Studio export"
}

// firstLine returns the first non-blank line of s, cut to max runes.
func firstLine(s string, max int) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) <= max {
			return line
		}
		r := []rune(line)
		cut := string(r[:max-1])
		if i := strings.LastIndexByte(cut, ' '); i > max/2 {
			cut = cut[:i]
		}
		return strings.TrimRight(cut, " ,.;:") + "…"
	}
	return ""
}

// attachment describes an attachment without its payload. url may be a
// data: URL (possibly cut short by hand or by the exporter's 100-character
// truncation), a dead blob: URL, or a real address.
func attachment(name, typ, url string) conversation.Attachment {
	a := conversation.Attachment{Name: strings.TrimSpace(name), Type: strings.TrimSpace(typ)}
	url = strings.TrimSpace(url)
	if mt, size, ok := loose.DataURL(url); ok {
		if a.Type == "" {
			a.Type = mt
		}
		if completeDataURL(url) {
			a.Size = size
		}
		return a
	}
	low := strings.ToLower(url)
	switch {
	case url == "", strings.HasPrefix(low, "blob:"), low == "null", low == "undefined":
		// A blob: URL died with the browser tab that made it.
	case strings.HasPrefix(low, "http://"), strings.HasPrefix(low, "https://"), strings.HasPrefix(low, "file:"):
		a.Ref = url
	}
	return a
}

// completeDataURL reports whether a base64 data URL's payload is whole, so
// its size means something: cut payloads hold "..." or prose.
func completeDataURL(url string) bool {
	meta, payload, ok := strings.Cut(url, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return ok
	}
	for i := 0; i < len(payload); i++ {
		c := payload[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '=', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// artifactType reduces the app's artifact MIME types to the model's kinds,
// keeping unknown types as they are.
func artifactType(t string) string {
	switch t = strings.TrimSpace(t); {
	case t == "application/vnd.ant.code", t == "application/vnd.ant.react":
		return "code"
	case t == "application/vnd.ant.mermaid":
		return "diagram"
	case t == "image/svg+xml":
		return "image"
	case t == "text/html", t == "text/markdown":
		return "document"
	}
	return t
}

// artifact builds an artifact from the spec's fields.
func artifact(id, typ, title, info, status, command, content string) conversation.Artifact {
	a := conversation.Artifact{Type: artifactType(typ), Title: strings.TrimSpace(title), Content: loose.StripDataURLs(content)}
	var desc []string
	if info = strings.TrimSpace(info); info != "" {
		desc = append(desc, info)
	}
	if command = strings.TrimSpace(command); command != "" {
		desc = append(desc, "command: "+command)
	}
	if status = strings.TrimSpace(status); status != "" && status != "visible" {
		desc = append(desc, "status: "+status)
	}
	if id = strings.TrimSpace(id); id != "" && a.Title == "" {
		a.Title = id
	}
	a.Description = strings.Join(desc, "; ")
	return a
}

// parseTimestamp reads the timestamp text of the Text and XML exports
// (epoch milliseconds as digits, or any layout loose knows).
func parseTimestamp(s string) time.Time {
	t, _ := loose.ParseTime(s)
	return t
}
