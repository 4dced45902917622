package cursor

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// storeName is the CLI's per-session database.
const storeName = "store.db"

// storeMeta is the JSON of meta key "0", stored hex-encoded.
type storeMeta struct {
	AgentID       json.RawMessage `json:"agentId"`
	Name          json.RawMessage `json:"name"`
	CreatedAt     json.RawMessage `json:"createdAt"`
	LastUsedModel json.RawMessage `json:"lastUsedModel"`
}

// blobMessage is a JSON blob: a message in the AI SDK shape, content a
// string or parts.
type blobMessage struct {
	Role            json.RawMessage `json:"role"`
	Content         json.RawMessage `json:"content"`
	ProviderOptions json.RawMessage `json:"providerOptions"`
}

type part struct {
	Type       json.RawMessage `json:"type"`
	Text       json.RawMessage `json:"text"`
	ToolCallID json.RawMessage `json:"toolCallId"`
	ToolName   json.RawMessage `json:"toolName"`
	Args       json.RawMessage `json:"args"`
	Input      json.RawMessage `json:"input"`
	Result     json.RawMessage `json:"result"`
	Output     json.RawMessage `json:"output"`
	IsError    json.RawMessage `json:"isError"`
	Image      json.RawMessage `json:"image"`
	Data       json.RawMessage `json:"data"`
	MimeType   json.RawMessage `json:"mimeType"`
	MediaType  json.RawMessage `json:"mediaType"`
	Filename   json.RawMessage `json:"filename"`
}

type blobRow struct {
	id   string
	data []byte
}

// readStore copies meta and every blob, in insertion (rowid) order, out of
// the store in one read transaction. A database without Cursor's tables
// gives nothing.
func readStore(ctx context.Context, path string) (meta []byte, blobs []blobRow, err error) {
	err = sqlitedb.Read(ctx, path, func(tx *sql.Tx, tables map[string]bool) error {
		if !tables["blobs"] {
			return nil
		}
		if tables["meta"] {
			rows, err := queryKV(ctx, tx, `SELECT key, value FROM meta WHERE key = '0'`)
			if err != nil {
				return sqlitedb.Error(path, "read meta", err)
			}
			if len(rows) > 0 {
				meta = rows[0].value
			}
		}
		rows, err := queryKV(ctx, tx, `SELECT id, data FROM blobs ORDER BY rowid`)
		if err != nil {
			return sqlitedb.Error(path, "read blobs", err)
		}
		for _, r := range rows {
			blobs = append(blobs, blobRow{id: r.key, data: r.value})
		}
		return nil
	})
	return meta, blobs, err
}

// decodeMeta reads meta "0": hex-encoded JSON, or JSON as it is.
func decodeMeta(v []byte) (storeMeta, bool) {
	var m storeMeta
	t := bytes.TrimSpace(v)
	if dec, err := hex.DecodeString(string(t)); err == nil {
		t = dec
	}
	return m, len(t) > 0 && json.Unmarshal(t, &m) == nil
}

