package cursor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/blocks"
	"github.com/convsearch/convsearch/parsers/loose"
)

// tline is one line of a JSON Lines transcript: a message
// {"role", "message": {"content": …}} (or with content at the top), or a
// marker {"type": "turn_ended", "status", "error"} / {"type": "metadata"}.
// Fields are raw so a value of an unexpected type spoils only itself.
type tline struct {
	Role     json.RawMessage `json:"role"`
	Type     json.RawMessage `json:"type"`
	Message  json.RawMessage `json:"message"`
	Content  json.RawMessage `json:"content"`
	Status   json.RawMessage `json:"status"`
	Error    json.RawMessage `json:"error"`
	Metadata json.RawMessage `json:"metadata"`
}

// tbuilder gathers a transcript's messages into a conversation.
type tbuilder struct {
	path     string
	res      parsers.Result
	msgs     []conversation.Message
	overview string
	// foreign counts records of a type Cursor does not write, with no
	// role: a file of them and no message is another tool's, and says so.
	foreign int
}

// transcriptConversation names and dates the conversation of a transcript:
// its id is the file's session id (the file name, which Cursor gives the
// session's uuid) with /transcript appended.
func (b *tbuilder) finish() *parsers.Result {
	if len(b.msgs) == 0 {
		if b.foreign > 0 {
			b.res.Warn(parsers.Errorf(b.path, 0, parsers.ErrShape, "no message in %d records of types Cursor does not write: another tool's file?", b.foreign))
		}
		return &b.res
	}
	stem := strings.TrimSuffix(filepath.Base(b.path), filepath.Ext(b.path))
	sub := filepath.Base(filepath.Dir(b.path)) == "subagents"
	c := &conversation.Conversation{ID: stem + "/transcript", Source: AgentName, File: b.path, Messages: b.msgs}
	for i := range c.Messages {
		c.Messages[i].Sidechain = sub
	}
	c.Renumber()
	c.Title = firstPromptTitle(c.Messages)
	if b.overview != "" {
		c.Summaries = []string{b.overview}
		if c.Title == "" {
			c.Title = loose.Shorten(b.overview, titleRunes)
		}
	}
	c.Date, c.Updated = conversation.Span(c.Messages)
	c.Project = projectSlug(b.path)
	b.res.Conversations = append(b.res.Conversations, c)
	return &b.res
}

// projectSlug is the <workspace slug> of .../projects/<slug>/agent-transcripts/.
func projectSlug(path string) string {
	p := filepath.ToSlash(path)
	i := strings.Index(p, "/agent-transcripts/")
	if i < 0 {
		return ""
	}
	dir := p[:i]
	if filepath.Base(filepath.Dir(dir)) != "projects" {
		return ""
	}
	return filepath.Base(dir)
}

// firstPromptTitle is the title derived from the first visible user message.
func firstPromptTitle(msgs []conversation.Message) string {
	for _, m := range msgs {
		if m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
			return loose.Title(m.Content, titleRunes)
		}
	}
	return ""
}

func parseJSONL(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b := &tbuilder{path: path}
	lines := loose.Lines{Path: path, Res: &b.res}
	err := loose.EachLine(ctx, path, r, func(n int, data []byte) {
		var l tline
		if lines.Decode(n, data, &l) {
			b.line(n, &l)
		}
	})
	if err != nil {
		return nil, err
	}
	return b.finish(), nil
}

func (b *tbuilder) line(n int, l *tline) {
	role := loose.String(l.Role)
	if role == "" {
		switch loose.String(l.Type) {
		case "turn_ended":
			b.turnEnded(l)
		case "metadata":
			var md struct {
				Overview json.RawMessage `json:"overview"`
			}
			if json.Unmarshal(l.Metadata, &md) == nil {
				if s := strings.TrimSpace(loose.String(md.Overview)); s != "" {
					b.overview = loose.Clean(s)
				}
			}
		case "":
			b.res.Warn(parsers.Errorf(b.path, n, parsers.ErrShape, "line has neither a role nor a type: skipped"))
		default:
			b.foreign++
		}
		// Other record types carry no message.
		return
	}
	content := l.Content
	if !loose.IsNull(l.Message) {
		var inner struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(l.Message, &inner); err != nil {
			b.res.Warn(parsers.Errorf(b.path, n, parsers.ErrShape, "message is not an object: skipped"))
			return
		}
		content = inner.Content
	}
	b.msgs = append(b.msgs, b.message(role, content)...)
}

// turnEnded marks how a turn ended: an aborted turn's last message is
// cancelled; an error is kept as a hidden system message.
func (b *tbuilder) turnEnded(l *tline) {
	switch loose.String(l.Status) {
	case "aborted", "cancelled":
		if len(b.msgs) > 0 {
			b.msgs[len(b.msgs)-1].Cancelled = true
		}
	case "error":
		text := strings.TrimSpace(loose.String(l.Error))
		if text == "" {
			text = "the turn ended with an error"
		}
		b.msgs = append(b.msgs, conversation.Message{Role: conversation.RoleSystem, Content: loose.Clean(text), Hidden: true})
	}
}

