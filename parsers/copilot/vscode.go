package copilot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
)

// VSCodeName is the VS Code Copilot Chat family's name.
const VSCodeName = "copilot-vscode"

// VSCode reads the chat sessions VS Code keeps for Copilot Chat (and any
// chat participant): workspaceStorage/<hash>/chatSessions/<id>.json, one
// serialized session (version 3: sessionId, creationDate, customTitle,
// requests[] each with message, variableData, response parts and result),
// or, since VS Code 1.104 or so, <id>.jsonl, a mutation log: the first line
// {"kind":0,"v":<session>} and after it set (1), push (2) and delete (3)
// entries at a key path. Sessions of windows with no folder are in
// globalStorage/emptyWindowChatSessions. The workspace's folder is in
// workspace.json beside chatSessions.
type VSCode struct{}

var (
	_ parsers.Parser      = (*VSCode)(nil)
	_ parsers.Locator     = (*VSCode)(nil)
	_ parsers.Companioned = (*VSCode)(nil)
)

// NewVSCode returns a VS Code Copilot Chat parser.
func NewVSCode() *VSCode { return &VSCode{} }

// editions are the user-data folder names of VS Code and its forks that
// keep chat sessions the same way.
var editions = []string{"Code", "Code - Insiders", "VSCodium", "Code - OSS"}

// Info describes the family.
func (*VSCode) Info() parsers.Info {
	return parsers.Info{
		Name:        VSCodeName,
		Description: "VS Code Copilot Chat sessions (workspaceStorage/*/chatSessions/*.json and *.jsonl, globalStorage/emptyWindowChatSessions)",
		Detection:   `a file (of any name) whose root has "requests" with "sessionId", "creationDate" or "responderUsername", or whose first record is {"kind":0,"v":{…}} with those keys in v (past leading NUL bytes and lines that are not JSON objects in a .jsonl)`,
		Locations: []string{
			"~/.config/Code/User/workspaceStorage/*/chatSessions ($XDG_CONFIG_HOME; also Code - Insiders, VSCodium, Code - OSS)",
			"~/.config/Code/User/globalStorage/emptyWindowChatSessions",
			"~/Library/Application Support/Code/User/workspaceStorage/*/chatSessions (macOS)",
			`%APPDATA%\Code\User\workspaceStorage\*\chatSessions (Windows)`,
		},
		Version: 4, // 4: records after a torn record on its line read; a .json session read past a byte-order mark
	}
}

// DefaultRoots returns the workspaceStorage and emptyWindowChatSessions
// folders of every edition for this platform.
func (*VSCode) DefaultRoots(home string, getenv func(string) string) []string {
	return vscodeRoots(runtime.GOOS, home, getenv)
}

func vscodeRoots(goos, home string, getenv func(string) string) []string {
	base := parsers.ElectronAppData(goos, home, getenv)
	if base == "" {
		return nil
	}
	var roots []string
	for _, e := range editions {
		user := filepath.Join(base, e, "User")
		roots = append(roots, filepath.Join(user, "workspaceStorage"), filepath.Join(user, "globalStorage", "emptyWindowChatSessions"))
	}
	return roots
}

// Companions names workspace.json, which says which folder the session's
// workspace is.
func (*VSCode) Companions(path string) []string {
	return []string{workspaceJSON(path)}
}

func workspaceJSON(path string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(path)), "workspace.json")
}

// sessionKeys are keys only a serialized chat session has beside requests.
var sessionKeys = []string{"sessionId", "creationDate", "responderUsername", "requesterUsername"}

// Detect reports whether path is a chat session, from its head alone: a
// mutation log whose first record is the initial state {"kind":0,"v":{…}},
// or a whole session object. The extension says which to look for first;
// under any name the content decides.
func (*VSCode) Detect(path string, head []byte) bool {
	if parsers.HasExt(path, ".jsonl") {
		// Past leading damage (NUL bytes, a torn or garbage line): Parse
		// reads the log after it, and warns.
		return initialRecord(jsonhead.FirstObjectLine(head)) || wholeSession(head)
	}
	return initialRecord(jsonhead.LeadingObjectLine(head)) || wholeSession(head)
}

