package rao

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// rawMsg is one object of conversation_log.json. Every field is raw: jsonlite
// writes R's NULL as {}, length-1 vectors unboxed and longer ones as arrays,
// so no field has a dependable type.
type rawMsg struct {
	ID             json.RawMessage `json:"id"`
	Role           json.RawMessage `json:"role"`
	Content        json.RawMessage `json:"content"`
	RelatedTo      json.RawMessage `json:"related_to"`
	OriginalQuery  json.RawMessage `json:"original_query"`
	Procedural     json.RawMessage `json:"procedural"`
	Cancelled      json.RawMessage `json:"cancelled"`
	PartialContent json.RawMessage `json:"partial_content"`
	Model          json.RawMessage `json:"model"`
	FunctionCall   json.RawMessage `json:"function_call"`
	ModifiedScript json.RawMessage `json:"modified_script"`
	Type           json.RawMessage `json:"type"`
	CallID         json.RawMessage `json:"call_id"`
	Output         json.RawMessage `json:"output"`
	Plots          json.RawMessage `json:"plots"`
	PlotsFile      json.RawMessage `json:"plots_file"`
}

// entry is a log object with its id, by which the log is ordered.
type entry struct {
	msg rawMsg
	id  int64
	// numeric is false when the object has no numeric id.
	numeric bool
}

// rawCall is a function_call object.
type rawCall struct {
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	CallID    json.RawMessage `json:"call_id"`
	ID        json.RawMessage `json:"id"`
}

// checkEvery is how many messages pass between context checks.
const checkEvery = 256

func parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	var top json.RawMessage
	// A log cut short (a crash while R rewrote it, a partial copy) keeps
	// the messages written whole before the tear: the unit is the log's
	// own array, so the message the tear went through is dropped, never
	// kept with half its content.
	torn, err := loose.UnmarshalMended(path, data, &top, loose.PathIs())
	if err != nil {
		return nil, err
	}
	if torn != nil {
		data = top // the mended log
	}
	res := &parsers.Result{}
	if loose.IsNull(top) {
		if torn != nil {
			return nil, torn // nothing whole to keep
		}
		return res, nil // a new log, or R's NULL
	}
	if top[0] != '[' {
		start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
		return nil, parsers.Errorf(path, loose.LineAt(data, int64(start)), parsers.ErrShape, "want a JSON array of messages, got %s", loose.KindOf(top))
	}
	entries, err := readEntries(ctx, path, data, res)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		if torn != nil {
			return nil, torn // nothing whole to keep
		}
		return res, nil
	}
	if torn != nil {
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d complete messages", len(entries))))
	}
	// The log is written in id order; when every object has an id, id order
	// is the spec's reading order even if a rewrite shuffled the file.
	if allNumeric(entries) {
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].id < entries[j].id })
	}

	dir := filepath.Dir(path)
	folder := filepath.Base(dir)
	calls := callIndex(entries)
	c := &conversation.Conversation{Source: name, File: path}
	var firstUser, firstQuery string
	for i := range entries {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		e := &entries[i]
		m := message(&e.msg, calls)
		if m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
			if firstUser == "" {
				firstUser = m.Content
			}
			if firstQuery == "" && loose.Bool(e.msg.OriginalQuery) {
				firstQuery = m.Content
			}
		}
		c.Messages = append(c.Messages, m)
	}
	c.Renumber()
	if firstQuery == "" {
		firstQuery = firstUser
	}

	side := readSide(path, dir, folder, c, res)
	// The id rests on what travels with the log: its folder name and first
	// question. A date would come from side files, which appear over time and
	// may not move with the log, so the id carries none.
	c.ID = conversation.NewID("rao:"+folder+":"+firstQuery, time.Time{})
	c.Title = side.title
	if c.Title == "" {
		c.Title = deriveTitle(firstQuery)
	}
	if c.Title == "" {
		c.Title = folder
	}
	c.Date, c.Updated = side.first, side.last
	if c.Date.IsZero() {
		// Messages carry no time: the log's mtime (its last write) is the
		// best date there is.
		if st, err := os.Stat(path); err == nil && !st.ModTime().IsZero() {
			c.Date = st.ModTime().UTC()
			c.Updated = c.Date
		}
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// readEntries decodes the elements of the top-level array, warning about and
// skipping any that is not an object.
func readEntries(ctx context.Context, path string, data []byte, res *parsers.Result) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '[' (checked by the caller)
		return nil, parsers.Wrap(path, 0, fmt.Errorf("%w: %v", parsers.ErrSyntax, err))
	}
	var entries []entry
	for n := 0; dec.More(); n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
			off++
		}
		line := loose.LineAt(data, off)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, parsers.Errorf(path, line, parsers.ErrSyntax, "%v", err)
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' {
			if string(raw) != "null" {
				res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "log element %d is %s, not a message object: skipped", n+1, loose.KindOf(raw)))
			}
			continue
		}
		var e entry
		if err := json.Unmarshal(raw, &e.msg); err != nil {
			res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "log element %d: %v: skipped", n+1, err))
			continue
		}
		e.id, e.numeric = loose.Int(e.msg.ID)
		entries = append(entries, e)
	}
	return entries, nil
}

