package studio

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/convsearch/convsearch/parsers"
)

// The Text export has had three shapes, all read by one line machine:
//
//   - per root, a `Content-Type: multipart/mixed; boundary="B"` preamble; a
//     text/plain part with User-Id, Hash, Timestamp and E-Tag (the id)
//     headers, a blank line and the content; attachment parts
//     (Content-Disposition: attachment, the URL in Content-Location or
//     Content-Data); and per reply a `Content-Disposition: reply; to=<parent>`
//     part holding the reply's own multipart block — or, in files written
//     while the exporter forgot an await, the literal `[object Promise]`.
//   - the export worker's: one outer multipart, each comment a nested
//     multipart with Id, Type and Parent-Id headers, attachment URLs in the
//     part body, replies as nested multiparts.
//   - the earliest: no preamble, `User-Id`, `Hash`, `Timestamp` lines, a
//     blank line and the content, replies indented by one tab per level, and
//     a multipart block only for comments with attachments. It has no ids.

// textParser holds the state of the line machine.
type textParser struct {
	path   string
	res    *parsers.Result
	roots  []*node
	byID   map[string]*node
	frames []*frame // open multipart sections, innermost last
	part   *part    // the part being read; nil in a preamble or outside any section
	line   int

	// The earliest export, outside multipart sections.
	legacy      *node
	legacyState int
	legacyDepth int
	legacyBody  []string
	legacyStack []legacyLevel

	studio bool // saw a header or section of this format
}

const (
	legacyNone = iota
	legacyHeaders
	legacyBodyState
	legacyDone
)

type legacyLevel struct {
	depth int
	n     *node
}

// frame is one multipart section.
type frame struct {
	boundary string
	// owner is the comment the section belongs to: the one its text part
	// described, or the early export's comment whose headers preceded it.
	owner *node
	// parent is the comment the owner answers; parentRef the id a reply
	// part named when that comment is not in the file.
	parent    *node
	parentRef string
	// outer is the part the section was opened in, read on when it closes.
	outer *part
	line  int
	// pending holds attachments met before the section's comment.
	pending []attachmentPart
}

type attachmentPart struct{ name, typ, url string }

// part is one part of a section.
type part struct {
	frame   *frame
	line    int
	inBody  bool
	headers map[string]string
	comment bool // has comment headers
	body    []string
	nested  bool // a multipart section was opened inside it
	done    bool
}

func parseText(ctx context.Context, path string, r io.Reader, res *parsers.Result) ([]*node, error) {
	p := &textParser{path: path, res: res, byID: map[string]*node{}}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		// ReadString has no line-length cap: a Content-Location line holds
		// a whole data URL.
		raw, err := br.ReadString('\n')
		if len(raw) > 0 {
			p.line++
			if p.line%4096 == 0 {
				if cerr := ctx.Err(); cerr != nil {
					return nil, cerr
				}
			}
			p.feed(strings.TrimRight(raw, "\r\n"))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, parsers.ReadError(path, err)
		}
	}
	p.finish()
	if !p.studio {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "not a Conversation Studio text export: no multipart section or User-Id header")
	}
	return p.roots, nil
}

// header splits a "Name: value" line. Names are MIME tokens.
func header(t string) (name, value string, ok bool) {
	i := strings.IndexByte(t, ':')
	if i <= 0 {
		return "", "", false
	}
	for _, c := range t[:i] {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", "", false
		}
	}
	return strings.ToLower(t[:i]), strings.TrimSpace(t[i+1:]), true
}

// multipartBoundary returns the boundary a `Content-Type: multipart/...`
// line declares.
func multipartBoundary(t string) (string, bool) {
	name, value, ok := header(t)
	if !ok || name != "content-type" || !strings.HasPrefix(strings.ToLower(value), "multipart/") {
		return "", false
	}
	b, ok := param(value, "boundary")
	return b, ok && b != ""
}

// param returns the value of key in a header value's `; key=value` list.
func param(value, key string) (string, bool) {
	for _, f := range strings.Split(value, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(f), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.Trim(strings.TrimSpace(v), `"`), true
		}
	}
	return "", false
}

// boundaryLine finds the open section a `--B` or `--B--` line belongs to,
// innermost first.
func (p *textParser) boundaryLine(t string) (idx int, closing bool, ok bool) {
	if !strings.HasPrefix(t, "--") {
		return 0, false, false
	}
	for i := len(p.frames) - 1; i >= 0; i-- {
		b := "--" + p.frames[i].boundary
		switch t {
		case b:
			return i, false, true
		case b + "--":
			return i, true, true
		}
	}
	return 0, false, false
}