// wholeSession reports whether head starts a whole session object. A
// mutation log never does: its first record's root keys are kind and v.
func wholeSession(head []byte) bool {
	s := jsonhead.Scan(head)
	return s.Root == '{' && s.Has("", "requests") && s.Has("", sessionKeys...)
}

// initialRecord reports whether line is a mutation log's first record:
// {"kind":0,"v":{…}} with a session's keys in v.
func initialRecord(line []byte) bool {
	s := jsonhead.Scan(line)
	if s.Root != '{' {
		return false
	}
	kind, ok := s.Kind("", "kind")
	if !ok || kind != '0' || !bytes.Contains(line, []byte(`"kind"`)) {
		return false
	}
	if v, ok := s.Kind("", "v"); !ok || v != '{' {
		return false
	}
	return s.Has("v", "requests") || s.Has("v", sessionKeys...)
}

// Parse reads one session file: a whole session, or else a mutation log (a
// .jsonl, or a file of another name whose first line is the initial record).
func (*VSCode) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	res := &parsers.Result{}
	var raw []byte
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(parsers.HeadSize)
	r = br
	if !wholeSession(head) && (parsers.HasExt(path, ".jsonl") || initialRecord(jsonhead.LeadingObjectLine(head))) {
		state, err := replay(ctx, path, r, res)
		if err != nil {
			return nil, err
		}
		if raw, err = json.Marshal(state); err != nil {
			return nil, parsers.Errorf(path, 0, parsers.ErrShape, "%v", err)
		}
	} else {
		data, err := loose.ReadAll(path, r)
		if err != nil {
			return nil, err
		}
		raw = data
	}
	var s vsSession
	// A whole session torn by a crash while VS Code rewrote it keeps the
	// requests written whole before the tear; the one it cut is dropped.
	torn, err := loose.UnmarshalMended(path, raw, &s, loose.PathIs("requests"))
	if err != nil {
		return nil, err
	}
	if torn != nil && loose.String(s.SessionID) == "" {
		// The session's ID follows its requests: VS Code names the file
		// after it.
		s.SessionID, _ = json.Marshal(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	}
	c := s.conversation(path, res)
	if torn != nil {
		if c == nil {
			return nil, torn // nothing whole to keep
		}
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d complete requests (%d messages)", len(s.Requests), len(c.Messages))))
	}
	if c != nil {
		res.Conversations = append(res.Conversations, c)
	}
	return res, nil
}

// Entry kinds of VS Code's ObjectMutationLog.
const (
	entryInitial = 0
	entrySet     = 1
	entryPush    = 2
	entryDelete  = 3
)

type entry struct {
	Kind json.RawMessage `json:"kind"`
	K    []any           `json:"k"`
	V    json.RawMessage `json:"v"`
	I    json.RawMessage `json:"i"`
}

// replay rebuilds the session from its mutation log as VS Code's
// ObjectMutationLog.read does. An entry that cannot be applied (cut short
// by a crash mid-write, or pointing nowhere) is a warning; the state so far
// stands.
func replay(ctx context.Context, path string, r io.Reader, res *parsers.Result) (any, error) {
	var state any
	have := false
	lines := loose.Lines{Path: path, Res: res}
	err := loose.EachLine(ctx, path, r, func(n int, line []byte) {
		var e entry
		if !lines.DecodeWith(n, line, func(rec []byte) error {
			dec := json.NewDecoder(bytes.NewReader(rec))
			dec.UseNumber()
			return dec.Decode(&e)
		}) {
			return
		}
		kind, ok := loose.Int(e.Kind)
		if !ok {
			res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "entry has no kind: skipped"))
			return
		}
		if kind == entryInitial {
			v, err := decodeAny(e.V)
			if err != nil {
				res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "initial entry: %v", err))
				return
			}
			state, have = v, true
			return
		}
		if !have {
			res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "entry before the initial state: skipped"))
			return
		}
		var err error
		switch kind {
		case entrySet, entryDelete:
			var v any
			if kind == entrySet {
				if v, err = decodeAny(e.V); err != nil {
					break
				}
			}
			state, err = setAt(state, e.K, v, kind == entryDelete)
		case entryPush:
			var items []any
			if !loose.IsNull(e.V) {
				v, derr := decodeAny(e.V)
				list, ok := v.([]any)
				if derr != nil || !ok {
					err = errors.New("push of something not a list")
					break
				}
				items = list
			}
			start := -1
			if i, ok := loose.Int(e.I); ok {
				start = int(i)
			}
			state, err = pushAt(state, e.K, items, start)
		default:
			err = fmt.Errorf("unknown entry kind %d", kind)
		}
		if err != nil {
			res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "entry at %v: %v: skipped", e.K, err))
		}
	})
	if err != nil {
		return nil, err
	}
	if !have {
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no initial session state")
	}
	return state, nil
}

