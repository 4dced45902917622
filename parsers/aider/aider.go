// Package aider reads aider's chat log, .aider.chat.history.md (or the name
// given with --chat-history-file), which aider appends to in the root of
// each project it runs in. Every launch writes a "# aider chat started at
// YYYY-MM-DD HH:MM:SS" header; after it, aider's InputOutput (aider/io.py)
// writes the user's input with every line prefixed "#### ", its own notices
// and command output prefixed "> ", both ending in two spaces (a Markdown
// line break), and the model's replies as plain Markdown, as they came.
// Each header starts one conversation.
//
// A reply's own "####" headings and "> " quotes are told from the user's
// input and aider's output by those two spaces: inside a reply, a prefixed
// line without them is the reply's. A log with no such line at all (an
// editor stripped trailing spaces, or an aider that never wrote them) is
// read by the prefixes alone, as aider reads it back.
package aider

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Name is the family name, used as Conversation.Source.
const Name = "aider"

// FileName is the chat log's default name (--chat-history-file).
const FileName = ".aider.chat.history.md"

// titleLen is the most runes a title derived from a prompt keeps.
const titleLen = 80

// Parser reads aider chat logs. It holds no state.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns an aider parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "aider chat logs (.aider.chat.history.md in each project, or any --chat-history-file name; one conversation per launch)",
		Detection:   `a file named .aider.chat.history.md whose head holds a "# aider chat started at" header; under any other name, a file whose first line is that header with a YYYY-MM-DD HH:MM:SS time`,
		// aider keeps no central folder: its logs sit in the projects, found
		// under the configured roots.
		Locations: []string{"<project>/.aider.chat.history.md"},
		Version:   2, // 2: "####" headings and "> " quotes inside a reply stay in the reply; a notice of several lines is aider's, all its lines
	}
}

// header is the line aider writes at each launch (io.py: "\n# aider chat
// started at %s\n\n" with time.strftime("%Y-%m-%d %H:%M:%S"), local time).
var header = regexp.MustCompile(`^# aider chat started at (.*?)\s*$`)

// firstHeader is a launch header with aider's time, as the first line of a
// log under another name than aider's default.
var firstHeader = regexp.MustCompile(`^# aider chat started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s*(?:\n|$)`)

// Detect reports whether path is an aider chat log: its name, and a launch
// header among the first lines; or, under any other name (aider's
// --chat-history-file), a launch header as its first line.
// .aider.input.history (the prompt history, "+"-prefixed lines) is not a
// chat log and is never claimed.
func (*Parser) Detect(path string, head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if filepath.Base(path) != FileName {
		return firstHeader.Match(bytes.TrimLeft(head, " \t\r\n"))
	}
	return bytes.HasPrefix(head, []byte("# aider chat started at ")) ||
		bytes.Contains(head, []byte("\n# aider chat started at "))
}

// kind is what a line of the log is.
type kind int

const (
	kindNone kind = iota
	kindUser
	kindTool
	kindText // the assistant's reply, and blank lines
)

// session is one launch being read.
type session struct {
	stamp string    // the header's text
	start time.Time // the header's time, read as UTC
	line  int       // the header's line, 0 before the first header
	msgs  []conversation.Message
	model string
}

type reader struct {
	path string
	res  *parsers.Result
	cur  *session
	kind kind
	buf  []string
	// marked is set once a prefixed line ends in aider's two spaces: from
	// then on, the log is known to carry them.
	marked bool
	// last is the kind of the launch's last line that was not blank.
	last kind
	// notice holds, in a log that carries the two spaces, a "> " line
	// without them and the lines after it, until the block shows whose it
	// is (see add).
	notice []string
}

// add reads a line of the current launch. aider writes a notice of several
// lines (io.py append_chat_history with blockquote and linebreak) with "> "
// before its first line only and the two spaces after its last only: in a
// log that carries them, a "> " line without them opens such a notice when
// a line ending in the two spaces closes its block, before a blank line
// and before any other prefixed line. Such a block is aider's, all of it;
// any other is read line by line.
func (rd *reader) add(line string) {
	if len(rd.notice) > 0 {
		if k, _ := classify(line); k != kindText || strings.TrimSpace(line) == "" {
			rd.endNotice(false)
		} else {
			rd.notice = append(rd.notice, line)
			if strings.HasSuffix(line, "  ") {
				rd.endNotice(true)
			}
			return
		}
	}
	if rd.marked && strings.HasPrefix(line, "> ") && !strings.HasSuffix(line, "  ") {
		rd.notice = []string{line}
		return
	}
	rd.addLine(line)
}

// endNotice ends the block held in rd.notice: aider's notice when notice is
// true, else its lines read one by one.
func (rd *reader) endNotice(notice bool) {
	lines := rd.notice
	rd.notice = nil
	if !notice {
		for _, l := range lines {
			rd.addLine(l)
		}
		return
	}
	for i, l := range lines {
		if i == 0 {
			l = strings.TrimPrefix(l, "> ")
		}
		rd.put(kindTool, strings.TrimRight(l, " "))
	}
	rd.last = kindTool
}

// addLine reads a line that is not part of a notice of several lines.
func (rd *reader) addLine(line string) {
	k, text := classify(line)
	if k == kindUser || k == kindTool {
		switch {
		case strings.HasSuffix(line, "  "):
			rd.marked = true
		case rd.marked && rd.last == kindText:
			// A heading or a quote of the reply: aider writes the
			// reply as it came, without the two spaces.
			k, text = kindText, line
		}
	}
	if strings.TrimSpace(line) != "" {
		rd.last = k
	}
	rd.put(k, text)
}