// message turns one line's content into its messages: usually one; a user
// turn with context around its query gives the context as a hidden message
// first.
func (b *tbuilder) message(role string, content json.RawMessage) []conversation.Message {
	m := agentMessage(role)
	var text, thinking []string
	bs := blocks.Decode(content)
	onlyResults := len(bs) > 0
	for _, bl := range bs {
		switch typ := loose.String(bl.Type); typ {
		case "text", "":
			text = append(text, loose.String(bl.Text))
			onlyResults = false
		case "thinking", "reasoning", "redacted_thinking":
			t := loose.String(bl.Thinking)
			if t == "" {
				t = loose.String(bl.Text)
			}
			if strings.TrimSpace(t) != "" {
				thinking = append(thinking, t)
			}
			onlyResults = false
		case "tool_use":
			m.ToolCalls = append(m.ToolCalls, conversation.ToolCall{
				ID: loose.String(bl.ID), Name: loose.String(bl.Name), Arguments: loose.Clean(loose.String(bl.Input)),
			})
			onlyResults = false
		case "tool_result":
			m.ToolResults = append(m.ToolResults, conversation.ToolResult{
				CallID: loose.String(bl.ToolUseID), Content: loose.Clean(resultText(bl.Content)), IsError: loose.Bool(bl.IsError),
			})
		case "image":
			m.Attachments = append(m.Attachments, imageAttachment(bl))
			onlyResults = false
		default:
			onlyResults = false
		}
	}
	if onlyResults && m.Role == conversation.RoleUser {
		m.Role = conversation.RoleTool
	}
	m.Content, m.Thinking = joinText(text), joinText(thinking)
	return withPrompt(m)
}

// resultText reads a tool result's content: a string, or blocks of text.
func resultText(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '[' {
		var parts []blocks.Block
		if json.Unmarshal(t, &parts) == nil {
			var out []string
			for _, p := range parts {
				switch loose.String(p.Type) {
				case "text":
					out = append(out, loose.String(p.Text))
				case "image":
					a := imageAttachment(p)
					out = append(out, "["+a.Type+" image]")
				}
			}
			return strings.Join(out, "\n")
		}
	}
	return loose.String(raw)
}

// imageAttachment describes an inline image by its type and size only; the
// payload is never kept.
func imageAttachment(b blocks.Block) conversation.Attachment {
	a := blocks.Attachment("image", b)
	if a.Name == "" {
		a.Name = "image"
	}
	return a
}

// roleLine returns the role a line of a text transcript opens ("user",
// "assistant"), or "".
func roleLine(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "user:":
		return "user"
	case "assistant:", "a:":
		return "assistant"
	}
	return ""
}

// parseText reads the older plain-text transcript: turns opened by "user:"
// or "assistant:" ("A:") lines; in an assistant turn, "[Thinking] …",
// "[Tool call] Name" (arguments on the lines after it) and "[Tool result]
// Name" (its output after it) sections.
func parseText(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b := &tbuilder{path: path}
	br := bufio.NewReaderSize(r, 64<<10)
	var cur *textTurn
	flush := func() {
		if cur != nil {
			b.msgs = append(b.msgs, cur.messages()...)
		}
		cur = nil
	}
	for n := 1; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, parsers.Wrap(path, n, err)
			}
		}
		line, err := br.ReadString('\n')
		if n == 1 {
			line = strings.TrimPrefix(line, "\xef\xbb\xbf")
		}
		if line != "" {
			line = strings.TrimRight(line, "\r\n")
			if role := roleLine(line); role != "" {
				flush()
				cur = &textTurn{role: role}
			} else if cur != nil {
				cur.add(line)
			} else if strings.TrimSpace(line) != "" {
				b.res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "text before the first turn: skipped"))
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, parsers.Wrap(path, n, err)
		}
	}
	flush()
	return b.finish(), nil
}

// textTurn is one turn of a text transcript being read.
type textTurn struct {
	role     string
	section  string // "", "thinking", "call", "result"
	text     []string
	thinking []string
	calls    []conversation.ToolCall
	results  []conversation.ToolResult
	args     []string
	out      []string
}

func (t *textTurn) close() {
	switch t.section {
	case "call":
		if len(t.calls) > 0 {
			t.calls[len(t.calls)-1].Arguments = joinText(t.args)
		}
	case "result":
		if len(t.results) > 0 {
			t.results[len(t.results)-1].Content = joinText(t.out)
		}
	}
	t.args, t.out, t.section = nil, nil, ""
}

func (t *textTurn) add(line string) {
	switch {
	case strings.HasPrefix(line, "[Tool call] "):
		t.close()
		t.section = "call"
		t.calls = append(t.calls, conversation.ToolCall{Name: strings.TrimSpace(line[len("[Tool call] "):])})
	case strings.HasPrefix(line, "[Tool result] "):
		t.close()
		t.section = "result"
		t.results = append(t.results, conversation.ToolResult{Name: strings.TrimSpace(line[len("[Tool result] "):])})
	case strings.HasPrefix(line, "[Thinking]"):
		t.close()
		t.section = "thinking"
		t.thinking = append(t.thinking, strings.TrimSpace(line[len("[Thinking]"):]))
	default:
		switch t.section {
		case "call":
			t.args = append(t.args, strings.TrimPrefix(line, "  "))
		case "result":
			t.out = append(t.out, line)
		case "thinking":
			t.thinking = append(t.thinking, line)
		default:
			t.text = append(t.text, line)
		}
	}
}

func (t *textTurn) messages() []conversation.Message {
	t.close()
	m := agentMessage(t.role)
	m.Content, m.Thinking = joinText(t.text), joinText(t.thinking)
	m.ToolCalls, m.ToolResults = t.calls, t.results
	return withPrompt(m)
}
