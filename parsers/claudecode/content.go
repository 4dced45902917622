package claudecode

import (
	"encoding/json"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// block is one content block of an API message.
type block struct {
	Type      json.RawMessage `json:"type"`
	Text      json.RawMessage `json:"text"`
	Thinking  json.RawMessage `json:"thinking"`
	ID        json.RawMessage `json:"id"`
	Name      json.RawMessage `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID json.RawMessage `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   json.RawMessage `json:"is_error"`
	Source    json.RawMessage `json:"source"`
	Title     json.RawMessage `json:"title"`
}

// content is what a message's content holds, sorted by kind.
type content struct {
	text        []string
	thinking    []string
	calls       []conversation.ToolCall
	results     []conversation.ToolResult
	attachments []conversation.Attachment
	// own counts the attachments sent as blocks of the message itself, not
	// returned inside a tool result.
	own int
}

// readContent reads message.content: a string, or an array of blocks (text,
// thinking, tool_use, tool_result, image, document, …).
func readContent(raw json.RawMessage) content {
	var c content
	for _, b := range blocks(raw) {
		typ := loose.String(b.Type)
		switch typ {
		case "text", "":
			if t := loose.Clean(loose.String(b.Text)); t != "" {
				c.text = append(c.text, t)
			}
		case "thinking":
			// The signature beside it is an opaque token: never kept.
			if t := loose.Clean(loose.String(b.Thinking)); t != "" {
				c.thinking = append(c.thinking, t)
			}
		case "redacted_thinking":
			// Encrypted: nothing a person can read.
		case "tool_use", "server_tool_use", "mcp_tool_use":
			c.calls = append(c.calls, conversation.ToolCall{
				ID:        loose.String(b.ID),
				Name:      loose.String(b.Name),
				Arguments: loose.Arguments(b.Input),
			})
		case "tool_result", "mcp_tool_result", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result":
			text, atts := readResult(b.Content)
			c.results = append(c.results, conversation.ToolResult{
				CallID:  loose.String(b.ToolUseID),
				Content: text,
				IsError: loose.Bool(b.IsError),
			})
			c.attachments = append(c.attachments, atts...)
		case "image", "document":
			c.attachments = append(c.attachments, attachment(typ, b))
			c.own++
		default:
			// A block of a kind to come: keep its text, if it has any.
			if t := loose.Clean(loose.String(b.Text)); t != "" {
				c.text = append(c.text, t)
			}
		}
	}
	return c
}

// blocks reads raw as a list of blocks; a string is one text block.
func blocks(raw json.RawMessage) []block {
	t := strings.TrimSpace(string(raw))
	if loose.IsNull(raw) {
		return nil
	}
	switch t[0] {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		out := make([]block, 0, len(items))
		for _, it := range items {
			out = append(out, oneBlock(it)...)
		}
		return out
	case '{':
		return oneBlock(raw)
	}
	return []block{{Text: raw}}
}

func oneBlock(raw json.RawMessage) []block {
	var b block
	if json.Unmarshal(raw, &b) == nil {
		return []block{b}
	}
	if s := loose.String(raw); s != "" {
		return []block{{Text: json.RawMessage(mustJSON(s))}}
	}
	return nil
}

func mustJSON(s string) []byte {
	out, _ := json.Marshal(s)
	return out
}

// readResult reads a tool_result's content: a string or a list of text and
// image blocks.
func readResult(raw json.RawMessage) (string, []conversation.Attachment) {
	var text []string
	var atts []conversation.Attachment
	for _, b := range blocks(raw) {
		switch typ := loose.String(b.Type); typ {
		case "image", "document":
			atts = append(atts, attachment(typ, b))
		case "text", "":
			if t := loose.Clean(loose.String(b.Text)); t != "" {
				text = append(text, t)
			}
		default:
			if t := loose.Clean(loose.String(b.Text)); t != "" {
				text = append(text, t)
			} else if t := loose.Clean(loose.String(b.Content)); t != "" {
				text = append(text, t)
			}
		}
	}
	return strings.Join(text, "\n"), atts
}

// attachment describes an image or document block without its payload.
func attachment(kind string, b block) conversation.Attachment {
	var src struct {
		Type      json.RawMessage `json:"type"`
		MediaType json.RawMessage `json:"media_type"`
		Data      json.RawMessage `json:"data"`
		URL       json.RawMessage `json:"url"`
		FileID    json.RawMessage `json:"file_id"`
	}
	_ = json.Unmarshal(b.Source, &src)
	a := conversation.Attachment{
		Name: oneLine(loose.String(b.Title)),
		Type: loose.String(src.MediaType),
	}
	data := loose.String(src.Data)
	switch loose.String(src.Type) {
	case "base64":
		a.Size = loose.Base64Size(data)
	case "text":
		a.Size = int64(len(data))
		if a.Type == "" {
			a.Type = "text/plain"
		}
	case "url":
		if u := loose.String(src.URL); u != "" {
			if mt, size, ok := loose.DataURL(u); ok {
				a.Size = size
				if a.Type == "" {
					a.Type = mt
				}
			} else {
				a.Ref = u
			}
		}
	case "file":
		a.Ref = loose.String(src.FileID)
	}
	if a.Type == "" {
		a.Type = kind
	}
	return a
}

// injectedPrefixes open the user-role text Claude Code writes itself:
// slash-command echoes, local command output, reminders, hook output and
// interruption marks.
var injectedPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>", "<command-contents>",
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<bash-stdout>", "<bash-stderr>",
	"<system-reminder>", "<user-prompt-submit-hook>",
	"Caveat: The messages below were generated by the user while running local commands",
	"[Request interrupted by user",
	"This session is being continued from a previous conversation",
}

// injected reports whether every text block is Claude Code's own.
func injected(texts []string) bool {
	if len(texts) == 0 {
		return false
	}
	for _, t := range texts {
		t = strings.TrimSpace(t)
		ok := false
		for _, p := range injectedPrefixes {
			if strings.HasPrefix(t, p) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// slashCommand reads the echo Claude Code writes for a slash command,
// <command-name>/x</command-name> with <command-message> and
// <command-args> in either order, and returns what the person typed,
// "/x args", when it has arguments. Any text outside the tags means it is
// not a bare echo.
func slashCommand(text string) (string, bool) {
	rest := strings.TrimSpace(text)
	var name, args string
	for rest != "" {
		tag, ok := strings.CutPrefix(rest, "<")
		end := strings.IndexByte(tag, '>')
		if !ok || end < 0 {
			return "", false
		}
		tag, rest = tag[:end], tag[end+1:]
		body, after, ok := strings.Cut(rest, "</"+tag+">")
		if !ok {
			return "", false
		}
		switch tag {
		case "command-name":
			name = strings.TrimSpace(body)
		case "command-args":
			args = strings.TrimSpace(body)
		case "command-message":
		default:
			return "", false
		}
		rest = strings.TrimSpace(after)
	}
	if name == "" || args == "" {
		return "", false
	}
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	return name + " " + args, true
}

// titleLen is the most runes a title derived from a message keeps.
const titleLen = 80

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
