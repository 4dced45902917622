package gemini

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/loose"
)

// part is one part of a Gemini API Content: text (a thought when thought is
// set), inline or referenced data, a function call or response, code.
type part struct {
	Text                json.RawMessage `json:"text"`
	Thought             json.RawMessage `json:"thought"`
	InlineData          json.RawMessage `json:"inlineData"`
	FileData            json.RawMessage `json:"fileData"`
	FunctionCall        json.RawMessage `json:"functionCall"`
	FunctionResponse    json.RawMessage `json:"functionResponse"`
	ExecutableCode      json.RawMessage `json:"executableCode"`
	CodeExecutionResult json.RawMessage `json:"codeExecutionResult"`
}

// parts is what a PartListUnion holds, sorted by kind.
type parts struct {
	text        []string
	thinking    []string
	calls       []conversation.ToolCall
	results     []conversation.ToolResult
	attachments []conversation.Attachment
}

// readParts reads a PartListUnion: a string, one part, or an array of
// strings and parts.
func readParts(raw json.RawMessage) parts {
	var p parts
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return p
	}
	switch t[0] {
	case '"':
		p.addText(loose.String(t))
	case '{':
		p.add(t)
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(t, &list) != nil {
			return p
		}
		for _, item := range list {
			item = bytes.TrimSpace(item)
			switch {
			case len(item) == 0:
			case item[0] == '"':
				p.addText(loose.String(item))
			case item[0] == '{':
				p.add(item)
			}
		}
	}
	return p
}

func (p *parts) addText(s string) {
	if s = loose.Clean(s); strings.TrimSpace(s) != "" {
		p.text = append(p.text, s)
	}
}

func (p *parts) add(raw json.RawMessage) {
	var x part
	if json.Unmarshal(raw, &x) != nil {
		return
	}
	switch {
	case !loose.IsNull(x.FunctionCall):
		var fc struct {
			ID   json.RawMessage `json:"id"`
			Name json.RawMessage `json:"name"`
			Args json.RawMessage `json:"args"`
		}
		if json.Unmarshal(x.FunctionCall, &fc) == nil {
			p.calls = append(p.calls, conversation.ToolCall{ID: loose.String(fc.ID), Name: loose.String(fc.Name), Arguments: loose.Arguments(fc.Args)})
		}
	case !loose.IsNull(x.FunctionResponse):
		p.response(x.FunctionResponse)
	case !loose.IsNull(x.InlineData):
		p.attachments = append(p.attachments, inline(x.InlineData))
	case !loose.IsNull(x.FileData):
		var fd struct {
			MimeType json.RawMessage `json:"mimeType"`
			FileURI  json.RawMessage `json:"fileUri"`
			Name     json.RawMessage `json:"displayName"`
		}
		if json.Unmarshal(x.FileData, &fd) == nil {
			a := conversation.Attachment{Name: loose.String(fd.Name), Type: loose.String(fd.MimeType)}
			if uri := loose.String(fd.FileURI); !strings.HasPrefix(uri, "data:") {
				a.Ref = uri
			}
			p.attachments = append(p.attachments, a)
		}
	case !loose.IsNull(x.ExecutableCode):
		var ec struct {
			Code json.RawMessage `json:"code"`
		}
		if json.Unmarshal(x.ExecutableCode, &ec) == nil {
			p.addText(loose.String(ec.Code))
		}
	case !loose.IsNull(x.CodeExecutionResult):
		var cr struct {
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal(x.CodeExecutionResult, &cr) == nil {
			p.addText(loose.String(cr.Output))
		}
	case loose.Bool(x.Thought):
		if s := loose.Clean(loose.String(x.Text)); strings.TrimSpace(s) != "" {
			p.thinking = append(p.thinking, s)
		}
	default:
		p.addText(loose.String(x.Text))
	}
}

// response reads a functionResponse: its output (or error) as the result's
// text; any other response object as its JSON; images it carries as
// attachments.
func (p *parts) response(raw json.RawMessage) {
	var fr struct {
		ID       json.RawMessage `json:"id"`
		Name     json.RawMessage `json:"name"`
		Response json.RawMessage `json:"response"`
		Parts    json.RawMessage `json:"parts"`
	}
	if json.Unmarshal(raw, &fr) != nil {
		return
	}
	r := conversation.ToolResult{CallID: loose.String(fr.ID), Name: loose.String(fr.Name)}
	var resp struct {
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	body := bytes.TrimSpace(fr.Response)
	if len(body) > 0 && body[0] == '{' && json.Unmarshal(body, &resp) == nil {
		switch {
		case !loose.IsNull(resp.Output):
			r.Content = loose.Clean(loose.String(resp.Output))
		case !loose.IsNull(resp.Error):
			r.Content = loose.Clean(loose.String(resp.Error))
			r.IsError = true
		case !loose.IsNull(resp.Result):
			r.Content = loose.Clean(loose.String(resp.Result))
		default:
			r.Content = loose.Clean(loose.String(body))
		}
	} else {
		r.Content = loose.Clean(loose.String(body))
	}
	p.results = append(p.results, r)
	p.attachments = append(p.attachments, readParts(fr.Parts).attachments...)
}

// inline describes inline data without its payload.
func inline(raw json.RawMessage) conversation.Attachment {
	var d struct {
		MimeType json.RawMessage `json:"mimeType"`
		Data     json.RawMessage `json:"data"`
		Name     json.RawMessage `json:"displayName"`
	}
	_ = json.Unmarshal(raw, &d)
	a := conversation.Attachment{Name: loose.String(d.Name), Type: loose.String(d.MimeType)}
	a.Size = loose.Base64Size(loose.String(d.Data))
	return a
}