func decodeAny(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	err := dec.Decode(&v)
	return v, err
}

// step is one key of a path: an object key or an array index.
func step(node any, k any) (any, error) {
	switch n := node.(type) {
	case map[string]any:
		key, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("index %v into an object", k)
		}
		return n[key], nil
	case []any:
		i, ok := index(k)
		if !ok || i < 0 || i >= len(n) {
			return nil, fmt.Errorf("index %v out of range", k)
		}
		return n[i], nil
	}
	return nil, fmt.Errorf("key %v into a %T", k, node)
}

func index(k any) (int, bool) {
	switch v := k.(type) {
	case float64:
		return int(v), v == float64(int(v))
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}

// setAt returns node with the value at path set to v (or deleted).
func setAt(node any, path []any, v any, del bool) (any, error) {
	if len(path) == 0 {
		return v, nil // the whole state replaced
	}
	if len(path) > 1 {
		child, err := step(node, path[0])
		if err != nil {
			return node, err
		}
		child, err = setAt(child, path[1:], v, del)
		if err != nil {
			return node, err
		}
		return put(node, path[0], child, false)
	}
	return put(node, path[0], v, del)
}

// put sets key k of node to v, growing an array by one when k is its
// length, as a JavaScript assignment would.
func put(node any, k any, v any, del bool) (any, error) {
	switch n := node.(type) {
	case map[string]any:
		key, ok := k.(string)
		if !ok {
			return node, fmt.Errorf("index %v into an object", k)
		}
		if del {
			delete(n, key)
		} else {
			n[key] = v
		}
		return n, nil
	case []any:
		i, ok := index(k)
		switch {
		case !ok || i < 0 || i > len(n):
			return node, fmt.Errorf("index %v out of range", k)
		case i == len(n):
			return append(n, v), nil
		}
		n[i] = v
		return n, nil
	}
	return node, fmt.Errorf("key %v into a %T", k, node)
}

// pushAt appends items to the array at path, first cutting it to start
// when start ≥ 0. A missing array is created.
func pushAt(node any, path []any, items []any, start int) (any, error) {
	if len(path) == 0 {
		return node, errors.New("push at the root")
	}
	parent := node
	var err error
	if len(path) > 1 {
		if parent, err = step(node, path[0]); err != nil {
			return node, err
		}
		child, err := pushAt(parent, path[1:], items, start)
		if err != nil {
			return node, err
		}
		return put(node, path[0], child, false)
	}
	var arr []any
	if cur, err := step(parent, path[0]); err == nil && cur != nil {
		list, ok := cur.([]any)
		if !ok {
			return node, fmt.Errorf("push to a %T", cur)
		}
		arr = list
	} else if _, isMap := parent.(map[string]any); !isMap {
		return node, err
	}
	if start >= 0 && start < len(arr) {
		arr = arr[:start]
	}
	arr = append(arr, items...)
	return put(parent, path[0], arr, false)
}

// vsSession is a serialized chat session.
type vsSession struct {
	SessionID       json.RawMessage   `json:"sessionId"`
	CreationDate    json.RawMessage   `json:"creationDate"`
	LastMessageDate json.RawMessage   `json:"lastMessageDate"`
	CustomTitle     json.RawMessage   `json:"customTitle"`
	Requests        []json.RawMessage `json:"requests"`
}

type vsRequest struct {
	RequestID    json.RawMessage   `json:"requestId"`
	Message      json.RawMessage   `json:"message"`
	VariableData json.RawMessage   `json:"variableData"`
	Response     []json.RawMessage `json:"response"`
	Result       json.RawMessage   `json:"result"`
	IsCanceled   json.RawMessage   `json:"isCanceled"`
	Timestamp    json.RawMessage   `json:"timestamp"`
	ModelID      json.RawMessage   `json:"modelId"`
	ResponseID   json.RawMessage   `json:"responseId"`
	ModelState   struct {
		CompletedAt json.RawMessage `json:"completedAt"`
	} `json:"modelState"`
}

func (s *vsSession) conversation(path string, res *parsers.Result) *conversation.Conversation {
	c := &conversation.Conversation{ID: strings.TrimSpace(loose.String(s.SessionID)), Title: strings.TrimSpace(loose.String(s.CustomTitle))}
	c.Date = loose.Time(s.CreationDate)
	var edited []string
	seenEdit := map[string]bool{}
	for i, raw := range s.Requests {
		var rq vsRequest
		if err := json.Unmarshal(raw, &rq); err != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "requests[%d]: %v: skipped", i, err))
			continue
		}
		ts := loose.Time(rq.Timestamp)
		model := loose.String(rq.ModelID)
		if c.Model == "" {
			c.Model = model
		}
		u := conversation.Message{ID: loose.String(rq.RequestID), Role: conversation.RoleUser, Content: messageText(rq.Message),
			Timestamp: ts, Attachments: variables(rq.VariableData)}
		c.Messages = append(c.Messages, u)
		a := conversation.Message{ID: loose.String(rq.ResponseID), ParentID: u.ID, Role: conversation.RoleAssistant, Model: model, Timestamp: ts}
		if done := loose.Time(rq.ModelState.CompletedAt); !done.IsZero() {
			a.Timestamp = done
		}
		for _, p := range rq.Response {
			readPart(&a, p, func(file string) {
				if !seenEdit[file] {
					seenEdit[file] = true
					edited = append(edited, file)
				}
			})
		}
		errMsg := resultError(rq.Result)
		if loose.Bool(rq.IsCanceled) || errMsg == "Canceled" {
			a.Cancelled = true
		} else if errMsg != "" {
			a.Content = loose.AppendParagraph(a.Content, "Error: "+errMsg)
		}
		a.Content = strings.TrimSpace(a.Content)
		if a.Content != "" || a.Thinking != "" || len(a.ToolCalls) > 0 || a.Cancelled {
			c.Messages = append(c.Messages, a)
		}
	}
	if len(c.Messages) == 0 {
		return nil
	}
	if c.ID == "" {
		base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		c.ID = conversation.NewID(base+"\x00"+c.Messages[0].ID+"\x00"+c.Messages[0].Content, c.Date)
	}
	first, last := conversation.Span(c.Messages)
	if c.Date.IsZero() {
		c.Date = first
	}
	if c.Updated = loose.Time(s.LastMessageDate); c.Updated.IsZero() {
		c.Updated = last
	}
	if c.Title == "" {
		c.Title = firstPrompt(c.Messages)
	}
	if folder := loose.WorkspaceFolder(workspaceJSON(path)); folder != "" {
		c.Project = loose.ProjectName(folder)
		c.Tags = append(c.Tags, "cwd:"+folder)
	}
	if len(edited) > 0 {
		c.Notes = append(c.Notes, conversation.Note{Kind: "file_change", Text: strings.Join(edited, "\n")})
	}
	c.Renumber()
	return c
}

