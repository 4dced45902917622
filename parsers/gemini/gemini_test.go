package gemini

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const corpus = "../../testdata/corpus/gemini-cli/"

const (
	chats    = "testdata/tmp/convsearch/chats/"
	qwenOld  = "testdata/.qwen/tmp/5f0e9a1b3c7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f/chats/session-2025-09-01T10-00-3b9f0c11.json"
	qwenFile = "testdata/qwen/projects/-home-lin-src-kvstore/chats/6a1f0e2d-3c4b-4a59-8e7d-6c5b4a3f2e1d.jsonl"
	subagent = chats + "7c1e2a90-5b3d-4f6e-9a81-0d2c4b6e8f13/c0ffee11-2222-4333-8444-555566667777.jsonl"
)

// The counts and roles below were derived from the files, not from the
// parser. Gemini shapes (a message per record with a string id; a record
// whose id is live replaces it in place; rewound messages stay; user with
// only functionResponse parts is t; info/error/warning are s; other types
// skipped):
//
//	python3 -c '
//	import json,sys
//	def role(m):
//	  t=m.get("type"); c=m.get("content")
//	  if t=="user": return "t" if isinstance(c,list) and c and all(isinstance(p,dict) and "functionResponse" in p for p in c) else "u"
//	  if t in("gemini","model","qwen","assistant"): return "a"
//	  if t in("info","error","warning"): return "s"
//	for f in sys.argv[1:]:
//	  if f.endswith(".json"): ms=[m for m in json.load(open(f)).get("messages",[]) if isinstance(m,dict)]
//	  else:
//	    ms=[]; live={}
//	    for l in open(f):
//	      try: o=json.loads(l)
//	      except ValueError: continue
//	      if "$rewindTo" in o:
//	        i=next((k for k,m in enumerate(ms) if m.get("id")==o["$rewindTo"] and m["id"] in live),0)
//	        for m in ms[i:]: live.pop(m.get("id"),None)
//	      elif isinstance(o.get("id"),str):
//	        if o["id"] in live: ms[ms.index(live[o["id"]])]=o
//	        else: ms.append(o)
//	        live[o["id"]]=o
//	  r="".join(x for x in map(role,ms) if x); print(f,len(r),r)' FILES
//
// Qwen records (first of each uuid; user u, assistant a, tool_result t,
// system with subtype chat_compression s):
//
//	python3 -c '
//	import json,sys
//	for f in sys.argv[1:]:
//	  seen=set(); r=""
//	  for l in open(f):
//	    try: o=json.loads(l)
//	    except ValueError: continue
//	    if o["uuid"] in seen: continue
//	    seen.add(o["uuid"]); t=o["type"]
//	    r+={"user":"u","assistant":"a","tool_result":"t"}.get(t,"s" if o.get("subtype")=="chat_compression" else "")
//	  print(f,len(r),r)' FILE
//
// logs.json: jq -r '[.[]|objects|select(.message!="")]|group_by(.sessionId)|map("\(.[0].sessionId) \(length)")[]'
var cases = []parsertest.Case{
	{
		File: corpus + "session-2025-10-29T10-36-9c9a14e1.json",
		Want: []parsertest.Want{{
			ID:       "9c9a14e1-2b8f-443b-8cec-61516ff39741",
			Title:    "Read the file /tmp/gemini-test/sample.txt and tell me what it contains",
			Messages: 3,
			Roles:    "uaa",
		}},
	},
	{
		File: corpus + "session-2025-10-29T10-39-a63242d9.json",
		Want: []parsertest.Want{{
			ID:       "a63242d9-4431-4eee-926d-beb795e7989d",
			Title:    "Create a file test-default.txt with content 'test'",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		File: corpus + "session-2025-10-29T10-40-359abdd0.json",
		Want: []parsertest.Want{{
			ID:       "359abdd0-33dc-47db-8ee6-a4f405c678b8",
			Title:    "Create a file at /tmp/gemini-test/auto-edit-test.txt with 'test content'",
			Messages: 3,
			Roles:    "uaa",
		}},
	},
	{
		// A rewrite of g1, a rewind taking back u2 and g3, an unknown
		// record, one line cut short (a warning), the summary as title.
		File: chats + "session-2026-03-02T09-15-7c1e2a90.jsonl",
		Want: []parsertest.Want{{
			ID:       "7c1e2a90-5b3d-4f6e-9a81-0d2c4b6e8f13",
			Title:    "Compaction holds the manifest lock during merges",
			Messages: 8,
			Roles:    "uaasuaus",
		}},
		Warnings: 1,
	},
	{
		File: subagent,
		Want: []parsertest.Want{{
			ID:       "c0ffee11-2222-4333-8444-555566667777",
			Title:    "Find every caller of Compactor.run.",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		// A 320 KB tool output, a cancelled call, a user turn of function
		// responses only, an unknown type, a message that is a number (a
		// warning).
		File: chats + "session-2025-11-20T08-00-3d4e5f60.json",
		Want: []parsertest.Want{{
			ID:       "3d4e5f60-aaaa-4bbb-8ccc-ddddeeeeffff",
			Title:    "Run the whole test suite and show me the output",
			Messages: 5,
			Roles:    "uaatu",
		}},
		Warnings: 1,
	},
	{
		// Created and left empty: no conversation.
		File: chats + "session-2025-11-21T10-00-0a0b0c0d.json",
	},
	{
		// No chats folder beside it: both sessions come from the log. One
		// entry is a string (a warning), one has no message (dropped).
		File: "testdata/logs/logs.json",
		Want: []parsertest.Want{
			{ID: "11111111-aaaa-4bbb-8ccc-000000000001", Title: "How do I bump the Go version in go.mod?", Messages: 2, Roles: "uu"},
			{ID: "22222222-bbbb-4ccc-8ddd-000000000002", Title: "Explain the flaky TestWatch failure", Messages: 1, Roles: "u"},
		},
		Warnings: 1,
	},
}

var qwenCases = []parsertest.Case{
	{
		File: qwenOld,
		Want: []parsertest.Want{{
			ID:       "3b9f0c11-7d2e-4a5b-9c8d-1e2f3a4b5c6d",
			Title:    "把 README 翻译成英文",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		// Telemetry skipped, a repeated record, a cut line (a warning), a
		// compression summary, a notification, an inline image, a title.
		File: qwenFile,
		Want: []parsertest.Want{{
			ID:       "6a1f0e2d-3c4b-4a59-8e7d-6c5b4a3f2e1d",
			Title:    "Cache entry TTLs",
			Messages: 10,
			Roles:    "uatatasuua",
		}},
		Warnings: 1,
	},
}

func TestCorpus(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func TestQwenCorpus(t *testing.T) {
	parsertest.Run(t, NewQwen(), qwenCases)
}

// TestDetect: each parser claims its own files and not the other's, and
// neither claims Claude Code logs or other JSON.
func TestDetect(t *testing.T) {
	const (
		geminiMeta = `{"sessionId":"a","projectHash":"b","startTime":"t"}` + "\n"
		qwenRec    = `{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}` + "\n"
	)
	nuls := strings.Repeat("\x00", 1000)
	tests := []struct {
		path, head   string
		gemini, qwen bool
	}{
		{"/h/.gemini/tmp/p/chats/session-x.json", `{"sessionId":"a","projectHash":"b","messages":[]}`, true, false},
		{"/h/.qwen/tmp/p/chats/session-x.json", `{"sessionId":"a","projectHash":"b","messages":[]}`, false, true},
		{"/h/.gemini/tmp/p/chats/session-x.jsonl", `{"sessionId":"a","projectHash":"b","startTime":"t"}` + "\n", true, false},
		{"/h/.gemini/tmp/p/logs.json", "[]", true, false},
		{"/h/.qwen/tmp/p/logs.json", `[{"sessionId":"a","messageId":0}]`, false, true},
		{"/x/a.jsonl", `{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`, false, true},
		// Claude Code's record: role + content, no parts.
		{"/x/a.jsonl", `{"parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u"}`, false, false},
		{"/x/notes.json", `{"sessionId":"a","projectHash":"b","messages":[]}`, true, false},           // a session under another name
		{"/x/notes.json", `{"meta":{"sessionId":"a","messages":[]}}`, false, false},                   // not at the root
		{"/x/notes.json", `{"sessionId":"a","projectHash":"b","startTime":"t"}` + "\n", false, false}, // a session log's first line
		{"/x/notes.jsonl", `{"sessionId":"a","messages":[]}`, false, false},                           // a .jsonl is read line by line
		{"/x/logs.json", `{"sessionId":"a"}`, false, false},
		{"/x/session-x.json", `{"conversation_id":"a","history":[]}`, false, false},
		{"/x/session-x.jsonl", "", false, false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"/h/.gemini/tmp/p/chats/session-x.jsonl", nuls + "\n" + geminiMeta, true, false},
		{"/h/.gemini/tmp/p/chats/session-x.jsonl", nuls + geminiMeta, true, false},
		{"/h/.gemini/tmp/p/chats/session-x.jsonl", "garbage\n" + geminiMeta, true, false},
		{"/h/.qwen/tmp/p/chats/session-x.jsonl", "garbage\n" + geminiMeta, false, true},
		{"/x/a.jsonl", nuls + "\n" + qwenRec, false, true},
		{"/x/a.jsonl", nuls + qwenRec, false, true},
		{"/x/a.jsonl", "garbage\n" + qwenRec, false, true},
		{"/x/a.jsonl", `{"uuid":"u",` + "\n" + qwenRec, false, true},
		{"/x/a.jsonl", "garbage\n" + `{"parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u"}`, false, false},
		{"/h/.gemini/tmp/p/chats/session-x.jsonl", strings.Repeat("\x00", 4096), false, false},
		{"/h/.qwen/projects/p/chats/x.jsonl", "garbage\n", false, false},
	}
	for _, tt := range tests {
		if got := New().Detect(tt.path, []byte(tt.head)); got != tt.gemini {
			t.Errorf("gemini Detect(%s, %.40s) = %v", tt.path, tt.head, got)
		}
		if got := NewQwen().Detect(tt.path, []byte(tt.head)); got != tt.qwen {
			t.Errorf("qwen Detect(%s, %.40s) = %v", tt.path, tt.head, got)
		}
	}
}

// TestLogsSkipsRecordedSessions: a prompt of a session whose chats file is
// beside logs.json is read from that file, not from the log.
func TestLogsSkipsRecordedSessions(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "chats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chats", "session-2025-07-01T12-00-11111111.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(dir, "logs.json")
	data := parsertest.ReadFile(t, "testdata/logs/logs.json")
	if err := os.WriteFile(logs, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res := parsertest.ParseFile(t, New(), logs)
	if len(res.Conversations) != 1 || res.Conversations[0].ID != "22222222-bbbb-4ccc-8ddd-000000000002" {
		t.Fatalf("conversations %v: want only the session with no chats file", ids(res.Conversations))
	}
	if got := New().Companions(logs); len(got) != 1 || got[0] != filepath.Join(dir, "chats") {
		t.Errorf("Companions(logs.json) = %v", got)
	}
}

// TestJSONSupersededByJSONL: a resumed .json session is copied into a
// .jsonl beside it; the .json then yields nothing, so the session is read
// once.
func TestJSONSupersededByJSONL(t *testing.T) {
	dir := t.TempDir()
	src := corpus + "session-2025-10-29T10-39-a63242d9.json"
	js := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(js, parsertest.ReadFile(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := len(parsertest.ParseFile(t, New(), js).Conversations); n != 1 {
		t.Fatalf("alone: %d conversations, want 1", n)
	}
	if err := os.WriteFile(js+"l", []byte(`{"sessionId":"a63242d9-4431-4eee-926d-beb795e7989d","projectHash":"x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := len(parsertest.ParseFile(t, New(), js).Conversations); n != 0 {
		t.Errorf("beside its .jsonl: %d conversations, want 0", n)
	}
	if got := New().Companions(js); len(got) != 1 || got[0] != js+"l" {
		t.Errorf("Companions = %v", got)
	}
}

func TestSessionLogDetails(t *testing.T) {
	c := parsertest.ParseOne(t, New(), chats+"session-2026-03-02T09-15-7c1e2a90.jsonl")
	m := c.Messages
	if c.Project != "convsearch" || c.Model != "gemini-2.5-pro" {
		t.Errorf("project %q model %q", c.Project, c.Model)
	}
	if len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].Name != "read_file" || !strings.Contains(m[1].ToolCalls[0].Arguments, "compact.go") {
		t.Errorf("tool calls %+v", m[1].ToolCalls)
	}
	if len(m[1].ToolResults) != 1 || !strings.Contains(m[1].ToolResults[0].Content, "c.mu.Lock()") || m[1].ToolResults[0].Name != "read_file" {
		t.Errorf("tool results %+v", m[1].ToolResults)
	}
	if !strings.HasPrefix(m[1].Thinking, "Locating the lock: ") {
		t.Errorf("thinking %q", m[1].Thinking)
	}
	if !m[3].Hidden || m[3].Role != conversation.RoleSystem {
		t.Errorf("info message %+v: want hidden system", m[3])
	}
	if !m[4].Deleted || !m[5].Deleted || m[6].Deleted {
		t.Errorf("deleted flags %v %v %v: want the rewound two only", m[4].Deleted, m[5].Deleted, m[6].Deleted)
	}
	if len(m[4].Attachments) != 1 || m[4].Attachments[0].Type != "image/png" || m[4].Attachments[0].Size != 2048 {
		t.Errorf("attachments %+v", m[4].Attachments)
	}
	sub := parsertest.ParseOne(t, New(), subagent)
	if !sub.Messages[1].Sidechain || sub.Messages[1].Thinking != "Checking the callers." || sub.Messages[1].Content != "Two callers: db.go:88 and compact_test.go:41." {
		t.Errorf("sub-agent reply %+v", sub.Messages[1])
	}
}

func TestLegacyDetails(t *testing.T) {
	c := parsertest.ParseOne(t, New(), chats+"session-2025-11-20T08-00-3d4e5f60.json")
	res := c.Messages[1].ToolResults
	if len(res) != 2 || len(res[0].Content) < 290000 || res[1].Content != "Tool call cancelled by user." {
		t.Fatalf("tool results: %d, first %d bytes", len(res), len(res[0].Content))
	}
	tool := c.Messages[3]
	if len(tool.ToolResults) != 1 || !tool.ToolResults[0].IsError || tool.ToolResults[0].Content != "timeout" {
		t.Errorf("function response turn %+v", tool)
	}
}

func TestQwenDetails(t *testing.T) {
	c := parsertest.ParseOne(t, NewQwen(), qwenFile)
	m := c.Messages
	if c.Source != QwenName || c.Project != "kvstore" || c.Model != "qwen3-coder-plus" {
		t.Errorf("source %q project %q model %q", c.Source, c.Project, c.Model)
	}
	if m[1].Thinking != "I should read cache.go first." || len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].ID != "call_1" {
		t.Errorf("assistant %+v", m[1])
	}
	if len(m[4].ToolResults) != 1 || !m[4].ToolResults[0].IsError || m[4].ToolResults[0].Content != "old_string not found" {
		t.Errorf("failed tool %+v", m[4])
	}
	if !m[6].Hidden || m[6].Role != conversation.RoleSystem || len(c.Summaries) != 1 {
		t.Errorf("compression %+v, summaries %v", m[6], c.Summaries)
	}
	if !m[7].Hidden {
		t.Errorf("notification not hidden: %+v", m[7])
	}
	if len(m[8].Attachments) != 1 || m[8].Attachments[0].Type != "image/jpeg" {
		t.Errorf("image %+v", m[8].Attachments)
	}
}

func TestDefaultRoots(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	check := func(p *Parser, want ...string) {
		t.Helper()
		got := p.DefaultRoots("/home/u", getenv)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s roots %v, want %v", p.Info().Name, got, want)
		}
	}
	check(New(), "/home/u/.gemini/tmp")
	check(NewQwen(), "/home/u/.qwen/projects", "/home/u/.qwen/tmp")
	env["GEMINI_CLI_HOME"] = "/g"
	env["QWEN_HOME"] = "/q"
	env["QWEN_RUNTIME_DIR"] = "/rt"
	check(New(), "/g/.gemini/tmp")
	check(NewQwen(), "/rt/projects", "/q/projects", "/q/tmp")
}

// TestLeadingDamage: a session log or Qwen's records that a crash left with
// NUL bytes, a torn or a garbage line before them are claimed and read
// whole, and the damage is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	tests := []struct {
		name string
		p    *Parser
		path string
		file string
	}{
		{"gemini session log", New(), "/h/.gemini/tmp/p/chats/session-2026-03-02T09-15-7c1e2a90.jsonl", chats + "session-2026-03-02T09-15-7c1e2a90.jsonl"},
		{"qwen records", NewQwen(), "/h/.qwen/projects/p/chats/6a1f0e2d.jsonl", qwenFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parsertest.CheckLeadingDamage(t, tt.p, tt.path, parsertest.ReadFile(t, tt.file))
		})
	}
}

func TestCancel(t *testing.T) {
	for _, f := range []string{chats + "session-2026-03-02T09-15-7c1e2a90.jsonl", corpus + "session-2025-10-29T10-39-a63242d9.json", "testdata/logs/logs.json"} {
		parsertest.CheckCancel(t, New(), f, parsertest.ReadFile(t, f))
	}
	parsertest.CheckCancel(t, NewQwen(), qwenFile, parsertest.ReadFile(t, qwenFile))
}

func TestUnreadable(t *testing.T) {
	for _, tt := range []struct{ path, data string }{
		{"/x/session-a.json", `{"sessionId": `},
		{"/x/session-a.jsonl", "not json\n"},
		{"/x/logs.json", `{"a":1}`},
	} {
		if _, err := New().Parse(context.Background(), tt.path, strings.NewReader(tt.data)); err == nil || !strings.Contains(err.Error(), tt.path) {
			t.Errorf("Parse(%s) error %v: want one naming the file", tt.path, err)
		}
	}
}

func ids(cs []*conversation.Conversation) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "session-2026-03-02T09-15-7c1e2a90.jsonl",
		chats+"session-2026-03-02T09-15-7c1e2a90.jsonl", subagent, qwenFile,
		corpus+"session-2025-10-29T10-40-359abdd0.json")
}

// TestTorn cuts real session files and logs.json at many offsets, as a crash
// while the tool rewrote them would: the messages written whole before the
// tear are kept, the one it cut is dropped, with a warning.
func TestTorn(t *testing.T) {
	tests := []struct {
		file, key string
	}{
		{corpus + "session-2025-10-29T10-36-9c9a14e1.json", "messages"},
		{corpus + "session-2025-10-29T10-39-a63242d9.json", "messages"},
		{corpus + "session-2025-10-29T10-40-359abdd0.json", "messages"},
		{chats + "session-2025-11-20T08-00-3d4e5f60.json", "messages"},
		{"testdata/logs/logs.json", ""},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			data := parsertest.ReadFile(t, tt.file)
			arrays := parsertest.Arrays(t, data, tt.key)
			if len(arrays) != 1 {
				t.Fatalf("%d arrays under %q", len(arrays), tt.key)
			}
			a := arrays[0]
			// A path of its own: no .jsonl beside it, no chats folder.
			path := filepath.Join(t.TempDir(), filepath.Base(tt.file))
			parsertest.CheckTorn(t, New(), path, data, parsertest.Cuts(data, a), a.Whole(data))
		})
	}
}
