package query

import (
	"fmt"
	"html"
	"strings"
	"time"
	"unicode/utf8"

	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/convsearch/convsearch/indexer"
)

// Hit is one matching document.
type Hit struct {
	Kind           string    `json:"kind"`
	ID             string    `json:"id"`
	ConversationID string    `json:"conversation_id"`
	Title          string    `json:"title"`
	Date           time.Time `json:"date,omitzero"`
	Source         string    `json:"source"`
	Project        string    `json:"project,omitempty"`
	File           string    `json:"file"`
	MessageIndex   *int      `json:"message_index,omitempty"`
	Role           string    `json:"role,omitempty"`
	// Author is who wrote a message, when the file names a person
	// (a chat between people).
	Author string  `json:"author,omitempty"`
	Hidden bool    `json:"hidden,omitempty"`
	Score  float64 `json:"score"`
	// Fragments are the matched passages, matched words inside
	// <mark>…</mark>, the rest HTML-escaped: for a web page.
	Fragments []string `json:"fragments,omitempty"`
	// Snippets are the same passages as plain text, with where the
	// matches are: for everything that is not a web page.
	Snippets []Snippet `json:"snippets,omitempty"`
	// Text is the topic's name or the decision; for other kinds, the start
	// of the text when there is no fragment.
	Text      string `json:"text,omitempty"`
	Rationale string `json:"rationale,omitempty"`
	// Count is, with Group, the number of the search's hits in the
	// conversation.
	Count int `json:"count,omitempty"`
	// Sort is the value to pass as Request.After for the next page.
	Sort []string `json:"sort,omitempty"`
	// Context holds the messages around a message hit, when asked for
	// (see Engine.AddContext).
	Context []StoredMessage `json:"context,omitempty"`
}

// FacetCount is one value of a facet and how many hits have it.
type FacetCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Result is the answer to a Request.
type Result struct {
	Query string `json:"query"`
	// Total is the number of matching documents.
	Total  uint64  `json:"total"`
	TookMS float64 `json:"took_ms"`
	Hits   []Hit   `json:"hits"`
	// Facets by type, source, project and role, when asked for.
	Facets map[string][]FacetCount `json:"facets,omitempty"`
	// Relaxed is true when the hits need not hold every word: no document
	// matched every word, or the query was a plain question, ranked by how
	// many of its words (and how rare) each hit holds.
	Relaxed bool `json:"relaxed,omitempty"`
	// More is true, with Group, when more conversations follow this page.
	More bool `json:"more,omitempty"`
	// NextOffset is the Offset of the next page, when one follows within
	// MaxOffset (see NextOffset).
	NextOffset int `json:"next_offset,omitempty"`
}

// NextOffset returns where the page after the first shown hits of res, the
// answer to r, starts: next is the Offset that reads on, and more says
// whether hits follow at all. Grouped, Total counts documents, not
// conversations, so res.More says whether more conversations follow;
// single hits follow while the page ends before Total. A page cut short
// (shown below len(res.Hits)) has more after it. next is 0 when none
// follows, when it would start past MaxOffset (deeper, a search is
// narrowed or paged with After), and with After, whose pages go on from
// their last hit's Sort (more then says only whether the page was cut).
func NextOffset(r Request, res *Result, shown int) (next int, more bool) {
	if shown <= 0 {
		return 0, false
	}
	more = shown < len(res.Hits)
	if len(r.After) > 0 {
		return 0, more
	}
	next = r.Offset + shown
	if r.Group {
		more = more || res.More
	} else {
		more = more || uint64(next) < res.Total
	}
	if !more || next > MaxOffset {
		return 0, more
	}
	return next, true
}