// messageText is a request's text: message.text, or the message itself in
// the oldest sessions.
func messageText(raw json.RawMessage) string {
	var m struct {
		Text json.RawMessage `json:"text"`
	}
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '{' && json.Unmarshal(t, &m) == nil {
		return loose.String(m.Text)
	}
	return loose.String(raw)
}

// variables keeps each attached context item's name, kind and path; a
// pasted image's bytes are never kept.
func variables(raw json.RawMessage) []conversation.Attachment {
	var vd struct {
		Variables []struct {
			Name  json.RawMessage `json:"name"`
			Kind  json.RawMessage `json:"kind"`
			Value json.RawMessage `json:"value"`
		} `json:"variables"`
	}
	if json.Unmarshal(raw, &vd) != nil {
		return nil
	}
	var out []conversation.Attachment
	for _, v := range vd.Variables {
		a := conversation.Attachment{Name: loose.String(v.Name), Type: loose.String(v.Kind), Ref: uriPath(v.Value)}
		if a.Name != "" || a.Ref != "" {
			out = append(out, a)
		}
	}
	return out
}

// uriPath is the path of a serialized URI ({path, fsPath, external}) or
// Location ({uri, range}); "" for anything else.
func uriPath(raw json.RawMessage) string {
	var u struct {
		Path   json.RawMessage `json:"path"`
		FsPath json.RawMessage `json:"fsPath"`
		URI    json.RawMessage `json:"uri"`
		Scheme json.RawMessage `json:"scheme"`
	}
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &u) != nil {
		return ""
	}
	if !loose.IsNull(u.URI) {
		return uriPath(u.URI)
	}
	if p := loose.String(u.FsPath); p != "" {
		return p
	}
	p := loose.String(u.Path)
	if s := loose.String(u.Scheme); s != "" && s != "file" && s != "vscode-remote" && s != "vscode-userdata" {
		return s + ":" + p
	}
	return p
}

