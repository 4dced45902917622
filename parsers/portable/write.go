package portable

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// outConversation is the file Marshal writes: the spec's keys first, in the
// order conversation-memory writes them.
type outConversation struct {
	ID       string       `json:"id"`
	Date     *string      `json:"date"`
	Title    string       `json:"title"`
	Messages []outMessage `json:"messages"`
	Metadata outMetadata  `json:"metadata"`
}

// outMessage is the spec's message plus convsearch's fields as extra keys,
// which the format's own readers ignore.
type outMessage struct {
	Role        string                    `json:"role"`
	Author      string                    `json:"author,omitempty"`
	Content     string                    `json:"content"`
	Timestamp   *string                   `json:"timestamp"`
	ID          string                    `json:"id,omitempty"`
	ParentID    string                    `json:"parent_id,omitempty"`
	Model       string                    `json:"model,omitempty"`
	Thinking    string                    `json:"thinking,omitempty"`
	ToolCalls   []outToolCall             `json:"tool_calls,omitempty"`
	ToolResults []conversation.ToolResult `json:"tool_results,omitempty"`
	Attachments []conversation.Attachment `json:"attachments,omitempty"`
	Hidden      bool                      `json:"hidden,omitempty"`
	Cancelled   bool                      `json:"cancelled,omitempty"`
	Partial     bool                      `json:"partial,omitempty"`
	Deleted     bool                      `json:"deleted,omitempty"`
	Sidechain   bool                      `json:"sidechain,omitempty"`
	Branch      string                    `json:"branch,omitempty"`
}

type outToolCall struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Arguments is the JSON itself when the text is compact JSON (readable,
	// and it reads back byte for byte), else the text as a string.
	Arguments any `json:"arguments,omitempty"`
}

type outMetadata struct {
	Project              *string                 `json:"project"`
	Topics               []string                `json:"topics"`
	Decisions            []conversation.Decision `json:"decisions"`
	RelatedConversations []string                `json:"related_conversations"`
	Tags                 []string                `json:"tags"`
	Artifacts            []conversation.Artifact `json:"artifacts"`
	Source               string                  `json:"source,omitempty"`
	// ExtractedTopics are topics convsearch derived: kept apart from the
	// explicit ones so they read back with their origin.
	ExtractedTopics []string            `json:"extracted_topics,omitempty"`
	Summaries       []string            `json:"summaries,omitempty"`
	Notes           []conversation.Note `json:"notes,omitempty"`
	Model           string              `json:"model,omitempty"`
	Updated         *string             `json:"updated,omitempty"`
}

// Marshal writes c in the portable schema as indented JSON. Fields the
// schema lacks go in extra keys that Parse reads back, so the messages of
// Parse(Marshal(c)) equal c's (times compare with time.Equal; text must be
// valid UTF-8). metadata.source is the family c was first read with; for a
// conversation read from a portable file, the source it recorded.
func Marshal(c *conversation.Conversation) ([]byte, error) {
	if c == nil {
		return nil, errors.New("portable: marshal a nil conversation")
	}
	out := outConversation{
		ID:       c.ID,
		Date:     timeText(c.Date),
		Title:    c.Title,
		Messages: make([]outMessage, 0, len(c.Messages)),
	}
	for _, m := range c.Messages {
		om := outMessage{
			Role:        string(m.Role),
			Author:      m.Author,
			Content:     m.Content,
			Timestamp:   timeText(m.Timestamp),
			ID:          m.ID,
			ParentID:    m.ParentID,
			Model:       m.Model,
			Thinking:    m.Thinking,
			ToolResults: m.ToolResults,
			Attachments: m.Attachments,
			Hidden:      m.Hidden,
			Cancelled:   m.Cancelled,
			Partial:     m.Partial,
			Deleted:     m.Deleted,
			Sidechain:   m.Sidechain,
			Branch:      m.Branch,
		}
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, outToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)})
		}
		out.Messages = append(out.Messages, om)
	}

	md := &out.Metadata
	if c.Project != "" {
		md.Project = &c.Project
	}
	md.Topics = []string{}
	for _, t := range c.Topics {
		if t.Origin == conversation.OriginExtracted {
			md.ExtractedTopics = append(md.ExtractedTopics, t.Name)
		} else {
			md.Topics = append(md.Topics, t.Name)
		}
	}
	md.Decisions = nonNil(c.Decisions)
	md.RelatedConversations = nonNil(c.RelatedConversations)
	md.Artifacts = nonNil(c.Artifacts)
	md.Source = c.Source
	md.Tags = []string{}
	for _, t := range c.Tags {
		// Parse turns metadata.source into a "source:" tag; turn it back.
		if c.Source == Name && strings.HasPrefix(t, "source:") {
			if md.Source == Name {
				md.Source = strings.TrimPrefix(t, "source:")
			}
			continue
		}
		md.Tags = append(md.Tags, t)
	}
	md.Summaries = c.Summaries
	md.Notes = c.Notes
	md.Model = c.Model
	md.Updated = timeText(c.Updated)

	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// arguments is what Marshal writes for tool arguments: nil for none, the JSON
