// Package conversation is the canonical model every format is read into: the
// portable conversation-memory schema, extended so that no format loses what it
// has. It imports nothing else of convsearch.
package conversation

import (
	"time"
)

// Role is who wrote a message.
type Role string

// The roles a message can have. Formats with other names map onto these
// (Human → user, developer → system, function → tool).
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleTool      Role = "tool"
)

// Valid reports whether r is one of the four canonical roles.
func (r Role) Valid() bool {
	switch r {
	case RoleUser, RoleAssistant, RoleSystem, RoleTool:
		return true
	}
	return false
}

// Origin tells whether a topic or decision was written by a person or a tool
// (explicit) or derived by convsearch from the text (extracted).
type Origin string

// Origins of topics and decisions.
const (
	OriginExplicit  Origin = "explicit"
	OriginExtracted Origin = "extracted"
)

// Conversation is one conversation, whatever format it came from.
type Conversation struct {
	// ID is stable across runs and machines: the format's native id where it
	// has one, else NewID(unique key, date).
	ID string `json:"id"`
	// Source is the name of the parser family that read it ("rao", "studio", …).
	Source string `json:"source"`
	// File is the file the conversation was read from (for folder formats, the
	// main file of the folder).
	File    string    `json:"file"`
	Title   string    `json:"title"`
	Date    time.Time `json:"date,omitzero"`
	Updated time.Time `json:"updated,omitzero"`
	Project string    `json:"project,omitempty"`
	// Model is the main model the conversation ran with, where the format says.
	Model                string     `json:"model,omitempty"`
	Topics               []Topic    `json:"topics,omitempty"`
	Decisions            []Decision `json:"decisions,omitempty"`
	Tags                 []string   `json:"tags,omitempty"`
	RelatedConversations []string   `json:"related_conversations,omitempty"`
	Artifacts            []Artifact `json:"artifacts,omitempty"`
	Summaries            []string   `json:"summaries,omitempty"`
	// Notes hold the other searchable text a format keeps beside the messages:
	// file changes and diffs, script history, memories, task lists.
	Notes    []Note    `json:"notes,omitempty"`
	Messages []Message `json:"messages"`
}

// Topic is a subject the conversation is about.
type Topic struct {
	Name   string  `json:"name"`
	Origin Origin  `json:"origin"`
	Score  float64 `json:"score,omitempty"`
}

// Decision is something the conversation settled.
type Decision struct {
	Decision  string    `json:"decision"`
	Rationale string    `json:"rationale,omitempty"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	// MessageIndex is the Index of the message the decision was taken in, or -1
	// when the format does not say.
	MessageIndex int    `json:"message_index"`
	Origin       Origin `json:"origin"`
}

// Artifact is a file, document or code block the conversation produced.
type Artifact struct {
	Type        string `json:"type,omitempty"` // code, document, data, config, image, …
	Path        string `json:"path,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Content is the artifact's text, when it is text and the format holds it.
	Content string `json:"content,omitempty"`
	// MessageIndex is the message that produced it, -1 when unknown.
	MessageIndex int `json:"message_index"`
}

// Note is searchable side text that is not a message.
type Note struct {
	Kind  string    `json:"kind"` // file_change, diff, script, memory, task, …
	Title string    `json:"title,omitempty"`
	Text  string    `json:"text"`
	Time  time.Time `json:"time,omitzero"`
}

// Message is one turn of a conversation.
type Message struct {
	// Index is the position in reading order, from 0.
	Index int `json:"index"`
	// ID is the format's own id for the message, if any.
	ID string `json:"id,omitempty"`
	// ParentID is the id of the message this one answers (related_to,
	// parentId): it keeps the shape of branching conversations.
	ParentID string `json:"parent_id,omitempty"`
	Role     Role   `json:"role"`
	// Author names who wrote the message where the format says more than
	// the role (studio's userId: which person, in a shared thread).
	Author string `json:"author,omitempty"`
	// Content is the message's text, flattened from whatever structure the
	// format uses. Tool calls and results are kept apart in their own fields.
	Content   string    `json:"content"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	Model     string    `json:"model,omitempty"`
	Thinking  string    `json:"thinking,omitempty"`

	ToolCalls   []ToolCall   `json:"tool_calls,omitempty"`
	ToolResults []ToolResult `json:"tool_results,omitempty"`
	Attachments []Attachment `json:"attachments,omitempty"`

	// Hidden marks procedural or injected text a person did not write or see
	// (system context, environment blocks).
	Hidden    bool `json:"hidden,omitempty"`
	Cancelled bool `json:"cancelled,omitempty"`
	Partial   bool `json:"partial,omitempty"`
	Deleted   bool `json:"deleted,omitempty"`
	// Sidechain marks messages of a sub-agent run inside the conversation.
	Sidechain bool `json:"sidechain,omitempty"`
	// Branch names the branch of a tree-shaped conversation the message is on
	// ("" or "0" for the main line).
	Branch string `json:"branch,omitempty"`
}

// ToolCall is a tool the assistant asked to run.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments,omitempty"` // JSON text, unwrapped when the format double-encodes it
}

// ToolResult is what a tool returned.
type ToolResult struct {
	CallID  string `json:"call_id,omitempty"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// Attachment is a file attached to a message. Its payload is never kept: only
// what a person might search for or want to know.
type Attachment struct {
	Name string `json:"name,omitempty"`
	Type string `json:"type,omitempty"` // MIME type or the format's own kind
	Size int64  `json:"size,omitempty"` // bytes of the payload, when known
	// Ref is where the payload lives when it is not inline (a path, a plot id);
	// never a data: URL.
	Ref string `json:"ref,omitempty"`
}
