package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// The text renderings of the tools' answers, for clients that give the model
// only the text content: short, plain, and naming the ids and arguments the
// next call needs.

// clip returns s cut to at most n characters, ending with a marker saying
// how many were cut, preferably at a space; cut reports whether it cut.
func clip(s string, n int) (_ string, cut bool) {
	s, _, cut = clipKept(s, n)
	return s, cut
}

// clipKept is clip, also saying how many characters of s it kept.
func clipKept(s string, n int) (_ string, kept int, cut bool) {
	if len(s) <= n { // n bytes hold at least n characters
		return s, utf8.RuneCountInString(s), false
	}
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s, total, false
	}
	// Byte offset of character n, and of the last space in the final tenth
	// before it.
	end, space, i := len(s), -1, 0
	for off, r := range s {
		if i == n {
			end = off
			break
		}
		if i >= n*9/10 && unicode.IsSpace(r) {
			space = off
		}
		i++
	}
	if space > 0 {
		end = space
	}
	kept = utf8.RuneCountInString(s[:end])
	return fmt.Sprintf("%s [… %d more characters cut]", s[:end], total-kept), kept, true
}

func day(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.UTC().Format("2006-01-02")
}

// hitLine is the head of one hit: kind, where, when.
func hitLine(n int, h *query.Hit) string {
	label := h.Kind
	if h.Kind == indexer.KindMessage && h.MessageIndex != nil {
		label = fmt.Sprintf("message #%d, %s", *h.MessageIndex, h.Role)
		if h.Hidden {
			label += ", hidden"
		}
	}
	if h.Count > 1 {
		label += fmt.Sprintf(", %d hits", h.Count)
	}
	title := h.Title
	if title == "" {
		title = "(untitled)"
	}
	return fmt.Sprintf("%d. [%s] %q · %s\n   conversation_id: %s", n, label, conversation.OneLine(title, 100), where(h), h.ConversationID)
}

// where is a hit's tool, day and project: "codex · 2025-03-01 · project
// ledger".
func where(h *query.Hit) string {
	w := h.Source + " · " + day(h.Date)
	if h.Project != "" {
		w += " · project " + h.Project
	}
	return w
}

// hitText is what a hit says: its decision and rationale, or its fragments.
func hitText(h *query.Hit) string {
	var b strings.Builder
	switch {
	case h.Kind == indexer.KindDecision:
		fmt.Fprintf(&b, "   decision: %s", conversation.OneLine(h.Text, 400))
		if h.Rationale != "" {
			fmt.Fprintf(&b, "\n   because: %s", conversation.OneLine(h.Rationale, 400))
		}
	case len(h.Snippets) > 0:
		for i, sn := range h.Snippets {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "   %s", conversation.OneLine(marked(sn, "«", "»"), 300))
		}
	case h.Text != "":
		fmt.Fprintf(&b, "   %s", conversation.OneLine(h.Text, 300))
	}
	return b.String()
}

// marked returns a snippet's text with its matches between open and close.
func marked(sn query.Snippet, open, close string) string {
	r := []rune(sn.Text)
	var b strings.Builder
	at := 0
	for _, m := range sn.Matches {
		if m[0] < at || m[1] > len(r) || m[0] > m[1] {
			continue
		}
		b.WriteString(string(r[at:m[0]]) + open + string(r[m[0]:m[1]]) + close)
		at = m[1]
	}
	b.WriteString(string(r[at:]))
	return b.String()
}