// put adds text, a line of kind k, to the message being read.
func (rd *reader) put(k kind, text string) {
	if k != rd.kind {
		rd.flush()
		rd.kind = k
	}
	rd.buf = append(rd.buf, text)
}

// Parse reads every launch of the log. Text before the first header (a log
// cut at its start) is read as a launch of its own with no date.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	rd := &reader{path: path, res: &parsers.Result{}, cur: &session{}}
	err := loose.EachTextLine(ctx, path, r, func(n int, raw []byte) {
		line := strings.TrimRight(string(raw), "\r\n")
		if m := header.FindStringSubmatch(line); m != nil {
			rd.endNotice(false)
			rd.flush()
			rd.finish()
			rd.cur = &session{stamp: m[1], line: n}
			rd.last = kindNone
			if t, ok := loose.ParseTime(m[1]); ok {
				rd.cur.start = t
			} else {
				rd.res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "launch header with an unreadable time %q", m[1]))
			}
			return
		}
		rd.add(line)
	})
	rd.endNotice(false)
	if err != nil {
		return nil, err
	}
	rd.flush()
	rd.finish()
	return rd.res, nil
}

// classify sorts a line as aider's own code does when it reads the log
// back (aider/utils.py split_chat_history_markdown): "#### " is the user's
// input, "> " aider's output, anything else the reply. The two spaces aider
// ends its prefixed lines with (a Markdown line break) are dropped; Parse
// uses them first to keep a reply's own headings and quotes in the reply.
func classify(line string) (kind, string) {
	switch {
	case strings.HasPrefix(line, "#### "):
		return kindUser, strings.TrimRight(line[len("#### "):], " ")
	case strings.TrimRight(line, " ") == "####":
		return kindUser, ""
	case strings.HasPrefix(line, "> "):
		return kindTool, strings.TrimRight(line[len("> "):], " ")
	case strings.TrimRight(line, " ") == ">":
		return kindTool, ""
	}
	return kindText, line
}

// modelLine is aider's announcement of the main model, in its wordings
// across versions ("Model: x with whole edit format", "Main model: x
// with …", "Models: x with …, weak model y").
var modelLine = regexp.MustCompile(`^(?:Main model|Model|Models): (\S+)`)

// flush turns the buffered lines into a message.
func (rd *reader) flush() {
	if len(rd.buf) == 0 {
		return
	}
	text := loose.Clean(strings.TrimSpace(strings.Join(rd.buf, "\n")))
	k := rd.kind
	rd.buf = rd.buf[:0]
	if text == "" {
		return // blank lines between blocks
	}
	m := conversation.Message{Content: text}
	switch k {
	case kindUser:
		m.Role = conversation.RoleUser
	case kindTool:
		m.Role = conversation.RoleTool
		if rd.cur.model == "" {
			for _, l := range strings.Split(text, "\n") {
				if mm := modelLine.FindStringSubmatch(l); mm != nil {
					rd.cur.model = strings.TrimSuffix(mm[1], ",")
					break
				}
			}
		}
	default:
		m.Role = conversation.RoleAssistant
		m.Model = rd.cur.model
	}
	rd.cur.msgs = append(rd.cur.msgs, m)
}

// finish adds the current launch as a conversation, when it holds any
// message: a launch aborted before its banner was written holds none.
func (rd *reader) finish() {
	s := rd.cur
	rd.kind = kindNone
	if len(s.msgs) == 0 {
		return
	}
	c := &conversation.Conversation{
		Source:   Name,
		File:     rd.path,
		Date:     s.start,
		Updated:  s.start,
		Model:    s.model,
		Project:  project(rd.path),
		Messages: s.msgs,
	}
	c.Renumber()
	first := firstPrompt(s.msgs)
	key := first
	if key == "" {
		key = s.msgs[0].Content
	}
	// The header's time and the first prompt name a launch wherever the
	// file is; the file's path is no part of the id.
	c.ID = conversationID(s.stamp, key)
	switch {
	case first != "":
		c.Title = loose.Title(first, titleLen)
	case s.stamp != "":
		c.Title = "aider chat started at " + s.stamp
	default:
		c.Title = "aider chat"
	}
	rd.res.AddUnique(c, rd.path, s.line)
}

// conversationID names a launch by its header's text and its first
// prompt (its first message when it has no prompt), dated by the header.
func conversationID(stamp, key string) string {
	start, _ := loose.ParseTime(stamp)
	return conversation.NewID(Name+"\x00"+stamp+"\x00"+key, start)
}

// firstPrompt is the first thing the user asked: the first input that is
// not an in-chat command (/add, /drop, …), else the first input at all.
func firstPrompt(msgs []conversation.Message) string {
	var command string
	for _, m := range msgs {
		if m.Role != conversation.RoleUser {
			continue
		}
		if !strings.HasPrefix(m.Content, "/") {
			return m.Content
		}
		if command == "" {
			command = m.Content
		}
	}
	return command
}

// project names the folder the log sits in: aider writes it in the root of
// the repository it works on.
func project(path string) string {
	dir := filepath.Base(filepath.Dir(path))
	if dir == "." || dir == string(filepath.Separator) {
		return ""
	}
	return dir
}
