package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
)

// Document ids, as DESIGN.md gives them.

// ConversationDocID is the id of a conversation's own document.
func ConversationDocID(conv string) string { return "c/" + conv }

// MessageDocID is the id of message index of conversation conv.
func MessageDocID(conv string, index int) string { return "m/" + conv + "/" + strconv.Itoa(index) }

// TopicDocID is the id of a topic of conversation conv.
func TopicDocID(conv, slug string) string { return "t/" + conv + "/" + slug }

// DecisionDocID is the id of the n-th decision of conversation conv.
func DecisionDocID(conv string, n int) string { return "d/" + conv + "/" + strconv.Itoa(n) }

// ParseDocID reads a document id (a search hit's id): c/CONV, m/CONV/N,
// t/CONV/SLUG or d/CONV/N, giving the conversation and, for a message, its
// index (else -1).
func ParseDocID(id string) (conv string, message int, ok bool) {
	kind, conv, n, ok := parseDocID(id)
	if !ok || kind != "m" {
		return conv, -1, ok
	}
	return conv, n, true
}

// DecisionNumber returns n of a decision's id d/CONV/N (DecisionDocID), or
// -1 for any other id.
func DecisionNumber(id string) int {
	if kind, _, n, ok := parseDocID(id); ok && kind == "d" {
		return n
	}
	return -1
}

// parseDocID splits a document id into its kind, its conversation and, for
// a message or a decision, its number (else -1).
func parseDocID(id string) (kind, conv string, n int, ok bool) {
	kind, rest, found := strings.Cut(id, "/")
	if !found || rest == "" {
		return "", "", -1, false
	}
	if kind == "c" {
		return kind, rest, -1, true
	}
	i := strings.LastIndexByte(rest, '/')
	if i <= 0 || i == len(rest)-1 {
		return "", "", -1, false
	}
	conv, tail := rest[:i], rest[i+1:]
	switch kind {
	case "m":
		n, err := strconv.Atoi(tail)
		if err != nil || n < 0 {
			return "", "", -1, false
		}
		return kind, conv, n, true
	case "d":
		n, err := strconv.Atoi(tail)
		if err != nil || n < 0 {
			n = -1 // still the conversation's, as ParseDocID has always read it
		}
		return kind, conv, n, true
	case "t":
		return kind, conv, -1, true
	}
	return "", "", -1, false
}

// doc is one Bleve document: a map, so absent values are absent fields (a
// struct would index zero times and empty strings).
type doc struct {
	id     string
	fields map[string]any
}

// documents returns the Bleve documents of conversation c, indexed under
// key (c.ID, or c.ID with a suffix when another file already holds that id).
func documents(c *conversation.Conversation, key, file string) []doc {
	return piece(c, key, file, 0, len(c.Messages), true)
}

// piece returns the documents of messages [from, to) of conversation c,
// with, if head, the conversation's own, topic and decision documents. A
// message's context field reads its neighbours in c, whatever piece they
// fall in.
func piece(c *conversation.Conversation, key, file string, from, to int, head bool) []doc {
	from, to = min(max(from, 0), len(c.Messages)), min(max(to, 0), len(c.Messages))
	n := max(to-from, 0)
	if head {
		n += 1 + len(c.Topics) + len(c.Decisions)
	}
	docs := make([]doc, 0, n)
	base := baseFields(c, key)

	if !head {
		return messageDocs(docs, c, key, from, to, base)
	}
	cm := base(KindConversation, c.Date)
	cm[FieldFile] = file
	cm[FieldTitle] = c.Title
	cm[FieldContent] = conversationText(c)
	if len(c.Topics) > 0 {
		cm[FieldTopics] = c.TopicNames()
	}
	if len(c.Tags) > 0 {
		cm[FieldTags] = c.Tags
	}
	if c.Model != "" {
		cm[FieldModel] = c.Model
	}
	cm[FieldMessages] = float64(len(c.Messages))
	docs = append(docs, doc{ConversationDocID(key), cm})
	docs = messageDocs(docs, c, key, from, to, base)

	seen := map[string]bool{}
	for _, t := range c.Topics {
		slug := conversation.Slug(t.Name)
		if slug == "" || seen[slug] {
			continue
		}
		seen[slug] = true
		tm := base(KindTopic, time.Time{})
		tm[FieldName] = t.Name
		tm[FieldContent] = t.Name
		tm[FieldTopicKey] = strings.ToLower(strings.Join(strings.Fields(t.Name), " "))
		tm[FieldOrigin] = string(t.Origin)
		docs = append(docs, doc{TopicDocID(key, slug), tm})
	}
	for n, d := range c.Decisions {
		dm := base(KindDecision, d.Timestamp)
		dm[FieldDecision] = d.Decision
		dm[FieldContent] = d.Decision
		if d.Rationale != "" {
			dm[FieldRationale] = d.Rationale
			dm[FieldContent] = d.Decision + "\n\n" + d.Rationale // two paragraphs, as conversationText's
		}
		dm[FieldMessageIndex] = float64(d.MessageIndex)
		dm[FieldOrigin] = string(d.Origin)
		docs = append(docs, doc{DecisionDocID(key, n), dm})
	}
	return docs
}

