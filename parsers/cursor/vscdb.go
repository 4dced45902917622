package cursor

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// vscdbName is the state database of VS Code and its forks.
const vscdbName = "state.vscdb"

// ItemTable keys of older Cursor builds.
const (
	keyChatData  = "workbench.panel.aichat.view.aichat.chatdata"
	keyComposers = "composer.composerData"
)

// vscdbRows is what a parse copies out of state.vscdb.
type vscdbRows struct {
	composers []kv // cursorDiskKV composerData:<id>
	bubbles   []kv // cursorDiskKV bubbleId:<composerId>:<bubbleId>
	chatData  []byte
	composerD []byte
}

func readVscdb(ctx context.Context, path string) (*vscdbRows, error) {
	var out vscdbRows
	err := sqlitedb.Read(ctx, path, func(tx *sql.Tx, tables map[string]bool) error {
		var err error
		if tables["cursorDiskKV"] {
			// Range scans use the key's unique index; ';' follows ':'.
			if out.composers, err = queryKV(ctx, tx, `SELECT key, value FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' ORDER BY key`); err != nil {
				return sqlitedb.Error(path, "read composers", err)
			}
			if out.bubbles, err = queryKV(ctx, tx, `SELECT key, value FROM cursorDiskKV WHERE key >= 'bubbleId:' AND key < 'bubbleId;' ORDER BY key`); err != nil {
				return sqlitedb.Error(path, "read bubbles", err)
			}
		}
		if tables["ItemTable"] {
			rows, err := queryKV(ctx, tx, `SELECT key, value FROM ItemTable WHERE key IN (?, ?)`, keyChatData, keyComposers)
			if err != nil {
				return sqlitedb.Error(path, "read ItemTable", err)
			}
			for _, r := range rows {
				switch r.key {
				case keyChatData:
					out.chatData = r.value
				case keyComposers:
					out.composerD = r.value
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// composer is a composerData value (and an element of the older
// composer.composerData allComposers list).
type composer struct {
	ComposerID   json.RawMessage   `json:"composerId"`
	Name         json.RawMessage   `json:"name"`
	CreatedAt    json.RawMessage   `json:"createdAt"`
	LastUpdated  json.RawMessage   `json:"lastUpdatedAt"`
	Headers      []json.RawMessage `json:"fullConversationHeadersOnly"`
	Conversation []json.RawMessage `json:"conversation"`
	ModelConfig  struct {
		ModelName json.RawMessage `json:"modelName"`
	} `json:"modelConfig"`
}

// bubble is one message of a composer.
type bubble struct {
	Type       json.RawMessage `json:"type"`
	BubbleID   json.RawMessage `json:"bubbleId"`
	Text       json.RawMessage `json:"text"`
	RichText   json.RawMessage `json:"richText"`
	Thinking   json.RawMessage `json:"thinking"`
	ToolFormer *struct {
		Name       json.RawMessage `json:"name"`
		ToolCallID json.RawMessage `json:"toolCallId"`
		RawArgs    json.RawMessage `json:"rawArgs"`
		Params     json.RawMessage `json:"params"`
		Result     json.RawMessage `json:"result"`
		Status     json.RawMessage `json:"status"`
	} `json:"toolFormerData"`
	CodeBlocks []struct {
		Content    json.RawMessage `json:"content"`
		LanguageID json.RawMessage `json:"languageId"`
	} `json:"codeBlocks"`
	Images []struct {
		Path json.RawMessage `json:"path"`
		Name json.RawMessage `json:"name"`
	} `json:"images"`
	CreatedAt  json.RawMessage `json:"createdAt"`
	TimingInfo struct {
		ClientStartTime json.RawMessage `json:"clientStartTime"`
	} `json:"timingInfo"`
	ModelInfo struct {
		ModelName json.RawMessage `json:"modelName"`
	} `json:"modelInfo"`
}

// chatTabs is the older chat panel's value.
type chatTabs struct {
	Tabs []chatTab `json:"tabs"`
}

// chatTab is one tab of the older chat panel.
type chatTab struct {
	TabID        json.RawMessage `json:"tabId"`
	ChatTitle    json.RawMessage `json:"chatTitle"`
	LastSendTime json.RawMessage `json:"lastSendTime"`
	Bubbles      []struct {
		ID        json.RawMessage `json:"id"`
		Type      json.RawMessage `json:"type"`
		Text      json.RawMessage `json:"text"`
		RawText   json.RawMessage `json:"rawText"`
		ModelType json.RawMessage `json:"modelType"`
	} `json:"bubbles"`
}

// Parse reads every chat of a state.vscdb. r is not read: SQLite needs the
// file itself.
func (*IDE) Parse(ctx context.Context, path string, _ io.Reader) (*parsers.Result, error) {
	rows, err := readVscdb(ctx, path)
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	project := workspaceProject(filepath.Join(filepath.Dir(path), "workspace.json"))
	byComposer := map[string]map[string][]byte{}
	for _, b := range rows.bubbles {
		cid, bid, ok := strings.Cut(strings.TrimPrefix(b.key, "bubbleId:"), ":")
		if !ok {
			continue
		}
		if byComposer[cid] == nil {
			byComposer[cid] = map[string][]byte{}
		}
		byComposer[cid][bid] = b.value
	}
	seen := map[string]bool{}
	add := func(c *conversation.Conversation) {
		if c == nil || seen[c.ID] {
			return
		}
		seen[c.ID] = true
		if c.Project == "" {
			c.Project = project
		}
		res.Conversations = append(res.Conversations, c)
	}
	for _, row := range rows.composers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id := strings.TrimPrefix(row.key, "composerData:")
		var cd composer
		if err := json.Unmarshal(row.value, &cd); err != nil {
			res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("%s: %w: %v", row.key, parsers.ErrSyntax, err)})
			continue
		}
		add(buildComposer(path, id, &cd, byComposer[id], res))
	}
	if len(rows.composerD) > 0 {
		var all struct {
			AllComposers []json.RawMessage `json:"allComposers"`
		}
		if err := json.Unmarshal(rows.composerD, &all); err != nil {
			res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("%s: %w: %v", keyComposers, parsers.ErrSyntax, err)})
		}
		for i, raw := range all.AllComposers {
			var cd composer
			if json.Unmarshal(raw, &cd) != nil {
				res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "%s: composer %d is not an object: skipped", keyComposers, i))
				continue
			}
			add(buildComposer(path, loose.String(cd.ComposerID), &cd, nil, res))
		}
	}
	if len(rows.chatData) > 0 {
		var tabs chatTabs
		if err := json.Unmarshal(rows.chatData, &tabs); err != nil {
			res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("%s: %w: %v", keyChatData, parsers.ErrSyntax, err)})
		}
		for _, tab := range tabs.Tabs {
			add(buildTab(tab))
		}
	}
	return res, nil
}