// part is a response part; each kind uses a few fields.
type part struct {
	Kind            json.RawMessage `json:"kind"`
	Value           json.RawMessage `json:"value"`
	Content         json.RawMessage `json:"content"`
	InlineReference json.RawMessage `json:"inlineReference"`
	Name            json.RawMessage `json:"name"`
	URI             json.RawMessage `json:"uri"`
	// toolInvocationSerialized
	ToolID           json.RawMessage `json:"toolId"`
	ToolCallID       json.RawMessage `json:"toolCallId"`
	InvocationMsg    json.RawMessage `json:"invocationMessage"`
	PastTenseMessage json.RawMessage `json:"pastTenseMessage"`
	ResultDetails    json.RawMessage `json:"resultDetails"`
	ToolSpecificData json.RawMessage `json:"toolSpecificData"`
}

// readPart adds one response part to the reply: markdown to its text,
// thinking to Thinking, tool invocations to its calls and results.
func readPart(a *conversation.Message, raw json.RawMessage, edit func(string)) {
	var p part
	if json.Unmarshal(raw, &p) != nil {
		return
	}
	switch loose.String(p.Kind) {
	case "", "markdownContent", "markdownVuln":
		text := mdText(p.Value)
		if text == "" {
			text = mdText(p.Content)
		}
		a.Content += loose.StripDataURLs(text)
	case "inlineReference":
		name := loose.String(p.Name)
		if name == "" {
			name = path.Base(uriPath(p.InlineReference))
		}
		if name != "" && name != "." && name != "/" {
			a.Content += "`" + name + "`"
		}
	case "thinking":
		var list []string
		t := loose.String(p.Value)
		if json.Unmarshal(p.Value, &list) == nil {
			t = strings.Join(list, "")
		}
		a.Thinking = loose.AppendParagraph(a.Thinking, strings.TrimSpace(t))
	case "toolInvocationSerialized", "toolInvocation":
		call, result := toolInvocation(&p)
		a.ToolCalls = append(a.ToolCalls, call)
		a.ToolResults = append(a.ToolResults, result)
	case "textEditGroup", "codeblockUri", "notebookEditGroup":
		if f := uriPath(p.URI); f != "" {
			edit(f)
		}
	}
	// progress messages, confirmations, warnings, undo stops, MCP server
	// notices and kinds to come hold nothing to search.
}

// mdText is a markdown value: an IMarkdownString {value} or a string.
func mdText(raw json.RawMessage) string {
	var m struct {
		Value json.RawMessage `json:"value"`
	}
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '{' && json.Unmarshal(t, &m) == nil {
		return loose.String(m.Value)
	}
	return loose.String(raw)
}

