package cline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// No Cline, Roo Code or Kilo Code task folder written by the tools is
// committed under a permissive licence anywhere we could find, so these
// fixtures were written from cline's source (src/core/storage/disk.ts,
// src/shared/ExtensionMessage.ts, the tool result texts of
// src/core/prompts/responses.ts) and Roo Code's (ApiMessage with ts,
// history_item.json, native tool_use / tool_result blocks).
const (
	clineTask = "testdata/globalStorage/saoudrizwan.claude-dev/tasks/1733473923456/" + HistoryName
	rooTask   = "testdata/globalStorage/rooveterinaryinc.roo-cline/tasks/4f1c2b9e-7a3d-4e51-9c0a-2d6b8e1f3a57/" + HistoryName
	newTask   = "testdata/quirks/1733000000001/" + HistoryName
	cutTask   = "testdata/quirks/1733000000002/" + HistoryName
	// Shaped after a real Cline 3.x task (native tool_use blocks answered
	// by "[tool for 'x'] Result:\n<output>" texts, todo-list reminders, a
	// plan-mode reply in <user_message>), whose repository has no licence
	// to copy it under: see testdata/corpus/SOURCES.md.
	nativeTask = "testdata/quirks/1777000000003/" + HistoryName
)

// The counts and roles below were derived from the files, not from the
// parser, with this script (assistant elements are "a"; a user element is
// "t" when it holds tool_result blocks or texts whose first line is
// "[tool …] Result:" and no text or image of its own outside them,
// environment details, resumption notices and todo-list reminders not
// counting as its own, a <user_message> or <feedback> block counting as
// its own; elements that are not objects are skipped; a cut file is read up
// to its last whole element):
//
//	python3 -c '
//	import json,re,sys
//	for f in sys.argv[1:]:
//	  try: arr=json.load(open(f))
//	  except ValueError:
//	    s=open(f).read(); d=json.JSONDecoder(); arr=[]; i=s.index("[")+1
//	    while True:
//	      s2=s[i:].lstrip(", \n\t")
//	      try: v,n=d.raw_decode(s2)
//	      except ValueError: break
//	      arr.append(v); i=len(s)-len(s2)+n
//	  r=""
//	  for m in arr:
//	    if not isinstance(m,dict): continue
//	    if m["role"]=="assistant": r+="a"; continue
//	    c=m["content"]
//	    if isinstance(c,str): r+="u"; continue
//	    inres=False; own=False; res=False
//	    for b in c:
//	      t=b.get("type")
//	      if t=="tool_result": res=True; inres=False; continue
//	      if t=="image": own = own or not inres; continue
//	      x=b.get("text","").strip()
//	      if x.startswith(("<environment_details>","[TASK RESUMPTION]","# task_progress List","# TODO LIST UPDATE REQUIRED")): continue
//	      if x.startswith(("<user_message>","<feedback>")): own=True; inres=False; continue
//	      if re.match(r"^\[\w+( for .*)?\] Result:[ \t]*(\n|$)",x): res=inres=True; continue
//	      if not inres: own=True
//	    r+= "t" if res and not own else "u"
//	  print(f,len(r),r)' FILES
var cases = []parsertest.Case{
	{
		File:   clineTask,
		Golden: "cline.json",
		Want: []parsertest.Want{{
			ID:       "1733473923456",
			Title:    "Add a --verbose flag to the CLI in cmd/main.go",
			Messages: 11,
			Roles:    "uatatatatua",
		}},
	},
	{
		// One element is a number, not a message: a warning.
		File:   rooTask,
		Golden: "roo.json",
		Want: []parsertest.Want{{
			ID:       "4f1c2b9e-7a3d-4e51-9c0a-2d6b8e1f3a57",
			Title:    "Why does TestExpiry flake on CI?",
			Messages: 7,
			Roles:    "uatauaa",
		}},
		Warnings: 1,
	},
	{
		File:   newTask,
		Golden: "new.json",
	},
	{
		// Cut mid-write, and its ui_messages.json too: two warnings.
		File:   cutTask,
		Golden: "cut.json",
		Want: []parsertest.Want{{
			ID:       "1733000000002",
			Title:    "plain string content: rename the package",
			Messages: 2,
			Roles:    "ua",
		}},
		Warnings: 2,
	},
	{
		File:   nativeTask,
		Golden: "native.json",
		Want: []parsertest.Want{{
			ID:       "1777000000003",
			Title:    "The tide table shows high water an hour late since the clocks changed. Find out…",
			Messages: 5,
			Roles:    "uatau",
		}},
	},
}