// itself when the text is already compact JSON as Parse gives it (escapes
// undone, see loose.CompactJSON), else the text, which Parse keeps as written.
func arguments(s string) any {
	if s == "" {
		return nil
	}
	if c, ok := loose.CompactJSON([]byte(s)); ok && c == s && (s[0] == '{' || s[0] == '[') {
		return json.RawMessage(s)
	}
	return s
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// timeText formats t for the file, nil (JSON null) when zero. RFC 3339 with
// the zone keeps the instant exact; the ecosystem's naive local times are
// read as well as written by its Python (datetime.fromisoformat).
func timeText(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.Format(time.RFC3339Nano)
	return &s
}

// Manifest is the index.json beside the conversation files.
type Manifest struct {
	Conversations []ManifestEntry `json:"conversations"`
}

// ManifestEntry is one conversation in the manifest.
type ManifestEntry struct {
	ID      string   `json:"id"`
	Date    string   `json:"date"`
	Title   string   `json:"title"`
	Project string   `json:"project"`
	Topics  []string `json:"topics"`
	File    string   `json:"file"`
}

// NewManifestEntry returns the manifest entry of c written to file.
func NewManifestEntry(c *conversation.Conversation, file string) ManifestEntry {
	e := ManifestEntry{ID: c.ID, Title: c.Title, Project: c.Project, Topics: []string{}, File: file}
	if d := timeText(c.Date); d != nil {
		e.Date = *d
	}
	for _, t := range c.Topics {
		if t.Origin != conversation.OriginExtracted {
			e.Topics = append(e.Topics, t.Name)
		}
	}
	return e
}

// maxNameLen keeps file names well under the 255 bytes file systems allow.
const maxNameLen = 120

// FileName is the file an exported conversation with id is written to:
// "<id>.json" as the spec names them. Characters unsafe in file names on
// Unix or Windows become '_'; a changed or cut id gets a hash of the real
// id appended so two ids never share a file.
func FileName(id string) string {
	var b strings.Builder
	changed := false
	for _, r := range id {
		switch {
		case r < 0x20, r == 0x7f, r == utf8.RuneError, strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteByte('_')
			changed = true
		default:
			b.WriteRune(r)
		}
	}
	name := b.String()
	// Leading dots hide files; trailing dots and spaces vanish on Windows.
	if t := strings.TrimRight(strings.TrimLeft(name, ". "), ". "); t != name {
		name, changed = t, true
	}
	if len(name) > maxNameLen {
		cut := maxNameLen
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name, changed = name[:cut], true
	}
	if reserved(name) {
		changed = true
	}
	if name == "" || changed {
		sum := sha256.Sum256([]byte(id))
		if name != "" {
			name += "-"
		}
		name += hex.EncodeToString(sum[:4])
	}
	return name + ".json"
}

// reserved reports names a conversation file may not take: the manifest's,
// and Windows device names, unusable with any extension.
func reserved(name string) bool {
	if strings.EqualFold(name, "index") {
		return true
	}
	base, _, _ := strings.Cut(strings.ToUpper(name), ".")
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '1' && base[3] <= '9' {
		return true
	}
	return false
}