func allNumeric(entries []entry) bool {
	for _, e := range entries {
		if !e.numeric {
			return false
		}
	}
	return true
}

// callIndex maps each function call id to its function's name, so outputs
// (which carry only the call id) can name the tool.
func callIndex(entries []entry) map[string]string {
	names := map[string]string{}
	for _, e := range entries {
		for _, call := range functionCalls(e.msg.FunctionCall) {
			if call.ID != "" && call.Name != "" {
				names[call.ID] = call.Name
			}
		}
	}
	return names
}

// message converts one log object.
func message(r *rawMsg, calls map[string]string) conversation.Message {
	m := conversation.Message{
		ID:        idString(r.ID),
		ParentID:  parentID(r.RelatedTo),
		Model:     loose.String(r.Model),
		Hidden:    loose.Bool(r.Procedural),
		Cancelled: loose.Bool(r.Cancelled),
		Partial:   loose.Bool(r.PartialContent),
	}
	text, atts := flatten(r.Content)
	m.Attachments = plotAttachments(atts, r.Plots, r.PlotsFile)
	m.ToolCalls = functionCalls(r.FunctionCall)
	if script := clean(textOf(r.ModifiedScript)); script != "" {
		// The script the user accepted and ran: searchable, and not always
		// what the call's arguments say.
		text = loose.AppendParagraph(text, script)
	}
	m.Content = text

	isOutput := strings.EqualFold(loose.String(r.Type), "function_call_output")
	if !isOutput && len(m.ToolCalls) == 0 && !loose.IsNull(r.Output) && loose.String(r.CallID) != "" {
		isOutput = true // an output that lost its type
	}
	if isOutput {
		callID := loose.String(r.CallID)
		m.ToolResults = []conversation.ToolResult{{
			CallID:  callID,
			Name:    calls[callID],
			Content: clean(textOf(r.Output)),
		}}
	}
	m.Role = role(loose.String(r.Role), isOutput)
	return m
}

// role maps rao's role (or its absence) onto a canonical one.
func role(s string, isOutput bool) conversation.Role {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "user", "human":
		if isOutput {
			return conversation.RoleTool
		}
		return conversation.RoleUser
	case "assistant", "ai", "model", "bot":
		return conversation.RoleAssistant
	case "system", "developer":
		return conversation.RoleSystem
	case "tool", "function":
		return conversation.RoleTool
	}
	// No role, or one we do not know: an output is a tool's, anything else
	// (calls, edit contents) the assistant's.
	if isOutput {
		return conversation.RoleTool
	}
	return conversation.RoleAssistant
}

// intText reads an integer written as text ("7", " 7.0 ").
func intText(s string) (int64, bool) {
	return loose.Int(json.RawMessage(strconv.Quote(strings.TrimSpace(s))))
}

// idString returns a message id as text: 7 for 7 and 7.0, else the raw text.
func idString(raw json.RawMessage) string {
	if n, ok := loose.Int(raw); ok {
		return strconv.FormatInt(n, 10)
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		var xs []json.RawMessage
		if json.Unmarshal(t, &xs) == nil && len(xs) > 0 {
			return idString(xs[0])
		}
	}
	return loose.String(raw)
}

// parentID reads related_to: a number, a string, [] or {} (none), or an
// array whose first element is the parent.
func parentID(raw json.RawMessage) string {
	return idString(raw)
}

// functionCalls reads function_call: an object, JSON text holding one, or an
// array of them.
func functionCalls(raw json.RawMessage) []conversation.ToolCall {
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return nil
	}
	if t[0] == '"' {
		t = []byte(loose.JSONText(loose.String(t)))
	}
	var objs []json.RawMessage
	switch t[0] {
	case '{':
		objs = []json.RawMessage{t}
	case '[':
		if json.Unmarshal(t, &objs) != nil {
			return nil
		}
	default:
		// Not an object: keep what there is as the call's name.
		if s := clean(loose.String(t)); s != "" {
			return []conversation.ToolCall{{Name: s}}
		}
		return nil
	}
	var out []conversation.ToolCall
	for _, o := range objs {
		var rc rawCall
		if json.Unmarshal(o, &rc) != nil {
			continue
		}
		call := conversation.ToolCall{
			ID:        loose.String(rc.CallID),
			Name:      loose.String(rc.Name),
			Arguments: clean(arguments(rc.Arguments)),
		}
		if call.ID == "" {
			call.ID = loose.String(rc.ID)
		}
		if call.Name == "" && call.Arguments == "" && call.ID == "" {
			continue
		}
		out = append(out, call)
	}
	return out
}

// arguments returns a call's arguments as compact JSON text: rao writes them
// as a JSON string, but an object is read too.
func arguments(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		return loose.JSONText(loose.String(t))
	}
	return loose.String(t)
}

// part is one element of an array content.
type part struct {
	Type     json.RawMessage `json:"type"`
	Text     json.RawMessage `json:"text"`
	ImageURL json.RawMessage `json:"image_url"`
	URL      json.RawMessage `json:"url"`
	FileID   json.RawMessage `json:"file_id"`
	Filename json.RawMessage `json:"filename"`
}