// TestNativeTools checks what Cline 3.x writes: each text result joined to
// the tool_use it answers, its reminders kept out of the visible text, the
// model's plan-mode answer (a tool argument) in its text, and the person's
// reply read as their words.
func TestNativeTools(t *testing.T) {
	c := parsertest.ParseOne(t, New(), nativeTask)
	m := c.Messages
	if strings.Contains(m[0].Content, "task_progress") || m[0].Content != "The tide table shows high water an hour late since the clocks changed. Find out why." {
		t.Errorf("task: %q", m[0].Content)
	}
	if got := len(m[1].ToolCalls); got != 3 {
		t.Fatalf("calls: %d, want 3", got)
	}
	res := m[2].ToolResults
	want := []struct{ id, name, start string }{
		{"toolu_a1", "list_files", "[list_files for 'tides'] Result:\nload.go"},
		{"toolu_a2", "read_file", "[read_file for 'tides/load.go'] Result:\n1 | package tides"},
		{"toolu_a3", "read_file", "[read_file for 'tides/load_test.go'] Result:\nThe tool execution failed"},
	}
	if len(res) != len(want) {
		t.Fatalf("results: %d, want %d", len(res), len(want))
	}
	for i, w := range want {
		if res[i].CallID != w.id || res[i].Name != w.name || !strings.HasPrefix(res[i].Content, w.start) || strings.Contains(res[i].Content, "TODO LIST") {
			t.Errorf("result %d: %+v", i, res[i])
		}
	}
	if !strings.HasPrefix(m[3].Content, "load.go parses the table's local times with time.Parse") {
		t.Errorf("plan-mode answer not in the text: %q", m[3].Content)
	}
	last := m[4]
	if last.Role != conversation.RoleUser || last.Content != "yes, and keep the old behaviour behind a flag" ||
		len(last.ToolResults) != 1 || last.ToolResults[0].CallID != "toolu_b1" {
		t.Errorf("plan-mode reply: %s %q %+v", last.Role, last.Content, last.ToolResults)
	}
}

func TestCorpus(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func TestCline(t *testing.T) {
	c := parsertest.ParseOne(t, New(), clineTask)
	if c.Source != "cline" || c.Project != "todo-cli" || c.Model != "claude-3-5-sonnet-20241022" {
		t.Errorf("source %q, project %q, model %q", c.Source, c.Project, c.Model)
	}
	if got := c.Date.UnixMilli(); got != 1733473923456 {
		t.Errorf("date %v", c.Date)
	}
	if got := c.Updated.UnixMilli(); got != 1733474410000 {
		t.Errorf("updated %v", c.Updated)
	}
	m := c.Messages
	if m[0].Content != "Add a --verbose flag to the CLI in cmd/main.go" || m[0].Hidden {
		t.Errorf("task message %+v", m[0])
	}
	if !strings.HasPrefix(m[1].Content, "<thinking>\nI should read main.go") || !strings.Contains(m[1].Content, "<read_file>\n<path>cmd/main.go</path>") {
		t.Errorf("XML tool use not kept as text: %q", m[1].Content)
	}
	if m[1].Thinking != "The user wants a verbose flag; the flags live in cmd/main.go." {
		t.Errorf("reasoning from ui_messages: %q", m[1].Thinking)
	}
	if r := m[2].ToolResults; len(r) != 1 || r[0].Name != "read_file" || m[2].Content != "" ||
		r[0].Content != "[read_file for 'cmd/main.go'] Result:\npackage main\n\nimport \"flag\"\n\nfunc main() {\n\tflag.Parse()\n}" {
		t.Errorf("text tool result %+v", m[2])
	}
	if m[3].Thinking != "Add a bool flag next to flag.Parse." || strings.Contains(m[3].Thinking, "SIGNATURE") {
		t.Errorf("thinking block %q", m[3].Thinking)
	}
	if a := m[4].Attachments; len(a) != 1 || a[0].Type != "image/png" || a[0].Size != 1080 || m[4].Role != conversation.RoleTool ||
		!strings.Contains(m[4].ToolResults[0].Content, "<feedback>\nuse the flag package") {
		t.Errorf("denied edit with feedback %+v", m[4])
	}
	if !m[9].Hidden || !strings.HasPrefix(m[9].Content, "[TASK RESUMPTION]") {
		t.Errorf("resumption %+v", m[9])
	}
	for i, msg := range m {
		if strings.Contains(msg.Content, "environment_details") && !msg.Hidden {
			t.Errorf("message %d shows the environment details", i)
		}
	}
	want := []conversation.Note{
		{Kind: "file_change", Title: "Files edited", Text: "cmd/main.go"},
		{Kind: "context", Title: "Files in context", Text: "cmd/main.go\nREADME.md"},
	}
	if len(c.Notes) != 2 || c.Notes[0] != want[0] || c.Notes[1] != want[1] {
		t.Errorf("notes %+v", c.Notes)
	}
}

func TestRoo(t *testing.T) {
	c := parsertest.ParseOne(t, New(), rooTask)
	if c.Source != "roo-code" || c.Project != "cache" {
		t.Errorf("source %q, project %q", c.Source, c.Project)
	}
	m := c.Messages
	if m[1].Thinking != "Flaky expiry tests usually sleep against the wall clock." || m[1].Content != "Let me look at the test." ||
		len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].Arguments != `{"path":"cache_test.go"}` {
		t.Errorf("reply with a native tool call %+v", m[1])
	}
	if r := m[2].ToolResults; len(r) != 1 || r[0].Name != "read_file" || r[0].CallID != "toolu_01" {
		t.Errorf("native tool result %+v", m[2])
	}
	if u := m[4]; u.Role != conversation.RoleUser || u.Content != "here is a screenshot of the failure" || len(u.Attachments) != 1 || len(u.ToolResults) != 1 {
		t.Errorf("feedback with an image %+v", u)
	}
	if m[0].Timestamp.UnixMilli() != 1751360000000 || c.Updated.UnixMilli() != 1751360070000 {
		t.Errorf("times %v, %v", m[0].Timestamp, c.Updated)
	}
	if m[6].Content != "text of a block kind to come" {
		t.Errorf("unknown block %+v", m[6])
	}
}

