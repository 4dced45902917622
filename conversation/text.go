package conversation

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Renumber sets each message's Index to its position. Parsers call it once
// their messages are in reading order.
func (c *Conversation) Renumber() {
	for i := range c.Messages {
		c.Messages[i].Index = i
	}
}

// ToolText is the searchable text of the message's tool calls and results:
// tool names, arguments and outputs, one per line.
func (m *Message) ToolText() string {
	if len(m.ToolCalls) == 0 && len(m.ToolResults) == 0 {
		return ""
	}
	var b strings.Builder
	for _, tc := range m.ToolCalls {
		b.WriteString(tc.Name)
		if tc.Arguments != "" {
			b.WriteByte(' ')
			b.WriteString(tc.Arguments)
		}
		b.WriteByte('\n')
	}
	for _, tr := range m.ToolResults {
		if tr.Name != "" {
			b.WriteString(tr.Name)
			b.WriteByte(' ')
		}
		b.WriteString(tr.Content)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// SearchText is everything a person might search for in the message: who
// wrote it (when the format names people) with its content, its thinking,
// tool calls and results, and attachment names.
func (m *Message) SearchText() string {
	parts := make([]string, 0, 5)
	if p := m.Person(); m.Content != "" && p != "" {
		// "Caroline: I painted a sunrise": who said it is part of what a
		// question asks ("What did Caroline paint?"). An id ("user-139")
		// or a model's name says nothing a person asks about.
		parts = append(parts, p+": "+m.Content)
	} else if m.Content != "" {
		parts = append(parts, m.Content)
	}
	if m.Thinking != "" {
		parts = append(parts, m.Thinking)
	}
	if t := m.ToolText(); t != "" {
		parts = append(parts, t)
	}
	for _, a := range m.Attachments {
		if a.Name != "" {
			parts = append(parts, WithNameWords(a.Name))
		}
	}
	return strings.Join(parts, "\n")
}

// WithNameWords returns a file's name followed by the words run together in
// it, in brackets, when it has any: "ZebraMigrationPlan.pdf (Zebra
// Migration Plan)", "revenue-forecast2025.xlsx (forecast 2025)". The text
// analyzer splits a name at its punctuation, but not where case or digits
// change, so "migration" would not find the first nor "forecast" the second.
func WithNameWords(name string) string {
	var words []string
	for _, tok := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if parts := splitRunTogether(tok); len(parts) > 1 {
			words = append(words, parts...)
		}
	}
	if len(words) == 0 {
		return name
	}
	return name + " (" + strings.Join(words, " ") + ")"
}

// splitRunTogether splits a word where lower case turns upper ("zebraPlan"),
// where an upper-case run ends before a capitalised word ("HTTPServer"),
// and between letters and digits ("forecast2025").
func splitRunTogether(w string) []string {
	rs := []rune(w)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		split := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
			unicode.IsLetter(prev) != unicode.IsLetter(cur) ||
			unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if split {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// TopicNames returns the names of the conversation's topics.
func (c *Conversation) TopicNames() []string {
	names := make([]string, 0, len(c.Topics))
	for _, t := range c.Topics {
		names = append(names, t.Name)
	}
	return names
}

// Flags names what is special about the message, for display: hidden,
// cancelled, partial, deleted, sub-agent, and its branch when not the main
// line.
func (m *Message) Flags() []string {
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{m.Hidden, "hidden"}, {m.Cancelled, "cancelled"}, {m.Partial, "partial"}, {m.Deleted, "deleted"}, {m.Sidechain, "sub-agent"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	if m.Branch != "" && m.Branch != "0" {
		flags = append(flags, "branch "+m.Branch)
	}
	return flags
}

// Span returns the earliest and latest timestamps of msgs (zero when none
// has one): a conversation's Date and Updated when the format gives no
// better.
func Span(msgs []Message) (first, last time.Time) {
	for _, m := range msgs {
		t := m.Timestamp
		if t.IsZero() {
			continue
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	return first, last
}

// OneLine squeezes s onto one line of at most n characters, marking a cut
// with "…": for titles and previews in lists.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Person returns the name of the person who wrote the message, when its
// Author reads as one (PersonName), else "".
func (m *Message) Person() string {
	if !PersonName(m.Author) {
		return ""
	}
	return strings.TrimSpace(m.Author)
}

// PersonName reports whether s reads as a person's name ("Caroline", "Mary
// Ann", "O'Brien"): one to three words of letters (with apostrophes,
// hyphens or dots inside), no digits, and none of the words that name a
// role or an assistant ("User:", "AI Assistant", "gpt-4o").
func PersonName(s string) bool {
	s = strings.TrimSpace(s)
	ws := strings.Fields(s)
	if len(s) > 40 || len(ws) == 0 || len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		for i, r := range w {
			switch {
			case unicode.IsLetter(r):
			case i > 0 && strings.ContainsRune("'’-.", r):
			default:
				return false
			}
		}
		if notPeople[strings.ToLower(strings.Trim(w, ".-'’"))] {
			return false
		}
	}
	return true
}

// notPeople are words of roles and assistants, never a person's name. Built
// once and only read afterwards.
var notPeople = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`user users human system developer context tool tools function prompt assistant
		model ai bot chatbot agent gpt chatgpt claude gemini llm copilot bard openai anthropic sonnet opus haiku
		answer answers output completion response question reply me you`) {
		m[w] = true
	}
	return m
}()

// Reason returns a decision's rationale as it reads after "because": a
// rationale written as "because the p99 …" loses its own "because", so
// that no answer says "because because".
func Reason(rationale string) string {
	r := strings.TrimSpace(rationale)
	if len(r) > 8 && strings.EqualFold(r[:7], "because") && (r[7] == ' ' || r[7] == ':' || r[7] == ',') {
		return strings.TrimLeft(r[8:], " :,")
	}
	return r
}
