package copilot

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const corpus = "../../testdata/corpus/"

// The CLI counts and roles below were derived from the files, not from the
// parser, with this script (a message per system.message, user.message,
// assistant.message, tool.execution_complete and session.error; reasoning
// no assistant.message took is a message of its own; a tool.execution_start
// for a call no toolRequest announced opens an assistant message unless the
// last message is one of the same thread; malformed lines and lines with
// no type are warnings):
//
//	python3 -c '
//	import json,sys
//	for f in sys.argv[1:]:
//	  r="";seen=set();pend=False;w=0;last=None
//	  for l in open(f):
//	    if not l.strip(): continue
//	    try: o=json.loads(l)
//	    except ValueError: w+=1; continue
//	    t=o.get("type"); d=o.get("data") or {}
//	    if not t: w+=1; continue
//	    sub=bool(o.get("agentId") or d.get("parentToolCallId"))
//	    if t=="system.message": r+="s"; last=("s",sub)
//	    elif t=="user.message":
//	      if pend: r+="a"; pend=False
//	      r+="u"; last=("u",sub)
//	    elif t=="assistant.reasoning" and (d.get("content") or "").strip(): pend=True
//	    elif t=="assistant.message":
//	      pend=False; r+="a"; last=("a",sub)
//	      for q in d.get("toolRequests") or []: seen.add(q.get("toolCallId"))
//	    elif t=="tool.execution_start":
//	      c=d.get("toolCallId")
//	      if c in seen and c: continue
//	      seen.add(c)
//	      if pend: r+="a"; pend=False; last=("a",sub)
//	      if last==("a",sub): continue
//	      r+="a"; last=("a",sub)
//	    elif t=="tool.execution_complete": r+="t"; last=("t",sub)
//	    elif t=="session.error" and (d.get("errorType") or d.get("message")): r+="s"; last=("s",sub)
//	  if pend: r+="a"
//	  print(f,len(r),r,"warnings",w)' FILES
//
// Legacy sessions: one message per chatMessages element (system s, user
// u, assistant a, tool t); with no chatMessages, timeline user and copilot
// entries, tool_call_completed as t, a tool_call_requested opening an
// assistant message when the last one is not: jq -r '.chatMessages[].role' FILE.
//
// Titles: workspace.yaml's name, else the first paragraph of the first
// prompt a person typed, whitespace collapsed, cut to 80 runes at the last
// space past the middle, with "…" appended.
var cliCases = []parsertest.Case{
	{
		File:   corpus + "copilot-cli/030f200c-c26f-4ef0-9099-6d1156c83631/events.jsonl",
		Golden: "cli-real.json",
		Want: []parsertest.Want{{
			ID:       "030f200c-c26f-4ef0-9099-6d1156c83631",
			Title:    "Read .copilot/skills/demo-greeter/SKILL.md, then delegate a subagent to (1)…",
			Messages: 12,
			Roles:    "suatatattata",
		}},
	},
	{
		// A cut line and a line with no type are the two warnings.
		File:   "testdata/cli/quirks-session/events.jsonl",
		Golden: "cli-quirks.json",
		Want: []parsertest.Want{{
			ID:       "7d4c2a10-1111-4a2b-9c3d-000000000001",
			Title:    "Burst cap for the token bucket",
			Messages: 10,
			Roles:    "uatatsauaa",
		}},
		Warnings: 2,
	},
	{
		// Only a session.start: nothing to index.
		File:       "testdata/cli/empty-session/events.jsonl",
		Golden:     "cli-empty.json",
		NoTruncate: true,
	},
	{
		File: "testdata/history-session-state/c0ffee00-3333-4abc-8def-000000000003.json",
		Want: []parsertest.Want{{
			ID:       "c0ffee00-3333-4abc-8def-000000000003",
			Title:    "Why does `make test` fail on CI only?",
			Messages: 7,
			Roles:    "suataua",
		}},
	},
	{
		File: "testdata/history-session-state/c0ffee00-4444-4abc-8def-000000000004.json",
		Want: []parsertest.Want{{
			ID:       "c0ffee00-4444-4abc-8def-000000000004",
			Title:    "list the go files",
			Messages: 4,
			Roles:    "uata",
		}},
	},
}

