package codex

import (
	"encoding/json"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// part is one content part of a message or reasoning item.
type part struct {
	Type     json.RawMessage `json:"type"`
	Text     json.RawMessage `json:"text"`
	ImageURL json.RawMessage `json:"image_url"`
	Refusal  json.RawMessage `json:"refusal"`
}

// parts reads raw as a list of parts; a bare string is one text part.
func parts(raw json.RawMessage) []part {
	if loose.IsNull(raw) {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		items = []json.RawMessage{raw}
	}
	out := make([]part, 0, len(items))
	for _, it := range items {
		var p part
		if json.Unmarshal(it, &p) != nil {
			p = part{Text: it} // a string where a part was due
		}
		out = append(out, p)
	}
	return out
}

// readParts returns a message's text (input_text, output_text parts) and
// its images, described without their payload.
func readParts(raw json.RawMessage) (string, []conversation.Attachment) {
	var text []string
	var atts []conversation.Attachment
	for _, p := range parts(raw) {
		switch loose.String(p.Type) {
		case "input_image", "image":
			atts = append(atts, image(loose.String(p.ImageURL)))
		default:
			t := loose.String(p.Text)
			if t == "" {
				t = loose.String(p.Refusal)
			}
			if t = loose.Clean(t); strings.TrimSpace(t) != "" {
				text = append(text, t)
			}
		}
	}
	return strings.Join(text, "\n\n"), atts
}

// partTexts returns the texts of a reasoning item's summary or content.
func partTexts(raw json.RawMessage) []string {
	var out []string
	for _, p := range parts(raw) {
		if t := strings.TrimSpace(loose.Clean(loose.String(p.Text))); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// image describes an image URL: a data: URL by its type and size, any
// other by reference.
func image(url string) conversation.Attachment {
	if mt, size, ok := loose.DataURL(url); ok {
		return conversation.Attachment{Type: mt, Size: size}
	}
	return conversation.Attachment{Type: "image", Ref: url}
}

// images reads an event's list of image URLs.
func images(raw json.RawMessage) []conversation.Attachment {
	var urls []json.RawMessage
	if loose.IsNull(raw) || json.Unmarshal(raw, &urls) != nil {
		return nil
	}
	var atts []conversation.Attachment
	for _, u := range urls {
		if s := loose.String(u); s != "" {
			atts = append(atts, image(s))
		}
	}
	return atts
}

// readOutput reads a tool output: JSON text inside a string holding
// {output, metadata: {exit_code}}, plain text, a list of content parts, or
// (Codex's FunctionCallOutputPayload written whole) an object with content
// text or parts, content_items or a body, and success. An object of another
// shape keeps its text, read with loose.ReadableJSON: never an empty output.
func readOutput(raw json.RawMessage) (text string, isErr bool, atts []conversation.Attachment) {
	lead := loose.Lead(raw)
	if lead == 0 {
		return "", false, nil
	}
	var obj struct {
		Output       json.RawMessage `json:"output"`
		Content      json.RawMessage `json:"content"`
		ContentItems json.RawMessage `json:"content_items"`
		Body         json.RawMessage `json:"body"`
		Success      json.RawMessage `json:"success"`
		Metadata     struct {
			ExitCode json.RawMessage `json:"exit_code"`
		} `json:"metadata"`
	}
	switch lead {
	case '"':
		s := loose.String(raw)
		inner := strings.TrimSpace(s)
		if strings.HasPrefix(inner, "{") && json.Unmarshal([]byte(inner), &obj) == nil &&
			(obj.Output != nil || obj.Content != nil) {
			break
		}
		return loose.Clean(s), false, nil
	case '{':
		if json.Unmarshal(raw, &obj) != nil {
			return loose.Clean(loose.String(raw)), false, nil
		}
	case '[':
		text, atts := readParts(raw)
		return text, false, atts
	default:
		return loose.Clean(loose.String(raw)), false, nil
	}
	for _, body := range []json.RawMessage{obj.Output, obj.Content, obj.ContentItems, obj.Body} {
		if loose.IsNull(body) {
			continue
		}
		switch loose.Lead(body) {
		case '[':
			text, atts = readParts(body)
		case '{':
			text, _, atts = readOutput(body)
		default:
			text = loose.Clean(loose.String(body))
		}
		if strings.TrimSpace(text) != "" || len(atts) > 0 {
			break
		}
	}
	if strings.TrimSpace(text) == "" && len(atts) == 0 && lead == '{' {
		if r, ok := loose.ReadableJSON(string(raw)); ok && r != "{}" {
			text = loose.Clean(r)
		}
	}
	if code, ok := loose.Int(obj.Metadata.ExitCode); ok && code != 0 {
		isErr = true
	}
	if !loose.IsNull(obj.Success) && !loose.Bool(obj.Success) {
		isErr = true
	}
	return text, isErr, atts
}

// Openings of the user-role text Codex writes itself: the environment
// block, AGENTS.md instructions, interruption notes.
var injectedPrefixes = []string{
	"<environment_context>", "<user_instructions>", "<INSTRUCTIONS>",
	"# AGENTS.md instructions", "<turn_aborted>", "<subagent_notification>",
}

// ideContext opens the block the IDE extension puts before the request.
const (
	ideContext = "# Context from my IDE setup:"
	ideRequest = "## My request for Codex:"
)

// injected reports whether a user message is context Codex added rather
// than something a person typed. An IDE context block is injected unless
// it carries the person's request.
func injected(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.HasPrefix(t, ideContext) && !strings.Contains(t, ideRequest)
}

// request returns the part of a user message a person typed: after the
// IDE context block, when there is one.
func request(text string) string {
	if strings.HasPrefix(strings.TrimSpace(text), ideContext) {
		if _, after, ok := strings.Cut(text, ideRequest); ok {
			return after
		}
	}
	return text
}

// titleLen is the most runes a title derived from a message keeps.
const titleLen = 80