func TestSource(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/" + HistoryName, "cline"},
		{"/h/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks/u/" + HistoryName, "roo-code"},
		{`C:\Users\a\AppData\Roaming\Code\User\globalStorage\kilocode.kilo-code\tasks\u\` + HistoryName, "cline"}, // not a Windows path on this OS
		{"/h/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code/tasks/u/" + HistoryName, "kilo-code"},
		{"/h/.cline/data/tasks/1/" + HistoryName, "cline"},
	}
	for _, tt := range tests {
		if filepath.Separator == '\\' {
			continue
		}
		if got := source(tt.path); got != tt.want {
			t.Errorf("source(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestSplitInjected(t *testing.T) {
	tests := []struct{ in, visible, injected string }{
		{"<task>\nfix it\n</task>", "fix it", ""},
		{"fix it\n\n<environment_details>\nx\n</environment_details>", "fix it", "<environment_details>\nx\n</environment_details>"},
		{"<environment_details>\nx\n</environment_details>", "", "<environment_details>\nx\n</environment_details>"},
		{"<environment_details>\ncut short", "", "<environment_details>\ncut short"},
		{"<feedback>\nno\n</feedback>", "no", ""},
		{"[TASK RESUMPTION] resumed", "", "[TASK RESUMPTION] resumed"},
	}
	for _, tt := range tests {
		v, inj := splitInjected(tt.in)
		if v != tt.visible || inj != tt.injected {
			t.Errorf("splitInjected(%q) = %q, %q; want %q, %q", tt.in, v, inj, tt.visible, tt.injected)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, data string
		kind       error
		line       int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"object of another shape", `"text"`, parsers.ErrShape, 1},
		{"cut in the first element", "[\n{\"role\": \"us", parsers.ErrSyntax, 2},
	}
	for _, tt := range tests {
		_, err := New().Parse(context.Background(), "/x/"+HistoryName, strings.NewReader(tt.data))
		if !parsertest.CheckError(t, err, "/x/"+HistoryName, tt.line, tt.kind) {
			t.Errorf("%s", tt.name)
		}
	}
}

func TestCancelled(t *testing.T) {
	el := `{"role":"user","content":"hi"},`
	parsertest.CheckCancel(t, New(), HistoryName, []byte("["+strings.Repeat(el, 1000)+`{"role":"user","content":"hi"}]`))
}

func TestDefaultRoots(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	has := func(roots []string, want string) bool {
		for _, r := range roots {
			if r == want {
				return true
			}
		}
		return false
	}
	linux := roots("linux", "/home/u", getenv)
	for _, want := range []string{
		"/home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/home/u/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks",
		"/home/u/.vscode-server/data/User/globalStorage/kilocode.kilo-code/tasks",
		"/home/u/.cline/data/tasks",
	} {
		if !has(linux, want) {
			t.Errorf("linux roots lack %s", want)
		}
	}
	if mac := roots("darwin", "/Users/u", getenv); !has(mac, "/Users/u/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks") {
		t.Errorf("macOS roots %q", mac)
	}
	env["XDG_CONFIG_HOME"] = "/xdg"
	env["CLINE_DIR"] = "/opt/cline"
	linux = roots("linux", "/home/u", getenv)
	if !has(linux, "/xdg/Code/User/globalStorage/saoudrizwan.claude-dev/tasks") || !has(linux, "/opt/cline/data/tasks") || has(linux, "/home/u/.cline/data/tasks") {
		t.Errorf("roots with XDG_CONFIG_HOME and CLINE_DIR %q", linux)
	}
}

func TestCompanions(t *testing.T) {
	got := New().Companions("/t/1/" + HistoryName)
	want := []string{"/t/1/ui_messages.json", "/t/1/task_metadata.json", "/t/1/history_item.json"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("companions %q", got)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"history", HistoryName, `[{"role":"user","content":[{"type":"text","text":"<task>`, true},
		{"pretty", HistoryName, "[\n  {\n    \"role\": \"user\"", true},
		{"new task", HistoryName, "[]", true},
		{"ui messages", "ui_messages.json", `[{"ts":1,"type":"say","say":"task","text":"x"}]`, false},
		{"other name", "history.json", `[{"role":"user","content":"x"}]`, false},
		{"object", HistoryName, `{"role":"user"}`, false},
		{"no role", HistoryName, `[{"ts":1}]`, false},
		{"empty", HistoryName, "", false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectTree runs Detect over every real file and example of every
// family: only task histories may be claimed.
func TestDetectTree(t *testing.T) {
	claimed := parsertest.DetectTree(t, New(), func(path string) bool {
		return filepath.Base(path) == HistoryName
	}, "../../testdata/corpus", "../../examples", "testdata")
	if claimed < len(cases) {
		t.Errorf("claimed %d files, want at least %d", claimed, len(cases))
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), HistoryName, clineTask, rooTask, cutTask, nativeTask)
}

func TestLinkResults(t *testing.T) {
	calls := func(names ...string) []conversation.ToolCall {
		var cs []conversation.ToolCall
		for i, n := range names {
			cs = append(cs, conversation.ToolCall{ID: fmt.Sprint("c", i), Name: n})
		}
		return cs
	}
	tests := []struct {
		name    string
		pending []conversation.ToolCall
		results []string // result names; "=id" keeps an id already given
		want    string   // the ids given, "-" for none
		left    int
	}{
		{"by name, out of order", calls("read_file", "list_files"), []string{"list_files", "read_file"}, "c1 c0", 0},
		{"same name in order", calls("read_file", "read_file"), []string{"read_file", "read_file"}, "c0 c1", 0},
		{"other name by order", calls("use_subagents"), []string{"subagents"}, "c0", 0},
		{"more calls than results", calls("a", "b"), []string{"b"}, "c1", 1},
		{"no calls (XML tools)", nil, []string{"read_file"}, "-", 0},
		{"an id already given", calls("a"), []string{"=x"}, "x", 1},
	}
	for _, tt := range tests {
		var rs []conversation.ToolResult
		for _, n := range tt.results {
			if id, ok := strings.CutPrefix(n, "="); ok {
				rs = append(rs, conversation.ToolResult{CallID: id})
				continue
			}
			rs = append(rs, conversation.ToolResult{Name: n})
		}
		left := linkResults(rs, tt.pending)
		var got []string
		for _, r := range rs {
			if r.CallID == "" {
				got = append(got, "-")
				continue
			}
			got = append(got, r.CallID)
		}
		if strings.Join(got, " ") != tt.want || len(left) != tt.left {
			t.Errorf("%s: got %q with %d left, want %q with %d", tt.name, got, len(left), tt.want, tt.left)
		}
	}
}