// buildComposer reads one composer's bubbles in its order: the headers list,
// else the inline conversation, else every stored bubble by time.
func buildComposer(path, id string, cd *composer, stored map[string][]byte, res *parsers.Result) *conversation.Conversation {
	if id == "" {
		return nil
	}
	c := &conversation.Conversation{ID: id, Source: Name, File: path, Model: loose.String(cd.ModelConfig.ModelName)}
	addBubble := func(raw []byte, where string) {
		var b bubble
		if err := json.Unmarshal(raw, &b); err != nil {
			res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("composer %s, %s: %w: %v", id, where, parsers.ErrSyntax, err)})
			return
		}
		if m, ok := bubbleMessage(&b); ok {
			c.Messages = append(c.Messages, m)
		}
	}
	switch {
	case len(cd.Headers) > 0:
		for _, h := range cd.Headers {
			var hd struct {
				BubbleID json.RawMessage `json:"bubbleId"`
			}
			_ = json.Unmarshal(h, &hd)
			bid := loose.String(hd.BubbleID)
			raw, ok := stored[bid]
			if !ok {
				res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "composer %s lists bubble %q, which is not stored: skipped", id, bid))
				continue
			}
			addBubble(raw, "bubble "+bid)
		}
	case len(cd.Conversation) > 0:
		for i, raw := range cd.Conversation {
			addBubble(raw, fmt.Sprintf("conversation[%d]", i))
		}
	default:
		type kb struct {
			key string
			at  time.Time
			raw []byte
		}
		var list []kb
		for k, raw := range stored {
			var b bubble
			_ = json.Unmarshal(raw, &b)
			list = append(list, kb{k, bubbleTime(&b), raw})
		}
		sort.Slice(list, func(i, j int) bool {
			if !list[i].at.Equal(list[j].at) {
				return list[i].at.Before(list[j].at)
			}
			return list[i].key < list[j].key
		})
		for _, e := range list {
			addBubble(e.raw, "bubble "+e.key)
		}
	}
	if len(c.Messages) == 0 {
		return nil // a chat opened and never used
	}
	c.Renumber()
	if name := strings.TrimSpace(loose.String(cd.Name)); name != "" && !genericName(name) {
		c.Title = loose.Shorten(name, 200)
	} else {
		c.Title = firstPromptTitle(c.Messages)
	}
	c.Date, c.Updated = loose.Time(cd.CreatedAt), loose.Time(cd.LastUpdated)
	if first, last := conversation.Span(c.Messages); !first.IsZero() {
		if c.Date.IsZero() {
			c.Date = first
		}
		if last.After(c.Updated) {
			c.Updated = last
		}
	}
	if c.Updated.Before(c.Date) {
		c.Updated = c.Date
	}
	if c.Model == "" {
		for _, m := range c.Messages {
			if m.Model != "" {
				c.Model = m.Model
				break
			}
		}
	}
	return c
}