// baseFields returns the maker of the fields every document of c has.
func baseFields(c *conversation.Conversation, key string) func(kind string, date time.Time) map[string]any {
	return func(kind string, date time.Time) map[string]any {
		m := make(map[string]any, 12)
		m[FieldType] = kind
		m[FieldConversationID] = key
		m[FieldSource] = c.Source
		if c.Project != "" {
			m[FieldProject] = c.Project
		}
		if date.IsZero() {
			date = c.Date
		}
		if !date.IsZero() {
			m[FieldDate] = date.UTC()
		}
		return m
	}
}

// messageDocs appends to docs the documents of messages [from, to) of c.
func messageDocs(docs []doc, c *conversation.Conversation, key string, from, to int, base func(string, time.Time) map[string]any) []doc {
	for i := from; i < to; i++ {
		m := &c.Messages[i]
		mm := base(KindMessage, m.Timestamp)
		mm[FieldRole] = string(m.Role)
		mm[FieldContent] = m.SearchText()
		if p := m.Person(); p != "" {
			mm[FieldAuthor] = p
		}
		mm[FieldMessageIndex] = float64(m.Index)
		if ct := conceptText(m); ct != "" {
			mm[FieldConcepts] = ct
			if x := contextText(c.Messages, i); x != "" {
				mm[FieldContext] = x
			}
		}
		if m.Hidden {
			mm[FieldHidden] = "true"
		}
		if m.Model != "" {
			mm[FieldModel] = m.Model
		}
		if len(m.ToolCalls) > 0 {
			names := make([]string, 0, len(m.ToolCalls))
			for _, tc := range m.ToolCalls {
				names = append(names, tc.Name)
			}
			mm[FieldTools] = names
		}
		docs = append(docs, doc{MessageDocID(key, m.Index), mm})
	}
	return docs
}

// Range is the part of a conversation's messages a Change writes: messages
// From to To-1. The zero Range is the whole conversation.
type Range struct{ From, To int }

// Whole reports whether r is the whole conversation.
func (r Range) Whole() bool { return r.To <= 0 }

// maxConceptBytes is how much of a message's text gives concepts: what a
// person says of their life and work is in the first few kilobytes, and
// longer texts are pasted documents whose every noun would only add terms.
const maxConceptBytes = 4 << 10

// conceptText is the text of m whose nouns give FieldConcepts: what a
// person or an assistant said (not tool output, thinking or hidden
// context), its first maxConceptBytes.
func conceptText(m *conversation.Message) string {
	if m.Hidden || (m.Role != conversation.RoleUser && m.Role != conversation.RoleAssistant) {
		return ""
	}
	return prefix(m.Content, maxConceptBytes)
}

// maxContextBytes is how much of each neighbour goes into a message's
// FieldContext: a chat turn's point is in its first lines, and more would
// only add postings (300 did as well as 1 KB on the recall set's tune
// halves, at a third of the cost).
const maxContextBytes = 300

// ContextBytes is about how many bytes of m's text its neighbours' context
// fields index again: its start, once on each side. For sizing batches.
func ContextBytes(m *conversation.Message) int {
	return 2 * min(len(conceptText(m)), maxContextBytes)
}

// contextReach is how far contextText looks past tool calls and results for
// a spoken neighbour.
const contextReach = 8

// contextText is the start of the nearest spoken message (conceptText's)
// on either side of msgs[i]: a question's words are often split between a
// turn and its reply ("And Pudding?" "she ate a sock on tuesday").
func contextText(msgs []conversation.Message, i int) string {
	var parts []string
	for _, step := range []int{-1, 1} {
		for d := 1; d <= contextReach; d++ {
			j := i + step*d
			if j < 0 || j >= len(msgs) {
				break
			}
			if t := strings.TrimSpace(conceptText(&msgs[j])); t != "" {
				parts = append(parts, wordPrefix(t, maxContextBytes))
				break
			}
		}
	}
	return strings.Join(parts, "\n")
}

// wordPrefix is prefix(s, max) without a word cut in two at its end: half
// a word would be indexed as a word of its own.
func wordPrefix(s string, max int) string {
	p := prefix(s, max)
	if len(p) == len(s) {
		return p
	}
	if i := strings.LastIndexAny(p, " \t\n"); i > 0 {
		return p[:i]
	}
	return p
}

