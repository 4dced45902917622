package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/convsearch/convsearch/conversation"
)

// View is a page of a conversation as the search page shows it
// (GET /api/conversations/{id}/view): its messages' text rendered from
// Markdown to sanitised HTML, tool calls with a one-line preview.
type View struct {
	ID        string                  `json:"id"`
	Title     string                  `json:"title"`
	Source    string                  `json:"source"`
	File      string                  `json:"file"`
	Date      time.Time               `json:"date,omitzero"`
	Project   string                  `json:"project,omitempty"`
	Topics    []conversation.Topic    `json:"topics,omitempty"`
	Decisions []conversation.Decision `json:"decisions,omitempty"`
	FromIndex bool                    `json:"from_index,omitempty"`
	// Total is the number of messages; Offset the position of the first
	// one sent.
	Total    int           `json:"total"`
	Offset   int           `json:"offset"`
	Messages []ViewMessage `json:"messages"`
	// Focus is the message a hit's id points at (as in Loaded), when the
	// conversation was asked for by a hit's id.
	Focus *int `json:"focus,omitempty"`
}

// ViewMessage is a message with its text rendered. Content and Thinking
// (in the embedded Message) stay as the raw text, for copy and export.
type ViewMessage struct {
	conversation.Message
	HTML         string     `json:"html,omitempty"`
	ThinkingHTML string     `json:"thinking_html,omitempty"`
	Tools        []ToolView `json:"tools,omitempty"`
}

// ToolView is a tool call or result, folded on the page behind Preview.
type ToolView struct {
	Kind    string `json:"kind"` // call or result
	Name    string `json:"name"`
	Preview string `json:"preview,omitempty"`
	Text    string `json:"text"`
	IsError bool   `json:"is_error,omitempty"`
}

// Paging bounds of the view: a page holds at most maxViewPage messages.
const (
	defaultViewPage = 100
	maxViewPage     = 500
)

func (h *handler) view(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	p, err := parsePage(v, defaultViewPage, maxViewPage, "around")
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	around, err := indexParam(v, "around", -1)
	if err != nil {
		writeBadRequest(w, err)
		return
	}
	if v.Has("around") && v.Has("offset") {
		// around places the page itself: the offset would be dropped.
		writeBadRequest(w, errors.New("give offset or around, not both"))
		return
	}
	c, fromIndex, focus, ok := h.loadHit(w, r)
	if !ok {
		return
	}
	if focus >= 0 && !v.Has("around") && !v.Has("offset") {
		// A hit's id: the page around the hit, as GET
		// /api/conversations/{hit id} opens at it.
		around = focus
	}
	// An offset or a message past the end is refused, as for the page of
	// messages: an empty page would look like a conversation without
	// them. The page opens a link to a message the file has since lost at
	// the conversation's end itself.
	if err := pastLast("offset", p.Offset, c); err != nil {
		writeBadRequest(w, err)
		return
	}
	if around > 0 && around >= len(c.Messages) {
		writeBadRequest(w, noMessage(around, c))
		return
	}
	if around >= 0 {
		// The page is centred on the message asked for (by its index,
		// which is its position).
		p.Offset = max(around-p.Limit/2, 0)
	}
	view := viewOf(c, fromIndex, p)
	if focus >= 0 {
		view.Focus = &focus
	}
	writeJSON(w, http.StatusOK, view)
}

// viewOf renders the messages of page p of c.
func viewOf(c *conversation.Conversation, fromIndex bool, p Page) *View {
	l := PageOf(c, fromIndex, p)
	v := &View{ID: c.ID, Title: c.Title, Source: c.Source, File: c.File, Date: c.Date, Project: c.Project,
		Topics: c.Topics, Decisions: c.Decisions, FromIndex: fromIndex, Total: l.MessageCount, Offset: l.Offset}
	v.Messages = make([]ViewMessage, 0, len(l.Conversation.Messages))
	for _, m := range l.Conversation.Messages {
		vm := ViewMessage{Message: m, HTML: Markdown(m.Content), ThinkingHTML: Markdown(m.Thinking)}
		for _, tc := range m.ToolCalls {
			vm.Tools = append(vm.Tools, ToolView{Kind: "call", Name: tc.Name, Preview: callPreview(tc.Arguments), Text: tc.Arguments})
		}
		for _, tr := range m.ToolResults {
			vm.Tools = append(vm.Tools, ToolView{Kind: "result", Name: tr.Name, Preview: firstLine(tr.Content), Text: tr.Content, IsError: tr.IsError})
		}
		vm.ToolCalls, vm.ToolResults = nil, nil // sent once, as Tools
		v.Messages = append(v.Messages, vm)
	}
	return v
}

// previewKeys are the arguments that say most about a tool call, best
// first: the file it reads, the command it runs, what it looks for.
var previewKeys = []string{"file_path", "path", "notebook_path", "command", "cmd", "query", "pattern", "url", "description", "prompt", "filename", "file"}

// maxPreview bounds a preview, in characters.
const maxPreview = 120

// callPreview returns a tool call's main argument, or else its first
// string argument by name (not map order: the same call must show the same
// preview on every load).
func callPreview(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return firstLine(args)
	}
	for _, k := range previewKeys {
		if s := previewValue(m[k]); s != "" {
			return s
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if s := previewValue(m[k]); s != "" {
			return s
		}
	}
	return ""
}

func previewValue(v any) string {
	switch t := v.(type) {
	case string:
		return firstLine(t)
	case []any:
		// A command given as its words.
		var words []string
		for _, w := range t {
			if s, ok := w.(string); ok {
				words = append(words, s)
			}
		}
		return firstLine(strings.Join(words, " "))
	}
	return ""
}