func bubbleTime(b *bubble) time.Time {
	if t := loose.Time(b.CreatedAt); !t.IsZero() {
		return t
	}
	return loose.Time(b.TimingInfo.ClientStartTime)
}

// bubbleMessage turns a bubble into a message; false for an empty bubble
// (Cursor writes placeholders while a reply streams).
func bubbleMessage(b *bubble) (conversation.Message, bool) {
	var m conversation.Message
	switch n, _ := loose.Int(b.Type); n {
	case 1:
		m.Role = conversation.RoleUser
	case 2:
		m.Role = conversation.RoleAssistant
	default:
		return m, false
	}
	m.ID = loose.String(b.BubbleID)
	m.Timestamp = bubbleTime(b)
	m.Model = loose.String(b.ModelInfo.ModelName)
	text := loose.String(b.Text)
	if strings.TrimSpace(text) == "" {
		text = richText(loose.String(b.RichText))
	}
	if strings.TrimSpace(text) == "" {
		var code []string
		for _, cb := range b.CodeBlocks {
			if s := loose.String(cb.Content); s != "" {
				code = append(code, "```"+loose.String(cb.LanguageID)+"\n"+s+"\n```")
			}
		}
		text = strings.Join(code, "\n\n")
	}
	m.Content = loose.Clean(strings.TrimSpace(text))
	th := bytes.TrimSpace(b.Thinking)
	if len(th) > 0 && th[0] == '{' {
		var t struct {
			Text json.RawMessage `json:"text"`
		}
		_ = json.Unmarshal(th, &t)
		m.Thinking = loose.Clean(strings.TrimSpace(loose.String(t.Text)))
	} else {
		m.Thinking = loose.Clean(strings.TrimSpace(loose.String(th)))
	}
	if tf := b.ToolFormer; tf != nil && loose.String(tf.Name) != "" {
		args := loose.String(tf.RawArgs)
		if args == "" {
			args = loose.String(tf.Params)
		}
		m.ToolCalls = []conversation.ToolCall{{ID: loose.String(tf.ToolCallID), Name: loose.String(tf.Name), Arguments: loose.Clean(loose.JSONText(args))}}
		if out := loose.String(tf.Result); out != "" {
			m.ToolResults = []conversation.ToolResult{{
				CallID: loose.String(tf.ToolCallID), Name: loose.String(tf.Name), Content: loose.Clean(loose.JSONText(out)),
				IsError: loose.String(tf.Status) == "error",
			}}
		}
		m.Cancelled = loose.String(tf.Status) == "cancelled"
	}
	for _, im := range b.Images {
		name := loose.String(im.Name)
		if name == "" {
			name = filepath.Base(loose.String(im.Path))
		}
		m.Attachments = append(m.Attachments, conversation.Attachment{Name: name, Type: "image"})
	}
	if m.Role == conversation.RoleUser {
		p := splitPrompt(m.Content)
		if p.context == "" {
			m.Hidden = p.hidden
		}
	}
	ok := m.Content != "" || m.Thinking != "" || len(m.ToolCalls) > 0 || len(m.Attachments) > 0
	return m, ok
}