// The VS Code counts: the session rebuilt from the log (kind 0 initial, 1
// set, 2 push with optional cut at i, 3 delete; an entry that fails to
// apply, or of another kind, or cut short, a warning), then per request a
// user message and an assistant message when the response has text,
// thinking, a tool invocation or an inline reference, or the request was
// cancelled or failed:
//
//	python3 -c '
//	import json,sys
//	def load(f):
//	  if f.endswith(".json"): return json.load(open(f)),0
//	  st=None;w=0
//	  for l in open(f):
//	    if not l.strip(): continue
//	    try: e=json.loads(l)
//	    except ValueError: w+=1; continue
//	    k=e.get("kind")
//	    try:
//	      if k==0: st=e["v"]; continue
//	      p=e["k"]; cur=st
//	      for x in p[:-1]: cur=cur[x]
//	      if k==1:
//	        if isinstance(cur,list) and p[-1]==len(cur): cur.append(e["v"])
//	        else: cur[p[-1]]=e["v"]
//	      elif k==3: del cur[p[-1]]
//	      elif k==2:
//	        a=cur.get(p[-1]) or [] if isinstance(cur,dict) else cur[p[-1]]
//	        if "i" in e: a=a[:e["i"]]
//	        a=a+(e.get("v") or []); cur[p[-1]]=a
//	      else: w+=1
//	    except (KeyError,IndexError,TypeError): w+=1
//	  return st,w
//	for f in sys.argv[1:]:
//	  s,w=load(f); r=""
//	  for q in s.get("requests",[]):
//	    r+="u"; has=False
//	    for p in q.get("response") or []:
//	      k=p.get("kind","")
//	      if k in("","markdownContent") and ((p.get("value") if k=="" else p["content"]["value"]) or "").strip(): has=True
//	      if k=="thinking" and "".join(p["value"] if isinstance(p["value"],list) else [p["value"]]).strip(): has=True
//	      if k in("toolInvocationSerialized","toolInvocation","inlineReference"): has=True
//	    if ((q.get("result") or {}).get("errorDetails") or {}).get("message") or q.get("isCanceled"): has=True
//	    if has: r+="a"
//	  print(f,s.get("sessionId"),len(r),r,"warnings",w)' FILES
var vscodeCases = []parsertest.Case{
	{
		File: corpus + "copilot-vscode/chatSessions/test-vscode-session.jsonl",
		Want: []parsertest.Want{{
			ID:       "0885a5a2-5c49-4a15-b22a-15d9ec401050",
			Title:    "Migrate to Quarkus",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		File: "testdata/vscode/ws1/chatSessions/9f8e7d6c-5555-4b3a-9c2d-000000000005.json",
		Want: []parsertest.Want{{
			ID:       "9f8e7d6c-5555-4b3a-9c2d-000000000005",
			Title:    "Why is the cart total wrong when a coupon is applied?",
			Messages: 7,
			Roles:    "uauauau",
		}},
	},
	{
		// An entry at a request that does not exist, an entry of an unknown
		// kind and a last line cut mid-write are the three warnings.
		File: "testdata/vscode/ws1/chatSessions/5a6b7c8d-6666-4e5f-8a9b-000000000006.jsonl",
		Want: []parsertest.Want{{
			ID:       "5a6b7c8d-6666-4e5f-8a9b-000000000006",
			Title:    "Queue haiku",
			Messages: 4,
			Roles:    "uaua",
		}},
		Warnings: 3,
	},
}

func TestCLICorpus(t *testing.T) {
	parsertest.Run(t, NewCLI(), cliCases)
}

func TestVSCodeCorpus(t *testing.T) {
	parsertest.Run(t, NewVSCode(), vscodeCases)
}

func TestCLIRealSession(t *testing.T) {
	c := parsertest.ParseOne(t, NewCLI(), cliCases[0].File)
	if c.Project != "demo-project" || c.Model != "claude-opus-4.7-1m-internal" {
		t.Errorf("project %q, model %q", c.Project, c.Model)
	}
	m := c.Messages
	if !m[0].Hidden || m[0].Role != conversation.RoleSystem {
		t.Errorf("system prompt not hidden: %+v", m[0].Role)
	}
	if m[1].Content != "Read .copilot/skills/demo-greeter/SKILL.md, then delegate a subagent to (1) count lines in hello.py and (2) summarize README.md in one sentence. Then report the subagent's findings back to me." {
		t.Errorf("prompt %q: want the typed text, not transformedContent", m[1].Content)
	}
	if a := m[2]; len(a.ToolCalls) != 1 || a.ToolCalls[0].Name != "view" || !strings.Contains(a.ToolCalls[0].Arguments, `"path":"/Users/testuser`) ||
		a.Thinking != "I need to start by looking at the skill file to understand what I'm working with." {
		t.Errorf("first reply: %+v", a)
	}
	if r := m[3]; len(r.ToolResults) != 1 || r.ToolResults[0].Name != "view" || !strings.Contains(r.ToolResults[0].Content, "name: demo-greeter") {
		t.Errorf("tool result: %+v", r)
	}
	// The explore sub-agent's turns (messages 6 to 9) are a sidechain.
	for i, msg := range m {
		want := i >= 6 && i <= 9
		if msg.Sidechain != want {
			t.Errorf("message %d (%s): sidechain %v, want %v", i, msg.Role, msg.Sidechain, want)
		}
	}
	if m[6].Model != "claude-haiku-4.5" || m[11].Content != "Subagent findings:\n\n- **Lines in `hello.py`:** 6\n- **README.md summary:** A demo project containing a trivial `hello.py` example that prints a greeting." {
		t.Errorf("sub-agent model %q, last reply %q", m[6].Model, m[11].Content)
	}
	// Parents skip the hook and turn events between messages.
	if m[3].ParentID != m[2].ID || m[2].ParentID != m[1].ID {
		t.Errorf("parents: %q→%q, %q→%q", m[3].ParentID, m[2].ID, m[2].ParentID, m[1].ID)
	}
}

func TestCLIQuirks(t *testing.T) {
	c := parsertest.ParseOne(t, NewCLI(), "testdata/cli/quirks-session/events.jsonl")
	if c.Project != "ratelimit" || strings.Join(c.Tags, "|") != "cwd:/home/dev/src/ratelimit/cmd|branch:token-bucket|repo:dev/ratelimit" {
		t.Errorf("project %q, tags %q", c.Project, c.Tags)
	}
	if len(c.Summaries) != 1 || c.Summaries[0] != "Burst cap added to the token bucket." {
		t.Errorf("summaries %q", c.Summaries)
	}
	m := c.Messages
	if u := m[0]; len(u.Attachments) != 2 || u.Attachments[0].Name != "bucket.go" || u.Attachments[1].Type != "image/png" || u.Attachments[1].Ref != "" {
		t.Errorf("attachments %+v", u.Attachments)
	}
	if a := m[1]; a.Thinking != "The refill adds tokens without a cap." || a.ToolCalls[0].Arguments != `{"path":"limiter/bucket.go"}` || a.Model != "gpt-5" {
		t.Errorf("reply: %+v", a)
	}
	if r := m[2].ToolResults[0]; !strings.Contains(r.Content, "[base64 data, ") || len(r.Content) < 60000 {
		t.Errorf("huge output: %d bytes, payload stripped: %v", len(r.Content), strings.Contains(r.Content, "[base64 data, "))
	}
	if a := m[3]; a.Role != conversation.RoleAssistant || len(a.ToolCalls) != 1 || a.ToolCalls[0].Name != "bash" {
		t.Errorf("call logged only by its execution: %+v", a)
	}
	if r := m[4].ToolResults[0]; !r.IsError || r.Name != "bash" || r.Content != "exit status 1" {
		t.Errorf("failed tool: %+v", r)
	}
	if s := m[5]; !s.Hidden || s.Content != "rate_limit\n\nToo many requests" {
		t.Errorf("session error: %+v", s)
	}
	if !m[6].Cancelled || !m[7].Hidden || !m[8].Sidechain || m[9].Thinking != "Nothing left to do." {
		t.Errorf("abort %v, notification hidden %v, sub-agent %v, trailing reasoning %q", m[6].Cancelled, m[7].Hidden, m[8].Sidechain, m[9].Thinking)
	}
}

func TestVSCodeQuirks(t *testing.T) {
	c := parsertest.ParseOne(t, NewVSCode(), "testdata/vscode/ws1/chatSessions/9f8e7d6c-5555-4b3a-9c2d-000000000005.json")
	if c.Project != "web shop" || c.Model != "copilot/gpt-5" {
		t.Errorf("project %q (from workspace.json), model %q", c.Project, c.Model)
	}
	if len(c.Notes) != 1 || c.Notes[0].Text != "/home/dev/src/web shop/cart.ts" {
		t.Errorf("notes %+v", c.Notes)
	}
	m := c.Messages
	if u := m[0]; len(u.Attachments) != 2 || u.Attachments[0].Ref != "/home/dev/src/web shop/cart.ts" || u.Attachments[1].Name != "screenshot.png" || u.Attachments[1].Ref != "" {
		t.Errorf("attachments %+v", u.Attachments)
	}
	a := m[1]
	if !strings.HasPrefix(a.Content, "The discount is applied after tax in `cart.ts`; move it before `addTax()`.") || !strings.Contains(a.Content, "[image/png data, ") {
		t.Errorf("reply text %q", a.Content)
	}
	if a.Thinking != "The coupon is applied after tax." {
		t.Errorf("thinking %q", a.Thinking)
	}
	if len(a.ToolCalls) != 2 || a.ToolCalls[0].Arguments != `{"command":"npm test -- cart"}` || a.ToolResults[0].Content != "1 failing: coupon after tax" ||
		a.ToolCalls[1].Arguments != `{"filePath":"/home/dev/src/web shop/cart.ts"}` || a.ToolResults[1].Content != "export function total() {}" {
		t.Errorf("tools %+v %+v", a.ToolCalls, a.ToolResults)
	}
	if !m[3].Cancelled || m[4].Content != "an old-style message given as a string" || m[5].Content != "Error: Sorry, your request failed: rate limited" {
		t.Errorf("cancelled %v, old message %q, failure %q", m[3].Cancelled, m[4].Content, m[5].Content)
	}

	log := parsertest.ParseOne(t, NewVSCode(), "testdata/vscode/ws1/chatSessions/5a6b7c8d-6666-4e5f-8a9b-000000000006.jsonl")
	if got := log.Messages[1].Content; got != "Tasks wait in line — first in, first out, they go" {
		t.Errorf("pushed parts %q", got)
	}
	if got := log.Messages[3].Content; got != "Last one in goes first; plates pile up high" {
		t.Errorf("push with a cut %q", got)
	}
}

func TestDefaultRoots(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"cli default", NewCLI().DefaultRoots("/home/u", env(nil)),
			[]string{"/home/u/.copilot/session-state", "/home/u/.copilot/history-session-state"}},
		{"cli COPILOT_HOME", NewCLI().DefaultRoots("/home/u", env(map[string]string{"COPILOT_HOME": "/data/cp"})),
			[]string{"/data/cp/session-state", "/data/cp/history-session-state"}},
		{"vscode linux XDG", vscodeRoots("linux", "/home/u", env(map[string]string{"XDG_CONFIG_HOME": "/cfg"}))[:2],
			[]string{"/cfg/Code/User/workspaceStorage", "/cfg/Code/User/globalStorage/emptyWindowChatSessions"}},
		{"vscode mac insiders", vscodeRoots("darwin", "/Users/u", env(nil))[2:3],
			[]string{"/Users/u/Library/Application Support/Code - Insiders/User/workspaceStorage"}},
	}
	for _, tt := range tests {
		if strings.Join(tt.got, "|") != filepath.FromSlash(strings.Join(tt.want, "|")) {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestDetect(t *testing.T) {
	const (
		cliRec = `{"type":"session.start","data":{"sessionId":"s"},"id":"1","timestamp":"t"}` + "\n"
		vsRec  = `{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}` + "\n"
	)
	nuls := strings.Repeat("\x00", 1000)
	tests := []struct {
		name, path, head string
		cli, vscode      bool
	}{
		{"cli events", "/x/events.jsonl", cliRec, true, false},
		{"vscode log", "/x/chatSessions/a.jsonl", vsRec, false, true},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"NULs then cli events", "/x/events.jsonl", nuls + "\n" + cliRec, true, false},
		{"NULs glued to cli events", "/x/session-state/s/events.jsonl", nuls + cliRec, true, false},
		{"garbage then cli events", "/x/events.jsonl", "garbage\n" + cliRec, true, false},
		{"torn then cli events", "/x/events.jsonl", `{"type":"session.start",` + "\n" + cliRec, true, false},
		{"NULs then vscode log", "/x/chatSessions/a.jsonl", nuls + "\n" + vsRec, false, true},
		{"NULs glued to vscode log", "/x/chatSessions/a.jsonl", nuls + vsRec, false, true},
		{"garbage then vscode log", "/x/chatSessions/a.jsonl", "garbage\n" + vsRec, false, true},
		{"garbage then claude code", "/x/events.jsonl", "garbage\n" + `{"type":"user","sessionId":"a","uuid":"b"}`, false, false},
		{"garbage then dotted elsewhere", "/x/notes.jsonl", "garbage\n" + `{"type":"session.start","data":{}}`, false, false},
		{"garbage then a later entry", "/x/chatSessions/a.jsonl", "garbage\n" + `{"kind":1,"k":["requests"],"v":[]}`, false, false},
		{"only NULs", "/x/events.jsonl", strings.Repeat("\x00", 4096), false, false},
	}
	for _, tt := range tests {
		if got := NewCLI().Detect(tt.path, []byte(tt.head)); got != tt.cli {
			t.Errorf("%s: CLI Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.cli)
		}
		if got := NewVSCode().Detect(tt.path, []byte(tt.head)); got != tt.vscode {
			t.Errorf("%s: VSCode Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.vscode)
		}
	}
}

// TestLeadingDamage: a session log that a crash left with NUL bytes, a torn
// or a garbage line before its records is claimed and read whole, and the
// damage is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	tests := []struct {
		name string
		p    parsers.Parser
		path string
		file string
	}{
		{"cli", NewCLI(), "/s/session-state/s/events.jsonl", cliCases[1].File},
		{"vscode", NewVSCode(), "/s/chatSessions/5a6b7c8d.jsonl", vscodeCases[2].File},
		{"vscode corpus", NewVSCode(), "/s/chatSessions/test.jsonl", vscodeCases[0].File},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parsertest.CheckLeadingDamage(t, tt.p, tt.path, parsertest.ReadFile(t, tt.file))
		})
	}
}