// parseStore reads a cursor-agent store: its JSON message blobs in the
// order they were written. Binary blobs (the tree nodes that link messages
// into branches) are passed over; an abandoned branch's messages are read
// too, in the place they were written.
func parseStore(ctx context.Context, path string) (*parsers.Result, error) {
	metaRaw, blobs, err := readStore(ctx, path)
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	meta, metaOK := decodeMeta(metaRaw)
	if metaRaw != nil && !metaOK {
		res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "meta key 0 is not hex-encoded JSON: ignored"))
	}
	c := &conversation.Conversation{Source: AgentName, File: path}
	for _, bl := range blobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := bytes.TrimSpace(bl.data)
		if len(t) == 0 || t[0] != '{' {
			continue // a tree node, not a message
		}
		var m blobMessage
		if err := json.Unmarshal(t, &m); err != nil {
			if _, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok {
				res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("blob %s: %w: %v", short(bl.id), parsers.ErrSyntax, err)})
				continue
			}
		}
		role := loose.String(m.Role)
		if role == "" {
			continue // notebook or other non-message JSON
		}
		msgs, summary := blobToMessages(role, &m)
		if summary != "" {
			c.Summaries = append(c.Summaries, summary)
		}
		for i := range msgs {
			msgs[i].ID = bl.id
		}
		c.Messages = append(c.Messages, msgs...)
	}
	if len(c.Messages) == 0 {
		return res, nil
	}
	c.Renumber()
	c.ID = loose.String(meta.AgentID)
	if c.ID == "" {
		c.ID = filepath.Base(filepath.Dir(path)) // the session's folder is named by its id
	}
	if name := strings.TrimSpace(loose.String(meta.Name)); name != "" && !genericName(name) {
		c.Title = loose.Shorten(name, 200)
	} else {
		c.Title = firstPromptTitle(c.Messages)
	}
	c.Model = loose.String(meta.LastUsedModel)
	c.Date = loose.Time(meta.CreatedAt)
	if first, last := conversation.Span(c.Messages); !first.IsZero() {
		if c.Date.IsZero() || first.Before(c.Date) {
			c.Date = first
		}
		c.Updated = last
	}
	if c.Updated.Before(c.Date) {
		c.Updated = c.Date
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// genericName reports the names Cursor gives a chat before it has one.
func genericName(s string) bool {
	switch strings.ToLower(s) {
	case "new agent", "new chat", "new composer", "untitled":
		return true
	}
	return false
}

func short(id string) string {
	if len(id) > 16 {
		return id[:16] + "…"
	}
	return id
}

// blobToMessages turns one message blob into its message: one, or for a
// prompt with context around its <user_query>, the context as a hidden
// message first. A compaction summary (providerOptions.cursor.isSummary)
// is kept hidden and returned as the conversation's summary too.
func blobToMessages(role string, m *blobMessage) (out []conversation.Message, summary string) {
	msg := agentMessage(role)
	var text, thinking []string
	t := bytes.TrimSpace(m.Content)
	switch {
	case len(t) > 0 && t[0] == '"':
		text = append(text, loose.String(t))
	case len(t) > 0 && t[0] == '[':
		var raws []json.RawMessage
		_ = json.Unmarshal(t, &raws)
		for _, raw := range raws {
			var p part
			if json.Unmarshal(raw, &p) != nil {
				continue
			}
			switch loose.String(p.Type) {
			case "text":
				text = append(text, loose.String(p.Text))
			case "reasoning", "redacted-reasoning":
				if s := loose.String(p.Text); strings.TrimSpace(s) != "" {
					thinking = append(thinking, s)
				}
			case "tool-call":
				args := p.Args
				if loose.IsNull(args) {
					args = p.Input
				}
				msg.ToolCalls = append(msg.ToolCalls, conversation.ToolCall{
					ID: loose.String(p.ToolCallID), Name: loose.String(p.ToolName), Arguments: loose.Clean(loose.JSONText(loose.String(args))),
				})
			case "tool-result":
				out := p.Result
				if loose.IsNull(out) {
					out = p.Output
				}
				msg.ToolResults = append(msg.ToolResults, conversation.ToolResult{
					CallID: loose.String(p.ToolCallID), Name: loose.String(p.ToolName),
					Content: loose.Clean(loose.JSONText(loose.String(out))), IsError: loose.Bool(p.IsError),
				})
			case "image", "file":
				msg.Attachments = append(msg.Attachments, partAttachment(&p))
			}
		}
	}
	msg.Content, msg.Thinking = joinText(text), joinText(thinking)
	out = takePrompt(&msg)
	if msg.Role == conversation.RoleUser {
		var opts struct {
			Cursor struct {
				IsSummary json.RawMessage `json:"isSummary"`
			} `json:"cursor"`
		}
		if json.Unmarshal(m.ProviderOptions, &opts) == nil && loose.Bool(opts.Cursor.IsSummary) {
			msg.Hidden = true
			summary = msg.Content
		}
	}
	if hasBody(msg) {
		out = append(out, msg)
	}
	return out, summary
}

// partAttachment describes an image or file part by name, type and size;
// its bytes ({"__type": "Uint8Array", "hex": …}, base64 or a data: URL) are
// never kept.
func partAttachment(p *part) conversation.Attachment {
	a := conversation.Attachment{Name: loose.String(p.Filename), Type: loose.String(p.MimeType)}
	if a.Type == "" {
		a.Type = loose.String(p.MediaType)
	}
	payload := p.Image
	if loose.IsNull(payload) {
		payload = p.Data
	}
	t := bytes.TrimSpace(payload)
	switch {
	case len(t) > 0 && t[0] == '{':
		var u struct {
			Hex  json.RawMessage `json:"hex"`
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(t, &u) == nil {
			if h := loose.String(u.Hex); h != "" {
				a.Size = int64(len(h) / 2)
			} else if d := loose.String(u.Data); d != "" {
				a.Size = loose.Base64Size(d)
			}
		}
	case len(t) > 0 && t[0] == '"':
		s := loose.String(t)
		if mt, size, ok := loose.DataURL(s); ok {
			a.Size = size
			if a.Type == "" {
				a.Type = mt
			}
		} else if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "file:") {
			a.Ref = s
		} else {
			a.Size = loose.Base64Size(s)
		}
	}
	if a.Name == "" {
		a.Name = loose.String(p.Type)
	}
	return a
}