// flatten returns the text of a content (a string, an array of strings and
// parts, or one part) and the attachments its image and file parts name.
func flatten(raw json.RawMessage) (string, []conversation.Attachment) {
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return "", nil
	}
	var items []json.RawMessage
	switch t[0] {
	case '[':
		if json.Unmarshal(t, &items) != nil {
			return clean(loose.String(t)), nil
		}
	case '{':
		items = []json.RawMessage{t}
	default:
		return clean(loose.String(t)), nil
	}
	var texts []string
	var atts []conversation.Attachment
	for _, it := range items {
		it = bytes.TrimSpace(it)
		if len(it) == 0 || it[0] != '{' {
			if s := clean(textOf(it)); s != "" {
				texts = append(texts, s)
			}
			continue
		}
		var p part
		if json.Unmarshal(it, &p) != nil {
			continue
		}
		typ := strings.ToLower(loose.String(p.Type))
		switch {
		case typ == "input_image" || typ == "image_url" || typ == "image" || typ == "output_image":
			atts = append(atts, imageAttachment(p))
		case typ == "input_file" || typ == "file":
			a := conversation.Attachment{Name: loose.String(p.Filename), Type: "file", Ref: loose.String(p.FileID)}
			if a.Name == "" {
				a.Name = a.Ref
			}
			atts = append(atts, a)
		case !loose.IsNull(p.Text):
			if s := clean(textOf(p.Text)); s != "" {
				texts = append(texts, s)
			}
		case typ == "input_text" || typ == "output_text" || typ == "text":
			// An empty text part.
		default:
			// An unknown part: keep its JSON so nothing is lost.
			if s := clean(loose.String(it)); s != "" {
				texts = append(texts, s)
			}
		}
	}
	return strings.Join(texts, "\n"), atts
}

// imageAttachment describes an image part without its payload.
func imageAttachment(p part) conversation.Attachment {
	url := p.ImageURL
	if t := bytes.TrimSpace(url); len(t) > 0 && t[0] == '{' {
		var inner struct {
			URL json.RawMessage `json:"url"`
		}
		if json.Unmarshal(t, &inner) == nil {
			url = inner.URL
		}
	}
	if loose.IsNull(url) {
		url = p.URL
	}
	a := conversation.Attachment{Name: "image", Type: "image"}
	u := loose.String(url)
	if mt, size, ok := loose.DataURL(u); ok {
		if mt != "" {
			a.Type = mt
		}
		a.Size = size
	} else if u != "" {
		a.Ref = u
		a.Name = baseName(u)
	}
	return a
}

// plotAttachments names the images of a plot message after its plots (a
// string when there is one, jsonlite unboxing it, or an array) and adds the
// plots that have no image part.
func plotAttachments(atts []conversation.Attachment, plots, plotsFile json.RawMessage) []conversation.Attachment {
	names := stringList(plots)
	file := loose.String(plotsFile)
	imgs := 0
	for _, n := range names {
		for imgs < len(atts) && !strings.HasPrefix(atts[imgs].Type, "image") {
			imgs++
		}
		if imgs < len(atts) {
			atts[imgs].Name = n
			if atts[imgs].Ref == "" {
				atts[imgs].Ref = file
			}
			imgs++
			continue
		}
		atts = append(atts, conversation.Attachment{Name: n, Type: "plot", Ref: file})
		imgs = len(atts)
	}
	if len(names) == 0 && file != "" {
		for i := range atts {
			if strings.HasPrefix(atts[i].Type, "image") && atts[i].Ref == "" {
				atts[i].Ref = file
			}
		}
	}
	return atts
}

// stringList reads a string or an array of strings.
func stringList(raw json.RawMessage) []string {
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return nil
	}
	if t[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(t, &items) != nil {
			return nil
		}
		var out []string
		for _, it := range items {
			if s := loose.String(it); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	if s := loose.String(t); s != "" {
		return []string{s}
	}
	return nil
}

// textOf returns raw as text, joining an array of strings (an R character
// vector of length > 1) with newlines.
func textOf(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '[' {
		var ss []string
		if json.Unmarshal(t, &ss) == nil {
			return strings.Join(ss, "\n")
		}
	}
	return loose.String(t)
}

// clean removes data: URL payloads from text.
func clean(s string) string { return loose.StripDataURLs(s) }

// baseName returns the last element of a slash or backslash path.
func baseName(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// titleLen is how long a derived title may be, in runes.
const titleLen = 80

var spaces = regexp.MustCompile(`\s+`)

// deriveTitle makes a title of a first question: one line, at most titleLen
// runes, cut at a word boundary.
func deriveTitle(s string) string {
	s = strings.TrimSpace(spaces.ReplaceAllString(s, " "))
	if utf8.RuneCountInString(s) <= titleLen {
		return s
	}
	rs := []rune(s)[:titleLen]
	cut := string(rs)
	if i := strings.LastIndexByte(cut, ' '); i > titleLen/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:-") + "…"
}