func TestDetectRejects(t *testing.T) {
	tests := []struct {
		path, head string
	}{
		{"/x/events.jsonl", `{"type":"user","sessionId":"a","uuid":"b"}`},     // claude code
		{"/x/rollout.jsonl", `{"type":"session_meta","payload":{"id":"x"}}`},  // codex
		{"/x/notes.jsonl", `{"type":"session.start","data":{}}`},              // dotted, but not a Copilot path or producer
		{"/x/a.json", `{"sessionId":"a","messages":[]}`},                      // no chatMessages or timeline
		{"/x/chatSessions/a.jsonl", `{"kind":1,"k":["requests"],"v":[]}`},     // not an initial entry
		{"/x/chatSessions/a.json", `{"requests":[],"title":"not a session"}`}, // no session key
		{"/x/chatSessions/a.txt", `{"version":3,"requests":[]}`},              // no session key under any name
		{"/x/notes.md", "# notes\n" + `{"kind":0,"v":{"sessionId":"a"}}`},     // a record quoted after text
		{"/x/chatSessions/a.jsonl", `{"kind":0,"v":[1,2,3],"sessionId":"a"}`}, // v not a session
	}
	for _, tt := range tests {
		if NewCLI().Detect(tt.path, []byte(tt.head)) || NewVSCode().Detect(tt.path, []byte(tt.head)) {
			t.Errorf("Detect(%s, %s) = true", tt.path, tt.head)
		}
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, NewCLI(), "events.jsonl",
		cliCases[0].File, cliCases[1].File, cliCases[2].File)
}

func FuzzParseLegacy(f *testing.F) {
	parsertest.Fuzz(f, NewCLI(), "legacy.json", cliCases[3].File, cliCases[4].File)
}

func FuzzParseVSCode(f *testing.F) {
	parsertest.Fuzz(f, NewVSCode(), "session.jsonl", vscodeCases[0].File, vscodeCases[2].File)
}

func FuzzParseVSCodeJSON(f *testing.F) {
	parsertest.Fuzz(f, NewVSCode(), "session.json", vscodeCases[1].File)
}