func hitOf(dm *bsearch.DocumentMatch) Hit {
	h := Hit{
		ID:             dm.ID,
		Kind:           str(dm.Fields[indexer.FieldType]),
		ConversationID: str(dm.Fields[indexer.FieldConversationID]),
		Source:         str(dm.Fields[indexer.FieldSource]),
		Project:        str(dm.Fields[indexer.FieldProject]),
		File:           str(dm.Fields[indexer.FieldFile]),
		Role:           str(dm.Fields[indexer.FieldRole]),
		Author:         str(dm.Fields[indexer.FieldAuthor]),
		Hidden:         str(dm.Fields[indexer.FieldHidden]) == "true",
		Title:          str(dm.Fields[indexer.FieldTitle]),
		Rationale:      str(dm.Fields[indexer.FieldRationale]),
		Score:          dm.Score,
	}
	if t, ok := timeOf(dm.Fields[indexer.FieldDate]); ok {
		h.Date = t
	}
	if f, ok := dm.Fields[indexer.FieldMessageIndex].(float64); ok && f >= 0 {
		i := int(f)
		h.MessageIndex = &i
	}
	switch h.Kind {
	case indexer.KindTopic:
		h.Text = str(dm.Fields[indexer.FieldName])
	case indexer.KindDecision:
		h.Text = str(dm.Fields[indexer.FieldDecision])
	}
	// Fragments in the order of the text fields' weight.
	for _, f := range textFields {
		h.Fragments = append(h.Fragments, dm.Fragments[f.name]...)
	}
	for _, f := range h.Fragments {
		h.Snippets = append(h.Snippets, PlainSnippet(f))
	}
	if len(h.Fragments) == 0 && h.Text == "" {
		h.Text = snippet(str(dm.Fields[indexer.FieldContent]), 240)
	}
	return h
}

// snippet returns the start of s, at most n runes, on one line: its words
// joined by single spaces, cut with "…" when there are more. It reads only
// as far as it keeps: s may be a message of a megabyte.
func snippet(s string, n int) string {
	var b strings.Builder
	count := 0 // runes written
	for w := range strings.FieldsSeq(s) {
		if count > 0 {
			w = " " + w
		}
		for len(w) > 0 {
			if count == n {
				// More than fits: n-1 runes and the "…".
				return string([]rune(b.String())[:n-1]) + "…"
			}
			_, size := utf8.DecodeRuneInString(w)
			b.WriteString(w[:size]) // as it is, even when not UTF-8
			w = w[size:]
			count++
		}
	}
	return b.String()
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		parts := make([]string, 0, len(v))
		for _, p := range v {
			parts = append(parts, str(p))
		}
		return strings.Join(parts, ", ")
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, p := range v {
			out = append(out, str(p))
		}
		return out
	}
	return nil
}

func timeOf(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// PlainFragment turns a fragment's markup into plain text with the matched
// words between open and close (e.g. ANSI codes, or « and »).
func PlainFragment(frag, open, close string) string {
	frag = strings.ReplaceAll(frag, "<mark>", "\x00")
	frag = strings.ReplaceAll(frag, "</mark>", "\x01")
	frag = html.UnescapeString(frag)
	frag = strings.ReplaceAll(frag, "\x00", open)
	return strings.ReplaceAll(frag, "\x01", close)
}

// Snippet is a matched passage as plain text.
type Snippet struct {
	Text string `json:"text"`
	// Matches are the matched words as [start, end) offsets into Text,
	// counted in Unicode code points (characters, not bytes).
	Matches [][2]int `json:"matches,omitempty"`
}

// PlainSnippet turns a fragment's markup into a Snippet.
func PlainSnippet(frag string) Snippet {
	var sn Snippet
	var b strings.Builder
	n, open := 0, -1
	for frag != "" {
		i := strings.IndexByte(frag, '<')
		var part, tag string
		switch {
		case i < 0:
			part, frag = frag, ""
		case strings.HasPrefix(frag[i:], "<mark>"):
			part, tag, frag = frag[:i], "<mark>", frag[i+len("<mark>"):]
		case strings.HasPrefix(frag[i:], "</mark>"):
			part, tag, frag = frag[:i], "</mark>", frag[i+len("</mark>"):]
		default:
			part, frag = frag[:i+1], frag[i+1:]
		}
		text := html.UnescapeString(part)
		b.WriteString(text)
		n += utf8.RuneCountInString(text)
		switch {
		case tag == "<mark>":
			open = n
		case tag == "</mark>" && open >= 0:
			if open < n {
				sn.Matches = append(sn.Matches, [2]int{open, n})
			}
			open = -1
		}
	}
	sn.Text = b.String()
	return sn
}

// Clip cuts s to at most n code points, keeping the matches that end
// within them, and reports whether it cut.
func (s Snippet) Clip(n int) (Snippet, bool) {
	if utf8.RuneCountInString(s.Text) <= n {
		return s, false
	}
	r := []rune(s.Text)
	out := Snippet{Text: string(r[:n-1]) + "…"}
	for _, m := range s.Matches {
		if m[1] <= n-1 {
			out.Matches = append(out.Matches, m)
		}
	}
	return out, true
}
