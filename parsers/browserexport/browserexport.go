// Package browserexport reads the browser chat exports that conversation-
// memory imports: {"threads": [{id, name, messages: [{text, sender}],
// createdAt}]} as its FORMAT.md documents, and the backup its importer
// really reads, {"indexedDB": {"threads": [{id, name, branches: [{messages,
// createdAt}]}]}}. One file holds many threads.
package browserexport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/portable"
)

// Name is the family name, the Source of every conversation read here.
const Name = "browser-export"

// Parser reads browser chat exports.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns a browser-export parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "browser chat exports and backups (chat-backup-*.json): threads of {text, sender} messages, with every branch kept",
		Detection:   "a .json object whose \"threads\" hold threads with \"messages\" or \"branches\", or whose \"indexedDB\" object holds \"threads\"",
		Locations:   []string{"chat-backup-*.json files saved by the browser chat's backup or export"},
		Version:     2, // 2: a torn export keeps the threads and messages written whole before the tear
	}
}

// Detect reports whether path looks like a browser chat export, from the
// keys its head shows.
func (*Parser) Detect(path string, head []byte) bool {
	if !parsers.HasExt(path, ".json") {
		return false
	}
	s := jsonhead.Scan(head)
	if s.Root != '{' {
		return false
	}
	if k, ok := s.Kind("", "indexedDB"); ok && k == '{' {
		if k, ok := s.Kind("indexedDB", "threads"); ok {
			return k == '[' || k == '{' || k == 0
		}
		// Other object stores can come first and fill the head; the
		// importer's own file name settles it.
		return !s.Complete && strings.HasPrefix(filepath.Base(path), "chat-backup")
	}
	if k, ok := s.Kind("", "threads"); !ok || (k != '[' && k != 0) {
		return false
	}
	const thread = "threads/[]"
	if !s.Has(thread, "messages", "branches") {
		// A long thread name can push "messages" out of the head: then
		// its name and createdAt must show, and the head must be cut.
		if s.Complete || !s.Has(thread, "name") || !s.Has(thread, "createdAt") {
			return false
		}
	}
	// Messages, where the head shows one, are {text, sender}: a forum
	// dump with "threads" of {author, body} is not ours.
	for _, p := range []string{thread + "/messages/[]", thread + "/branches/[]/messages/[]"} {
		if s.Any(p) && !s.Has(p, "sender", "text") {
			return false
		}
	}
	return true
}

type rawRoot struct {
	Threads   json.RawMessage `json:"threads"`
	IndexedDB json.RawMessage `json:"indexedDB"`
}

type rawThread struct {
	ID         json.RawMessage `json:"id"`
	Name       json.RawMessage `json:"name"`
	Title      json.RawMessage `json:"title"`
	Messages   json.RawMessage `json:"messages"`
	Branches   json.RawMessage `json:"branches"`
	CreatedAt  json.RawMessage `json:"createdAt"`
	CreatedAt2 json.RawMessage `json:"created_at"`
	UpdatedAt  json.RawMessage `json:"updatedAt"`
}

type rawBranch struct {
	Messages  json.RawMessage `json:"messages"`
	CreatedAt json.RawMessage `json:"createdAt"`
	UpdatedAt json.RawMessage `json:"updatedAt"`
}

type rawMessage struct {
	ID        json.RawMessage `json:"id"`
	Text      json.RawMessage `json:"text"`
	Content   json.RawMessage `json:"content"`
	Sender    json.RawMessage `json:"sender"`
	Role      json.RawMessage `json:"role"`
	CreatedAt json.RawMessage `json:"createdAt"`
	Timestamp json.RawMessage `json:"timestamp"`
}

// checkEvery is how many messages pass between context checks.
const checkEvery = 256