func (p *textParser) feed(line string) {
	t := strings.TrimSpace(line)
	if i, closing, ok := p.boundaryLine(t); ok {
		p.endPart()
		// Sections left open inside this one end with it.
		for len(p.frames) > i+1 {
			p.closeFrame()
			p.endPart()
		}
		if closing {
			p.closeFrame()
			return
		}
		p.part = &part{frame: p.frames[i], line: p.line, headers: map[string]string{}}
		return
	}
	if b, ok := multipartBoundary(t); ok && p.canOpen() {
		p.openFrame(b)
		return
	}
	if p.part != nil {
		p.partLine(line, t)
		return
	}
	if len(p.frames) > 0 {
		return // a preamble: nothing a person wrote
	}
	p.legacyLine(line, t)
}

// canOpen reports whether a multipart declaration here opens a section
// rather than being text of a comment.
func (p *textParser) canOpen() bool {
	switch {
	case p.part != nil:
		// In a part's headers (a reply or the worker's nested comment), or
		// in the body of a part that holds no comment text.
		return !p.part.inBody || !p.part.comment && p.part.headers["content-disposition"] != "" && !isAttachment(p.part)
	case len(p.frames) > 0:
		return true
	}
	return p.legacyState != legacyBodyState
}

func (p *textParser) openFrame(boundary string) {
	p.studio = true
	f := &frame{boundary: boundary, outer: p.part, line: p.line}
	switch {
	case p.part != nil:
		p.part.nested = true
		f.parent = p.part.frame.owner
		if to, ok := replyTo(p.part); ok {
			if n := p.byID[to]; n != nil {
				f.parent = n
			} else if f.parent == nil || f.parent.id != to {
				f.parent, f.parentRef = nil, to
			}
		}
		if f.parent == nil && f.parentRef == "" {
			f.parent = p.part.frame.parent
		}
	case len(p.frames) > 0:
		// A declaration in a preamble: treat as nested in the section's
		// comment.
		f.parent = p.frames[len(p.frames)-1].owner
	case p.legacy != nil && p.legacyState == legacyHeaders:
		// The early export: the comment's headers came first; the section
		// holds its text and attachments.
		f.owner = p.legacy
		p.legacyState = legacyDone
	}
	p.frames = append(p.frames, f)
	p.part = nil
}

func (p *textParser) closeFrame() {
	f := p.frames[len(p.frames)-1]
	p.frames = p.frames[:len(p.frames)-1]
	p.flushPending(f)
	p.part = f.outer
	if p.part != nil {
		p.part.inBody = true
	}
}

// flushPending gives attachments met before any comment to the section's
// comment, or reports them.
func (p *textParser) flushPending(f *frame) {
	if len(f.pending) == 0 {
		return
	}
	if f.owner != nil {
		for _, a := range f.pending {
			f.owner.atts = append(f.owner.atts, attachment(a.name, a.typ, a.url))
		}
	} else {
		for _, a := range f.pending {
			p.res.Warn(parsers.Errorf(p.path, f.line, parsers.ErrShape, "attachment %q belongs to no comment", a.name))
		}
	}
	f.pending = nil
}

func (p *textParser) partLine(line, t string) {
	pt := p.part
	if !pt.inBody {
		if t == "" {
			if len(pt.headers) > 0 {
				pt.inBody = true
			}
			return
		}
		if name, value, ok := header(t); ok {
			pt.headers[name] = value
			switch name {
			case "user-id", "hash", "timestamp", "e-tag", "id", "type", "parent-id":
				pt.comment = true
				p.studio = true
			}
			return
		}
		// Text where headers should go on: the part's body starts without
		// its blank line (`[object Promise]` right after a reply header).
		pt.inBody = true
	}
	if isAttachment(pt) {
		// The worker writes the URL as the body: keep only the first line,
		// which is all a data URL takes.
		if len(pt.body) == 0 && t != "" {
			pt.body = append(pt.body, t)
		}
		return
	}
	pt.body = append(pt.body, line)
}

func isAttachment(pt *part) bool {
	d := strings.ToLower(pt.headers["content-disposition"])
	return strings.HasPrefix(d, "attachment") || strings.HasPrefix(d, "inline") ||
		(!pt.comment && (pt.headers["content-location"] != "" || pt.headers["content-data"] != ""))
}

func replyTo(pt *part) (string, bool) {
	d := pt.headers["content-disposition"]
	if !strings.HasPrefix(strings.ToLower(d), "reply") {
		return "", false
	}
	to, _ := param(d, "to")
	return to, true
}