// richText gathers the text of a Lexical editor state, one line per
// paragraph, for bubbles whose text field is empty.
func richText(s string) string {
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		return s
	}
	var root struct {
		Root json.RawMessage `json:"root"`
	}
	if json.Unmarshal([]byte(s), &root) != nil {
		return ""
	}
	var lines []string
	var walk func(raw json.RawMessage, b *strings.Builder)
	walk = func(raw json.RawMessage, b *strings.Builder) {
		var n struct {
			Text     json.RawMessage   `json:"text"`
			Children []json.RawMessage `json:"children"`
		}
		if json.Unmarshal(raw, &n) != nil {
			return
		}
		b.WriteString(loose.String(n.Text))
		for _, ch := range n.Children {
			walk(ch, b)
		}
	}
	var top struct {
		Children []json.RawMessage `json:"children"`
	}
	_ = json.Unmarshal(root.Root, &top)
	for _, ch := range top.Children {
		var b strings.Builder
		walk(ch, &b)
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

// buildTab reads a chat tab of the older chat panel.
func buildTab(tab chatTab) *conversation.Conversation {
	id := loose.String(tab.TabID)
	if id == "" {
		return nil
	}
	c := &conversation.Conversation{ID: id, Source: Name}
	for _, b := range tab.Bubbles {
		var m conversation.Message
		switch loose.String(b.Type) {
		case "user":
			m.Role = conversation.RoleUser
		case "ai":
			m.Role = conversation.RoleAssistant
		default:
			continue
		}
		text := loose.String(b.Text)
		if strings.TrimSpace(text) == "" {
			text = loose.String(b.RawText)
		}
		m.ID, m.Model = loose.String(b.ID), loose.String(b.ModelType)
		m.Content = loose.Clean(strings.TrimSpace(text))
		if m.Content == "" {
			continue
		}
		c.Messages = append(c.Messages, m)
	}
	if len(c.Messages) == 0 {
		return nil
	}
	c.Renumber()
	c.Title = strings.TrimSpace(loose.String(tab.ChatTitle))
	if c.Title == "" || genericName(c.Title) {
		c.Title = firstPromptTitle(c.Messages)
	}
	c.Updated = loose.Time(tab.LastSendTime)
	return c
}

// workspaceProject names the folder of a workspaceStorage database from the
// workspace.json beside it ({"folder": "file:///…"} or {"workspace":
// "file:///….code-workspace"}); "" for globalStorage.
func workspaceProject(path string) string {
	return strings.TrimSuffix(loose.ProjectName(loose.WorkspaceFolder(path)), ".code-workspace")
}