// Parse reads every thread of the export. Each thread is one conversation
// (its id rule, NewID("browser:"+thread.id, createdAt), is per thread); the
// messages of branch i follow in branch order with Branch = "i", so every
// message of every branch is kept and can be told apart.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' {
		var top json.RawMessage
		if err := loose.Unmarshal(path, data, &top); err != nil {
			return nil, err
		}
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "want an object with \"threads\", got %s", loose.KindOf(top))
	}
	var root rawRoot
	// An export cut short (a crash while it was written, a partial copy or
	// download) keeps the threads before the tear and, of the thread it
	// went through, the messages written whole; the message it cut is
	// dropped.
	torn, at, err := loose.UnmarshalMendedUnit(path, data, &root, spine)
	if err != nil {
		return nil, err
	}
	// tornIn is the threads list holding the thread the tear went
	// through, the last one of it: "threads" or "indexedDB".
	tornIn := ""
	if torn != nil {
		if len(at) > 0 && at[0] == "indexedDB" {
			tornIn, at = "indexedDB", at[1:]
		} else {
			tornIn = "threads"
		}
		if len(at) < 2 {
			tornIn = "" // cut back between threads: none was torn
		}
	}
	var lists []json.RawMessage
	var listNames []string
	if root.Threads != nil {
		lists = append(lists, root.Threads)
		listNames = append(listNames, "threads")
	}
	if root.IndexedDB != nil && !loose.IsNull(root.IndexedDB) {
		var db struct {
			Threads json.RawMessage `json:"threads"`
		}
		if root.IndexedDB[0] != '{' || json.Unmarshal(root.IndexedDB, &db) != nil {
			return nil, parsers.Errorf(path, lineOf(data, "indexedDB"), parsers.ErrShape, "\"indexedDB\" is %s, want an object", loose.KindOf(root.IndexedDB))
		}
		if db.Threads != nil {
			lists = append(lists, db.Threads)
			listNames = append(listNames, "indexedDB")
		}
	}
	if len(lists) == 0 && torn != nil {
		return nil, torn // cut short before any thread
	}
	if len(lists) == 0 {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "no \"threads\" and no \"indexedDB.threads\": not a browser chat export")
	}

	res := &parsers.Result{}
	ids := map[string]bool{}
	n, kept := 0, 0
	for li, list := range lists {
		threads, ok := elements(list)
		if !ok {
			return nil, parsers.Errorf(path, lineOf(data, "threads"), parsers.ErrShape, "\"threads\" is %s, want an array", loose.KindOf(list))
		}
		for ti, raw := range threads {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c := readThread(ctx, path, n, raw, res)
			n++
			if c == nil {
				continue
			}
			if listNames[li] == tornIn && ti == len(threads)-1 && len(c.Messages) == 0 {
				continue // the tear went through it before any message ended
			}
			kept += len(c.Messages)
			// Two threads may lack an id and share a first message: keep
			// both, with ids told apart by their position among equals.
			base := c.ID
			for k := 2; ids[c.ID]; k++ {
				c.ID = conversation.NewID(base+"#"+strconv.Itoa(k), c.Date)
			}
			ids[c.ID] = true
			res.Conversations = append(res.Conversations, c)
		}
	}
	if torn != nil {
		if kept == 0 {
			return nil, torn // nothing whole to keep
		}
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d threads with their %d messages written whole", len(res.Conversations), kept)))
	}
	return res, nil
}

// spine is the unit a torn export is cut back in: the innermost of its
// threads list, the thread, its messages, its branches, the branch and the
// branch's messages that the tear went through, anchored at their paths
// (under "threads" or "indexedDB"."threads"), so that a message the tear
// cut is dropped, never kept half-read, and everything before it is kept.
func spine(p []string) bool {
	if len(p) > 0 && p[0] == "indexedDB" {
		if len(p) == 1 {
			return true // other object stores may follow the threads
		}
		p = p[1:]
	}
	if len(p) == 0 || p[0] != "threads" {
		return false
	}
	switch rest := p[1:]; len(rest) {
	case 0, 1: // the threads, a thread
		return true
	case 2: // a thread's messages or branches
		return rest[1] == "messages" || rest[1] == "branches"
	case 3: // a branch
		return rest[1] == "branches"
	case 4: // a branch's messages
		return rest[1] == "branches" && rest[3] == "messages"
	}
	return false
}