// endPart files the part being read: a comment, an attachment, or a reply
// whose comments are missing.
func (p *textParser) endPart() {
	pt := p.part
	p.part = nil
	if pt == nil || pt.done {
		return
	}
	pt.done = true
	f := pt.frame
	body := strings.TrimSpace(strings.Join(pt.body, "\n"))
	switch {
	case pt.comment:
		n := &node{
			id:       pt.headers["e-tag"],
			userID:   pt.headers["user-id"],
			typ:      pt.headers["type"],
			ts:       parseTimestamp(pt.headers["timestamp"]),
			content:  body,
			hash:     pt.headers["hash"],
			parentID: pt.headers["parent-id"],
		}
		if n.id == "" {
			n.id = pt.headers["id"]
		}
		// The nesting is the truth; a Parent-Id header only places a
		// comment whose section is not nested in its parent's.
		parent := f.parent
		if parent == nil && n.parentID != "" {
			parent = p.byID[n.parentID]
		}
		if parent == nil && n.parentID == "" {
			n.parentID = f.parentRef
		}
		add(&p.roots, parent, n)
		if n.id != "" {
			if _, dup := p.byID[n.id]; !dup {
				p.byID[n.id] = n
			}
		}
		if f.owner == nil {
			f.owner = n
		}
		p.flushPending(f)
	case isAttachment(pt):
		name, _ := param(pt.headers["content-disposition"], "filename")
		url := pt.headers["content-location"]
		if url == "" {
			url = pt.headers["content-data"]
		}
		if url == "" {
			url = body
		}
		typ := pt.headers["content-type"]
		if f.owner == nil {
			f.pending = append(f.pending, attachmentPart{name, typ, url})
			return
		}
		f.owner.atts = append(f.owner.atts, attachment(name, typ, url))
	default:
		if to, ok := replyTo(pt); ok {
			if !pt.nested {
				p.res.Warn(parsers.Errorf(p.path, pt.line, parsers.ErrShape,
					"reply to %s holds %q instead of its comments (an exporter bug): those replies are not in the file", to, firstLine(body, 40)))
			}
			return
		}
		if pt.nested {
			return
		}
		if f.owner != nil && f.owner.content == "" {
			// The early export's text part: the content of the comment
			// whose headers came before the section.
			f.owner.content = body
			return
		}
		if body != "" {
			// Text with no comment headers: keep it as a comment rather
			// than lose it.
			n := &node{content: body}
			add(&p.roots, f.parent, n)
			if f.owner == nil {
				f.owner = n
			}
		}
	}
}

// legacyLine reads a line outside any multipart section: the earliest
// export's comments.
func (p *textParser) legacyLine(line, t string) {
	if name, value, ok := header(t); ok && name == "user-id" && p.legacyState != legacyHeaders {
		p.endLegacy()
		p.studio = true
		depth := len(line) - len(strings.TrimLeft(line, "\t"))
		n := &node{userID: value}
		for len(p.legacyStack) > 0 && p.legacyStack[len(p.legacyStack)-1].depth >= depth {
			p.legacyStack = p.legacyStack[:len(p.legacyStack)-1]
		}
		var parent *node
		if len(p.legacyStack) > 0 {
			parent = p.legacyStack[len(p.legacyStack)-1].n
		}
		add(&p.roots, parent, n)
		p.legacyStack = append(p.legacyStack, legacyLevel{depth: depth, n: n})
		p.legacy, p.legacyState, p.legacyDepth = n, legacyHeaders, depth
		return
	}
	switch p.legacyState {
	case legacyHeaders:
		if t == "" {
			p.legacyState = legacyBodyState
			return
		}
		if name, value, ok := header(t); ok {
			switch name {
			case "hash":
				p.legacy.hash = value
			case "timestamp":
				p.legacy.ts = parseTimestamp(value)
			case "e-tag", "id":
				p.legacy.id = value
			case "type":
				p.legacy.typ = value
			case "parent-id":
				p.legacy.parentID = value
			}
			return
		}
		p.legacyState = legacyBodyState
		fallthrough
	case legacyBodyState:
		// The exporter indented only the first line of the content.
		for i := 0; i < p.legacyDepth && strings.HasPrefix(line, "\t"); i++ {
			line = line[1:]
		}
		p.legacyBody = append(p.legacyBody, line)
	}
}

func (p *textParser) endLegacy() {
	if p.legacy != nil && p.legacyState == legacyBodyState {
		p.legacy.content = strings.TrimSpace(strings.Join(p.legacyBody, "\n"))
	}
	p.legacyBody = nil
	p.legacyState = legacyNone
}

// finish files what is still open at the end of the file.
func (p *textParser) finish() {
	p.endPart()
	if len(p.frames) > 0 {
		p.res.Warn(parsers.Errorf(p.path, p.frames[0].line, parsers.ErrSyntax, "multipart section %q is never closed (file cut short?)", p.frames[0].boundary))
	}
	for len(p.frames) > 0 {
		p.closeFrame()
		p.endPart()
	}
	p.endLegacy()
}