func (t *tools) renderSearch(ctx context.Context, out *searchOutput, offset int, in *searchInput, grouped bool) string {
	var b strings.Builder
	if len(out.Hits) == 0 {
		fmt.Fprintf(&b, "No match for %q", out.Query)
		if offset > 0 {
			fmt.Fprintf(&b, " past offset %d (%d hits in all)", offset, out.Total)
		}
		b.WriteString(".")
		switch n := out.HiddenMatches; {
		case n == 1:
			b.WriteString(" 1 hidden message (injected or procedural: a system prompt, an environment block, a tool's own message) matches; pass include_hidden:true to see it.")
		case n > 1:
			fmt.Fprintf(&b, " %d hidden messages (injected or procedural: system prompts, environment blocks, tools' own messages) match; pass include_hidden:true to see them.", n)
		}
		t.filterHints(ctx, &b, in)
		return b.String()
	}
	if grouped {
		fmt.Fprintf(&b, "%d hits for %q, the best of each conversation; showing conversations %d–%d", out.Total, out.Query, offset+1, offset+len(out.Hits))
	} else {
		fmt.Fprintf(&b, "%d hits for %q; showing %d–%d", out.Total, out.Query, offset+1, offset+len(out.Hits))
	}
	if out.NextOffset > 0 {
		fmt.Fprintf(&b, "; more with offset=%d", out.NextOffset)
	}
	b.WriteString(".\n")
	if out.Relaxed {
		b.WriteString("Nothing matched every word: these match the most of them.\n")
	}
	for i := range out.Hits {
		h := &out.Hits[i]
		b.WriteString("\n" + hitLine(offset+i+1, h))
		if s := hitText(h); s != "" {
			b.WriteString("\n" + s)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nRead around a hit with get_conversation(id=conversation_id, message=<message #>).")
	if grouped {
		b.WriteString(" Every hit in one conversation: search_conversations(query, conversation_id=…, group=false).")
	}
	return b.String()
}

func (t *tools) renderDecisions(ctx context.Context, out *searchOutput, in *decisionsInput) string {
	var b strings.Builder
	if len(out.Hits) == 0 {
		b.WriteString("No decisions found")
		if out.Query != "" {
			fmt.Fprintf(&b, " for %q", out.Query)
		}
		if in.Offset > 0 && out.Total > 0 {
			fmt.Fprintf(&b, " at offset %d: there are %d (offsets 0 to %d)", in.Offset, out.Total, out.Total-1)
		}
		b.WriteString(".")
		t.filterHints(ctx, &b, &searchInput{Project: in.Project})
		return b.String()
	}
	fmt.Fprintf(&b, "%d decisions", out.Total)
	if out.Query != "" {
		fmt.Fprintf(&b, " for %q", out.Query)
	}
	if in.Offset > 0 || uint64(len(out.Hits)) < out.Total {
		fmt.Fprintf(&b, "; showing %d–%d", in.Offset+1, in.Offset+len(out.Hits))
	}
	b.WriteString(".\n")
	if out.NextOffset > 0 {
		// The exact call: an agent repeats it rather than guess arguments.
		next := *in
		next.Offset = out.NextOffset
		fmt.Fprintf(&b, "More: %s (or narrow with query, project, since).\n", listCall("list_decisions", next.Query, next.Project, next.Since, next.Until, next.Limit, next.Offset))
	}
	for i := range out.Hits {
		h := &out.Hits[i]
		fmt.Fprintf(&b, "\n%d. %s\n", in.Offset+i+1, conversation.OneLine(h.Text, 400))
		if h.Rationale != "" {
			fmt.Fprintf(&b, "   because: %s\n", conversation.OneLine(h.Rationale, 400))
		}
		fmt.Fprintf(&b, "   from %q · %s\n   conversation_id: %s", conversation.OneLine(h.Title, 100), where(h), h.ConversationID)
		if h.MessageIndex != nil {
			fmt.Fprintf(&b, ", message %d", *h.MessageIndex)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// renderTopics writes a page of topics; deeper says more topics follow
// past the deepest offset.
func (t *tools) renderTopics(ctx context.Context, out *topicsOutput, in *topicsInput, deeper bool) string {
	var b strings.Builder
	if len(out.Topics) == 0 {
		if in.Offset > 0 {
			fmt.Fprintf(&b, "No topics at offset %d: fewer topics exist (call with offset=0).", in.Offset)
			return b.String()
		}
		b.WriteString("No topics found.")
		t.filterHints(ctx, &b, &searchInput{Project: in.Project})
		return b.String()
	}
	b.WriteString("Topics by number of conversations")
	if in.Offset > 0 || out.NextOffset > 0 {
		fmt.Fprintf(&b, " (%d–%d)", in.Offset+1, in.Offset+len(out.Topics))
	}
	b.WriteString(":\n")
	for _, tc := range out.Topics {
		fmt.Fprintf(&b, "%5d  %s\n", tc.Conversations, tc.Name)
	}
	switch {
	case out.NextOffset > 0:
		fmt.Fprintf(&b, "More: %s\n", listCall("list_topics", "", in.Project, "", "", in.Limit, out.NextOffset))
	case deeper:
		b.WriteString("(more topics exist, deeper than offset can reach)\n")
	}
	return b.String()
}

// listCall is the call of a listing tool with these arguments, those
// given only, strings quoted as JSON.
func listCall(tool, q, project, since, until string, limit *int, offset int) string {
	var args []string
	for _, a := range [][2]string{{"query", q}, {"project", project}, {"since", since}, {"until", until}} {
		if a[1] != "" {
			v, _ := json.Marshal(a[1])
			args = append(args, a[0]+"="+string(v))
		}
	}
	if limit != nil {
		args = append(args, fmt.Sprintf("limit=%d", *limit))
	}
	args = append(args, fmt.Sprintf("offset=%d", offset))
	return tool + "(" + strings.Join(args, ", ") + ")"
}

// indexingNote puts first, in an answer read during the first indexing
// pass, that it may be incomplete: an agent that trusts an empty answer
// would otherwise conclude nothing was ever said.
func indexingNote(indexing bool, text string) string {
	if !indexing {
		return text
	}
	return "Note: convsearch is still indexing the user's conversations (a first pass, or a full rebuild); this answer may miss some. Ask again shortly for a complete one.\n\n" + text
}

func renderRelated(id string, out *searchOutput) string {
	var b strings.Builder
	if len(out.Hits) == 0 {
		return fmt.Sprintf("No conversation related to %s found.", id)
	}
	fmt.Fprintf(&b, "Conversations related to %s, best first:\n", id)
	for i := range out.Hits {
		b.WriteString("\n" + hitLine(i+1, &out.Hits[i]) + "\n")
	}
	return b.String()
}

// filterHints adds, after an empty answer, why a filter may have left
// nothing: a project or source the index does not know (with those it
// does, in case the name was mistyped), or a conversation it does not hold.
func (t *tools) filterHints(ctx context.Context, b *strings.Builder, in *searchInput) {
	if in.Project != "" || in.Source != "" {
		if st, err := t.b.Stats(ctx); err == nil && st != nil {
			known := func(what, value string, counts map[string]uint64, anyCase bool) {
				if value == "" || counts[value] > 0 {
					return
				}
				// As the filter matches: a project in any case (see
				// query.ProjectMatches), a source lowercased.
				if anyCase {
					for n, k := range counts {
						if k > 0 && query.ProjectMatches(n, value) {
							return
						}
					}
				}
				names := make([]string, 0, len(counts))
				for n := range counts {
					if n != "" {
						names = append(names, n)
					}
				}
				sort.Strings(names)
				if len(names) > 30 {
					names = append(names[:30], "…")
				}
				fmt.Fprintf(b, " No conversation has %s %q; %ss in the index: %s.", what, value, what, strings.Join(names, ", "))
			}
			known("project", strings.TrimSpace(in.Project), st.ByProject, true)
			known("source", strings.ToLower(strings.TrimSpace(in.Source)), st.BySource, false)
		}
	}
	if id := strings.TrimSpace(in.ConversationID); id != "" {
		// One document looked up: loading the conversation would read its
		// file again only to learn that it exists.
		res, err := t.b.Search(ctx, query.Request{Types: []string{indexer.KindConversation}, Conversations: []string{id}, Limit: 1, NoHighlight: true})
		if err == nil && len(res.Hits) == 0 {
			fmt.Fprintf(b, " The index holds no conversation %q: pass a conversation_id (or a hit's id) from an answer.", id)
		}
	}
}

// renderConversation writes a conversation window as Markdown, stopping
// once budget characters are written. focus marks the message asked for.
func renderConversation(c *conversationOutput, focus, budget int) string {
	var b strings.Builder
	title := c.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(&b, "# %s\n\n", conversation.OneLine(title, 200))
	meta := []string{"id " + c.ID, c.Source, day(c.Date)}
	if c.Project != "" {
		meta = append(meta, "project "+c.Project)
	}
	if c.Model != "" {
		meta = append(meta, "model "+c.Model)
	}
	fmt.Fprintf(&b, "%s\nfile: %s\n", strings.Join(meta, " · "), c.File)
	switch {
	case len(c.Topics) > 0:
		fmt.Fprintf(&b, "topics: %s", strings.Join(c.Topics, ", "))
		if c.MoreTopics > 0 {
			fmt.Fprintf(&b, " and %d more", c.MoreTopics)
		}
		b.WriteByte('\n')
	case c.MoreTopics > 0:
		fmt.Fprintf(&b, "topics: %d, left out to keep this short\n", c.MoreTopics)
	}
	for _, s := range c.Summaries {
		fmt.Fprintf(&b, "summary: %s\n", conversation.OneLine(s, 400))
	}
	for _, d := range c.Decisions {
		fmt.Fprintf(&b, "decision: %s", conversation.OneLine(d.Decision, 400))
		if d.Rationale != "" {
			fmt.Fprintf(&b, " — because %s", conversation.OneLine(d.Rationale, 400))
		}
		if d.MessageIndex >= 0 {
			fmt.Fprintf(&b, " (message %d)", d.MessageIndex)
		}
		b.WriteByte('\n')
	}
	if c.MoreDecisions > 0 {
		fmt.Fprintf(&b, "(%d more decisions: search_conversations with words of what you look for, conversation_id=%q, type=\"decision\", group=false)\n", c.MoreDecisions, c.ID)
	}
	if c.FromIndex {
		b.WriteString("(the source file could not be read again: this is the text the index keeps, without tool calls)\n")
	}
	switch {
	case c.MessageCount == 0:
		b.WriteString("\nNo messages.\n")
		return b.String()
	case len(c.Messages) == c.MessageCount:
		fmt.Fprintf(&b, "\nAll %d messages:\n", c.MessageCount)
	case c.CharOffset > 0 || c.NextCharOffset != nil:
		end := c.MessageChars
		if c.NextCharOffset != nil {
			end = *c.NextCharOffset
		}
		fmt.Fprintf(&b, "\nMessage %d of %d, characters %d–%d of its %d:\n", c.First, c.MessageCount, c.CharOffset, end, c.MessageChars)
	default:
		fmt.Fprintf(&b, "\nMessages %d–%d of %d:\n", c.First, c.Last, c.MessageCount)
	}
	resume := map[int]int{}
	for _, cm := range c.Cut {
		resume[cm.Message] = cm.CharOffset
	}
	shown := 0
	for i := range c.Messages {
		if b.Len() > budget {
			break
		}
		m := &c.Messages[i]
		writeMessage(&b, m, m.Index == focus)
		if at, ok := resume[m.Index]; ok {
			fmt.Fprintf(&b, "(cut: read the rest with get_conversation(id=%q, message=%d, char_offset=%d))\n", c.ID, m.Index, at)
		}
		shown++
	}
	last := c.First + shown - 1
	if shown < len(c.Messages) {
		fmt.Fprintf(&b, "\n[… messages %d–%d cut to keep this short]\n", last+1, c.Last)
	}
	if c.NextCharOffset != nil {
		fmt.Fprintf(&b, "\nMessage %d goes on (%d characters in all): read on with get_conversation(id=%q, message=%d, char_offset=%d).", c.First, c.MessageChars, c.ID, c.First, *c.NextCharOffset)
		if last < c.MessageCount-1 {
			fmt.Fprintf(&b, " Skip to the next message with get_conversation(id=%q, offset=%d).", c.ID, last+1)
		}
		b.WriteByte('\n')
	} else if last < c.MessageCount-1 {
		fmt.Fprintf(&b, "\nRead on with get_conversation(id=%q, offset=%d).\n", c.ID, last+1)
	}
	return b.String()
}

func writeMessage(b *strings.Builder, m *conversation.Message, focus bool) {
	head := fmt.Sprintf("#%d %s", m.Index, m.Role)
	if !m.Timestamp.IsZero() {
		head += " · " + m.Timestamp.UTC().Format("2006-01-02 15:04")
	}
	if flags := m.Flags(); len(flags) > 0 {
		head += " [" + strings.Join(flags, ", ") + "]"
	}
	if focus {
		head += " ◀ asked for"
	}
	fmt.Fprintf(b, "\n## %s\n", head)
	if m.Thinking != "" {
		fmt.Fprintf(b, "(thinking) %s\n", m.Thinking)
	}
	if m.Content != "" {
		b.WriteString(strings.TrimRight(m.Content, "\n") + "\n")
	}
	for _, tc := range m.ToolCalls {
		fmt.Fprintf(b, "→ tool call %s(%s)\n", tc.Name, tc.Arguments)
	}
	for _, tr := range m.ToolResults {
		name := tr.Name
		if name == "" {
			name = "tool"
		}
		if tr.IsError {
			name += " (error)"
		}
		fmt.Fprintf(b, "← %s result:\n%s\n", name, strings.TrimRight(tr.Content, "\n"))
	}
	for _, a := range m.Attachments {
		fmt.Fprintf(b, "(attachment %s, %s, %d bytes)\n", a.Name, a.Type, a.Size)
	}
}