// firstLine returns the first non-blank line of s, clipped to maxPreview
// runes. It reads only as far as it keeps: a tool result may be a
// megabyte on one line, and every page renders a preview of each.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			n := 0
			for i := range line {
				if n == maxPreview {
					return line[:i] + "…"
				}
				n++
			}
			return line
		}
	}
	return ""
}

// maxMarkdown bounds the text rendered as Markdown: longer text is shown
// as plain preformatted text, which costs nothing to render.
const maxMarkdown = 256 << 10

// Markdown renders untrusted Markdown to HTML safe to put in the page:
// raw HTML is dropped (goldmark without WithUnsafe), dangerous link
// schemes are dropped, images become links (nothing remote loads without
// a click), code is highlighted with classes (the page's CSP forbids
// inline styles); then sanitize keeps only the tags and attributes the
// page needs, so a bug in either layer alone lets nothing in.
func Markdown(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	if len(text) > maxMarkdown {
		return "<pre>" + htmlEscape(text) + "</pre>"
	}
	md := markdown()
	var buf bytes.Buffer
	if err := md.Convert([]byte(text), &buf); err != nil {
		return "<pre>" + htmlEscape(text) + "</pre>"
	}
	return sanitize(buf.String())
}

func htmlEscape(s string) string {
	return string(util.EscapeHTML([]byte(s)))
}

// markdown is built once: it is safe for concurrent use once built, and
// building it is the costly part.
var (
	markdown = sync.OnceValue(func() goldmark.Markdown {
		return goldmark.New(
			goldmark.WithExtensions(extension.GFM),
			goldmark.WithRendererOptions(
				gmhtml.WithHardWraps(), // chat text breaks lines where it means to
				renderer.WithNodeRenderers(util.Prioritized(&pageRenderer{}, 100)),
			),
		)
	})
)

// pageRenderer renders code blocks highlighted and images as links.
type pageRenderer struct{}

func (r *pageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.code)
	reg.Register(ast.KindCodeBlock, r.code)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(ast.KindRawHTML, r.rawHTML)
}

// htmlBlock shows an HTML block as the text it is: dropping it (goldmark's
// safe default) would hide what was written, as in a question about HTML.
func (r *pageRenderer) htmlBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := nodeText(n, source)
	if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
		b.Write(hb.ClosureLine.Value(source))
	}
	_, _ = w.WriteString(`<p class="raw-html">`)
	_, _ = w.WriteString(strings.ReplaceAll(htmlEscape(strings.TrimRight(b.String(), "\n")), "\n", "<br>\n"))
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// nodeText is a block node's lines as they were written.
func nodeText(n ast.Node, source []byte) *bytes.Buffer {
	var b bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(source))
	}
	return &b
}

// rawHTML shows inline HTML as text, for the same reason.
func (r *pageRenderer) rawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	raw := n.(*ast.RawHTML)
	for i := 0; i < raw.Segments.Len(); i++ {
		seg := raw.Segments.At(i)
		_, _ = w.WriteString(htmlEscape(string(seg.Value(source))))
	}
	return ast.WalkSkipChildren, nil
}

// maxHighlight bounds the code highlighted: chroma's cost grows with it,
// and a huge block is read by scrolling, not by colour.
const maxHighlight = 64 << 10

func (r *pageRenderer) code(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := nodeText(n, source)
	lang := ""
	if fc, ok := n.(*ast.FencedCodeBlock); ok && fc.Info != nil {
		lang = string(fc.Language(source))
	}
	if html, ok := highlight(b.String(), lang); ok {
		_, _ = w.WriteString(html)
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<pre class="code"><code>`)
	_, _ = w.WriteString(htmlEscape(b.String()))
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// classesOnly is the style highlight formats with: with classes, chroma
// names token types and web/code.css colours them, so no theme is needed
// (and chroma's themes, parsed at start, stay out of the binary).
var classesOnly = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// codeFormatter is made once: each formatter works out the style's CSS on
// its first Format and keeps it (under a lock, safe to share), which made
// afresh for every code block was most of the cost of a short one.
var codeFormatter = sync.OnceValue(func() *chromahtml.Formatter {
	return chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(false))
})

// highlight returns code as HTML with chroma's classes, for a language
// named or recognised; false when it knows none.
func highlight(code, lang string) (string, bool) {
	if len(code) > maxHighlight {
		return "", false
	}
	var lx chroma.Lexer
	if lang != "" {
		lx = lexerRegistry().Get(lang)
	}
	if lx == nil {
		lx = lexerRegistry().Analyse(code)
	}
	if lx == nil {
		return "", false
	}
	it, err := chroma.Coalesce(lx).Tokenise(nil, code)
	if err != nil {
		return "", false
	}
	var b bytes.Buffer
	if err := codeFormatter().Format(&b, classesOnly, it); err != nil {
		return "", false
	}
	return b.String(), true
}

// image renders an image as a link to it: loading it would tell its host
// that the conversation was opened.
func (r *pageRenderer) image(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	alt := strings.TrimSpace(string(img.Text(source))) //nolint:staticcheck // the alt text, as plain text
	if alt == "" {
		alt = "image"
	}
	dest := string(img.Destination)
	_, _ = w.WriteString(`<a class="img-link" href="`)
	if !gmhtml.IsDangerousURL(img.Destination) {
		_, _ = w.WriteString(htmlEscape(string(util.URLEscape([]byte(dest), true))))
	}
	_, _ = w.WriteString(`">`)
	_, _ = w.WriteString(htmlEscape(alt))
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}