func toolInvocation(p *part) (conversation.ToolCall, conversation.ToolResult) {
	call := conversation.ToolCall{ID: loose.String(p.ToolCallID), Name: loose.String(p.ToolID)}
	result := conversation.ToolResult{CallID: call.ID, Name: call.Name}
	var rd struct {
		Input   json.RawMessage `json:"input"`
		Output  json.RawMessage `json:"output"`
		IsError json.RawMessage `json:"isError"`
	}
	if t := bytes.TrimSpace(p.ResultDetails); len(t) > 0 && t[0] == '{' {
		_ = json.Unmarshal(t, &rd)
	}
	call.Arguments = argText(rd.Input)
	result.IsError = loose.Bool(rd.IsError)
	var outputs []struct {
		Value  json.RawMessage `json:"value"`
		IsText json.RawMessage `json:"isText"`
	}
	if json.Unmarshal(rd.Output, &outputs) == nil {
		for _, o := range outputs {
			if loose.IsNull(o.IsText) || loose.Bool(o.IsText) {
				result.Content = loose.AppendParagraph(result.Content, loose.Clean(loose.String(o.Value)))
			}
		}
	}
	var sd struct {
		Kind        json.RawMessage `json:"kind"`
		CommandLine struct {
			Original   json.RawMessage `json:"original"`
			UserEdited json.RawMessage `json:"userEdited"`
			ToolEdited json.RawMessage `json:"toolEdited"`
		} `json:"commandLine"`
		Output      json.RawMessage `json:"terminalCommandOutput"`
		Prompt      json.RawMessage `json:"prompt"`
		Description json.RawMessage `json:"description"`
		AgentName   json.RawMessage `json:"agentName"`
		Result      json.RawMessage `json:"result"`
		TodoList    []struct {
			Title  json.RawMessage `json:"title"`
			Status json.RawMessage `json:"status"`
		} `json:"todoList"`
	}
	_ = json.Unmarshal(p.ToolSpecificData, &sd)
	switch loose.String(sd.Kind) {
	case "terminal":
		cmd := loose.String(sd.CommandLine.UserEdited)
		for _, c := range []json.RawMessage{sd.CommandLine.ToolEdited, sd.CommandLine.Original} {
			if cmd == "" {
				cmd = loose.String(c)
			}
		}
		if call.Arguments == "" && cmd != "" {
			b, _ := json.Marshal(map[string]string{"command": cmd})
			// Marshal escapes "<", ">" and "&": "ls \u003e out".
			call.Arguments, _ = loose.CompactJSON(b)
		}
		var out struct {
			Text json.RawMessage `json:"text"`
		}
		if result.Content == "" && json.Unmarshal(sd.Output, &out) == nil {
			result.Content = loose.Clean(loose.String(out.Text))
		}
	case "subagent":
		if call.Arguments == "" {
			b, _ := json.Marshal(map[string]string{"agentName": loose.String(sd.AgentName), "description": loose.String(sd.Description), "prompt": loose.String(sd.Prompt)})
			args, _ := loose.CompactJSON(b)
			call.Arguments = loose.Clean(args)
		}
		if result.Content == "" {
			result.Content = loose.Clean(loose.String(sd.Result))
		}
	case "todoList":
		var lines []string
		for _, t := range sd.TodoList {
			lines = append(lines, "["+loose.String(t.Status)+"] "+loose.String(t.Title))
		}
		if result.Content == "" {
			result.Content = strings.Join(lines, "\n")
		}
	}
	if result.Content == "" {
		// What the chat showed for the call: "Read file.go, lines 1 to 40".
		result.Content = mdText(p.PastTenseMessage)
		if result.Content == "" {
			result.Content = mdText(p.InvocationMsg)
		}
	}
	return call, result
}

func resultError(raw json.RawMessage) string {
	var r struct {
		ErrorDetails struct {
			Message json.RawMessage `json:"message"`
		} `json:"errorDetails"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return ""
	}
	return strings.TrimSpace(loose.String(r.ErrorDetails.Message))
}