// readThread reads thread number n; nil when it is not a thread at all.
func readThread(ctx context.Context, path string, n int, raw json.RawMessage, res *parsers.Result) *conversation.Conversation {
	var rt rawThread
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &rt) != nil {
		res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "thread %d is %s, not an object: skipped", n, loose.KindOf(raw)))
		return nil
	}
	c := &conversation.Conversation{Source: Name, File: path, Messages: []conversation.Message{}}
	c.Title = strings.TrimSpace(loose.String(rt.Name))
	if c.Title == "" {
		c.Title = strings.TrimSpace(loose.String(rt.Title))
	}
	created := firstTime(rt.CreatedAt, rt.CreatedAt2)
	updated := loose.Time(rt.UpdatedAt)

	add := func(list json.RawMessage, branch, where string) {
		msgs, ok := elements(list)
		if !ok {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "thread %d %s: messages are %s, not an array: skipped", n, where, loose.KindOf(list)))
			return
		}
		for i, m := range msgs {
			if i%checkEvery == 0 && ctx.Err() != nil {
				return // Parse reports the cancellation
			}
			msg, ok := readMessage(m)
			if !ok {
				res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "thread %d %s message %d is null: skipped", n, where, i))
				continue
			}
			msg.Branch = branch
			c.Messages = append(c.Messages, msg)
		}
	}
	if !loose.IsNull(rt.Messages) {
		add(rt.Messages, "", "")
	}
	branches, ok := elements(rt.Branches)
	if !ok {
		res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "thread %d: branches are %s, not an array: skipped", n, loose.KindOf(rt.Branches)))
	}
	for i, b := range branches {
		where := "branch " + strconv.Itoa(i)
		b = bytes.TrimSpace(b)
		if len(b) > 0 && b[0] == '[' {
			add(b, strconv.Itoa(i), where) // a branch given as its bare list
			continue
		}
		var rb rawBranch
		if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &rb) != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "thread %d %s is %s, not an object: skipped", n, where, loose.KindOf(b)))
			continue
		}
		bt := loose.Time(rb.CreatedAt)
		if created.IsZero() {
			created = bt // the importer dates a thread by its first branch
		}
		updated = latest(updated, bt, loose.Time(rb.UpdatedAt))
		add(rb.Messages, strconv.Itoa(i), where)
	}
	c.Renumber()

	first, last := conversation.Span(c.Messages)
	c.Date = created
	if c.Date.IsZero() {
		c.Date = first
	}
	c.Updated = latest(updated, last, c.Date)
	if c.Title == "" {
		c.Title = portable.DeriveTitle(c.Messages)
	}
	key := "browser:" + loose.String(rt.ID)
	if loose.String(rt.ID) == "" {
		// No thread id: the name and the first words, never the file's place.
		key = "browser:" + c.Title
		if len(c.Messages) > 0 {
			key += "\n" + c.Messages[0].Content
		}
	}
	c.ID = conversation.NewID(key, created)
	return c
}

// readMessage reads one message; ok is false for null.
func readMessage(raw json.RawMessage) (conversation.Message, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return conversation.Message{}, false
	}
	if raw[0] != '{' {
		// A bare value: keep its text; who wrote it is unknown.
		return conversation.Message{Role: conversation.RoleAssistant, Content: clean(loose.String(raw))}, true
	}
	var rm rawMessage
	if json.Unmarshal(raw, &rm) != nil {
		return conversation.Message{Role: conversation.RoleAssistant, Content: clean(loose.String(raw))}, true
	}
	sender := rm.Sender
	if loose.IsNull(sender) {
		sender = rm.Role
	}
	text := rm.Text
	if loose.IsNull(text) {
		text = rm.Content
	}
	return conversation.Message{
		ID: loose.String(rm.ID),
		// Human is the user, Assistant the assistant; as in the importer,
		// any other sender is taken for the assistant.
		Role:      portable.MapRole(loose.String(sender)),
		Content:   clean(textOf(text)),
		Timestamp: firstTime(rm.CreatedAt, rm.Timestamp),
	}, true
}

// textOf flattens a text that may be a string or a list of blocks.
func textOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return loose.String(raw)
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		return loose.String(raw)
	}
	var texts []string
	for _, p := range parts {
		var block struct {
			Text json.RawMessage `json:"text"`
		}
		t := loose.String(p)
		if len(p) > 0 && p[0] == '{' && json.Unmarshal(p, &block) == nil && block.Text != nil {
			t = loose.String(block.Text)
		}
		if t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

// elements returns the items of a list: an array, or an object's values in
// file order (an IndexedDB store dumped as {key: record}). Nothing-shapes
// give no items; other values are not lists.
func elements(raw json.RawMessage) ([]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if loose.IsNull(raw) {
		return nil, true
	}
	switch raw[0] {
	case '[':
		var out []json.RawMessage
		return out, json.Unmarshal(raw, &out) == nil
	case '{':
		dec := json.NewDecoder(bytes.NewReader(raw))
		if _, err := dec.Token(); err != nil {
			return nil, false
		}
		var out []json.RawMessage
		for dec.More() {
			if _, err := dec.Token(); err != nil {
				return out, false
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return out, false
			}
			out = append(out, v)
		}
		return out, true
	}
	return nil, false
}

// clean drops inline base64 payloads from text.
func clean(s string) string {
	if strings.Contains(s, ";base64,") {
		return loose.StripDataURLs(s)
	}
	return s
}

func firstTime(raws ...json.RawMessage) time.Time {
	for _, r := range raws {
		if t := loose.Time(r); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

func latest(ts ...time.Time) time.Time {
	var l time.Time
	for _, t := range ts {
		if t.After(l) {
			l = t
		}
	}
	return l
}

func lineOf(data []byte, key string) int {
	i := bytes.Index(data, []byte(`"`+key+`"`))
	if i < 0 {
		return 1
	}
	return loose.LineAt(data, int64(i))
}