// prefix is s cut to at most max bytes, at a rune boundary.
func prefix(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// conversationText is the searchable text of a conversation's own
// document: its title, summaries and topics, and what it keeps outside its
// messages (artifact titles and text, notes), each a paragraph, so that no
// phrase runs from one into the next (see paragraphBreak).
func conversationText(c *conversation.Conversation) string {
	var b strings.Builder
	b.WriteString(c.Title)
	b.WriteString("\n\n")
	for _, s := range c.Summaries {
		b.WriteString(s)
		b.WriteString("\n\n")
	}
	for _, t := range c.Topics {
		b.WriteString(t.Name)
		b.WriteString("\n\n")
	}
	for _, a := range c.Artifacts {
		for _, s := range []string{a.Title, conversation.WithNameWords(a.Path), a.Description, a.Content} {
			if s != "" {
				b.WriteString(s)
				b.WriteString("\n\n")
			}
		}
	}
	for _, n := range c.Notes {
		if n.Title != "" {
			b.WriteString(n.Title)
			b.WriteString("\n\n")
		}
		b.WriteString(n.Text)
		b.WriteString("\n\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// DefaultMaxTextBytes is how much of one text CapTexts keeps by default:
// 1 MiB is some 150,000 words, more than any message a person writes, while
// Bleve's analysis of a text (its terms with their positions, kept for
// highlighting) takes tens of times the text's size: a 500 MB message held
// 16 GB and growing. Longer texts are pasted logs and files whose beginning
// is what a search needs; the whole text stays in the source file.
const DefaultMaxTextBytes = 1 << 20

// CapTexts cuts the texts of c that documents index so that no document's
// text exceeds max bytes: each message's content, thinking and tool calls
// and results share max, as do the summaries, artifacts and notes of the
// conversation's own document; titles and decisions get max each. A cut
// text is copied, so the long original can be freed. It returns how many
// texts were cut.
func CapTexts(c *conversation.Conversation, max int) int {
	if max <= 0 {
		return 0
	}
	cut := 0
	one := func(s *string) {
		b := budget{left: max}
		b.take(s, &cut)
	}
	one(&c.Title)
	b := budget{left: max}
	for i := range c.Summaries {
		b.take(&c.Summaries[i], &cut)
	}
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		for _, s := range []*string{&a.Title, &a.Path, &a.Description, &a.Content} {
			b.take(s, &cut)
		}
	}
	for i := range c.Notes {
		b.take(&c.Notes[i].Title, &cut)
		b.take(&c.Notes[i].Text, &cut)
	}
	for i := range c.Messages {
		m := &c.Messages[i]
		b := budget{left: max}
		b.take(&m.Content, &cut)
		b.take(&m.Thinking, &cut)
		for j := range m.ToolCalls {
			b.take(&m.ToolCalls[j].Arguments, &cut)
		}
		for j := range m.ToolResults {
			b.take(&m.ToolResults[j].Content, &cut)
		}
	}
	for i := range c.Decisions {
		one(&c.Decisions[i].Decision)
		one(&c.Decisions[i].Rationale)
	}
	return cut
}

// budget is the bytes of text one document has left.
type budget struct{ left int }

// take cuts *s to what is left of the budget, at a rune boundary, and
// counts the cut in *cut.
func (b *budget) take(s *string, cut *int) {
	if len(*s) <= b.left {
		b.left -= len(*s)
		return
	}
	*s = strings.Clone(prefix(*s, b.left))
	b.left = 0
	*cut++
}

// Prefix is what a conversation's record keeps of its leading messages'
// documents, for a later read of a file that only grew (see Change.Kept):
// how many (all but the last contextReach, whose context fields a message
// appended after them changes), and a hash of their documents.
type Prefix struct {
	N    int
	Hash string
}

// PrefixOf returns the Prefix of conversation c, and the hash of the
// documents of its first at messages ("" unless at is from 1 to its
// length), to compare with the Prefix an earlier read recorded: a file
// whose last messages went (rewritten, cut short) may keep the others. The
// hash is of every field a message's document indexes or stores but the
// conversation's key, which the index may change.
func PrefixOf(c *conversation.Conversation, at int) (p Prefix, atHash string) {
	p.N = max(len(c.Messages)-contextReach, 0)
	if at > len(c.Messages) {
		at = 0
	}
	h := sha256.New()
	base := baseFields(c, "")
	var buf []byte
	var keys []string
	docs := make([]doc, 0, 1)
	for i := range max(p.N, at) {
		docs = messageDocs(docs[:0], c, "", i, i+1, base)
		d := docs[0]
		keys = keys[:0]
		for k := range d.fields {
			if k != FieldConversationID {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		buf = buf[:0]
		for _, k := range keys {
			buf = append(buf, k...)
			buf = append(buf, 0)
			switch v := d.fields[k].(type) {
			case string:
				buf = strconv.AppendInt(buf, int64(len(v)), 10)
				buf = append(buf, ':')
				buf = append(buf, v...)
			case float64:
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			case time.Time:
				buf = v.UTC().AppendFormat(buf, time.RFC3339Nano)
			case []string:
				buf = strconv.AppendInt(buf, int64(len(v)), 10)
				for _, s := range v {
					buf = append(buf, 0)
					buf = strconv.AppendInt(buf, int64(len(s)), 10)
					buf = append(buf, ':')
					buf = append(buf, s...)
				}
			default:
				buf = fmt.Appendf(buf, "%T:%#v", v, v)
			}
			buf = append(buf, 0)
		}
		buf = append(buf, '\n')
		h.Write(buf)
		if i+1 == p.N {
			p.Hash = hex.EncodeToString(h.Sum(nil)[:16])
		}
		if i+1 == at {
			atHash = hex.EncodeToString(h.Sum(nil)[:16])
		}
	}
	return p, atHash
}
