// Package blocks decodes the content blocks of Anthropic-style messages
// (text, thinking, tool_use, tool_result, image, document), which Claude
// Code, Cline and Roo Code, and Cursor's transcripts all write. Each format
// sorts the blocks its own way; this package only reads them.
package blocks

import (
	"encoding/json"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Block is one content block. Fields are raw so a value of an unexpected
// type spoils only itself.
type Block struct {
	Type      json.RawMessage `json:"type"`
	Text      json.RawMessage `json:"text"`
	Thinking  json.RawMessage `json:"thinking"`
	Reasoning json.RawMessage `json:"reasoning"`
	ID        json.RawMessage `json:"id"`
	Name      json.RawMessage `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID json.RawMessage `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   json.RawMessage `json:"is_error"`
	Source    json.RawMessage `json:"source"`
	Title     json.RawMessage `json:"title"`
}

// Decode reads a message's content as a list of blocks: an array of blocks,
// one block object, or a string (or other scalar), which is one text block
// of no type. A string inside the array is a text block too; an element that
// is neither is dropped.
func Decode(raw json.RawMessage) []Block {
	if loose.IsNull(raw) {
		return nil
	}
	switch loose.Lead(raw) {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		out := make([]Block, 0, len(items))
		for _, it := range items {
			var b Block
			if json.Unmarshal(it, &b) == nil {
				out = append(out, b)
			} else if s := loose.String(it); s != "" {
				out = append(out, Block{Text: quote(s)})
			}
		}
		return out
	case '{':
		var b Block
		if json.Unmarshal(raw, &b) == nil {
			return []Block{b}
		}
		return nil
	}
	return []Block{{Text: raw}}
}

func quote(s string) json.RawMessage {
	out, _ := json.Marshal(s)
	return out
}

// Result reads a tool_result's content: a string, or text blocks (joined
// by newlines) and image or document blocks (returned as attachments). A
// block of another kind gives its text, or failing that its content.
func Result(raw json.RawMessage) (string, []conversation.Attachment) {
	var text []string
	var atts []conversation.Attachment
	for _, b := range Decode(raw) {
		switch typ := loose.String(b.Type); typ {
		case "image", "document":
			atts = append(atts, Attachment(typ, b))
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

// Attachment describes an image or document block of the given kind by its
// title, media type and size, or by the URL or file id it points to; its
// payload is never kept. The type falls back to kind.
func Attachment(kind string, b Block) conversation.Attachment {
	var src struct {
		Type      json.RawMessage `json:"type"`
		MediaType json.RawMessage `json:"media_type"`
		Data      json.RawMessage `json:"data"`
		URL       json.RawMessage `json:"url"`
		FileID    json.RawMessage `json:"file_id"`
	}
	_ = json.Unmarshal(b.Source, &src)
	a := conversation.Attachment{
		Name: strings.Join(strings.Fields(loose.String(b.Title)), " "),
		Type: loose.String(src.MediaType),
	}
	data := loose.String(src.Data)
	typ := loose.String(src.Type)
	if typ == "" {
		// Some writers leave the source's type out: go by what it holds.
		switch {
		case data != "":
			typ = "base64"
		case !loose.IsNull(src.URL):
			typ = "url"
		}
	}
	switch typ {
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
