package codex

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const corpus = "../../testdata/corpus/codex/"

const (
	real1   = corpus + "rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36e.jsonl"
	real2   = corpus + "rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl"
	quirks  = "testdata/rollout-2025-10-20T09-30-00-0199f0a1-7c2e-7b10-9e4d-3a5b6c7d8e9f.jsonl"
	legacy  = "testdata/rollout-2025-05-07T17-24-21-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl"
	noMeta  = "testdata/rollout-2025-10-21T08-00-00-0199f0b2-1111-7222-8333-944455566677.jsonl"
	newer   = "testdata/rollout-2025-11-05T09-00-00-019a5b3c-1d2e-7f40-8a1b-2c3d4e5f6a7b.jsonl"
	example = "../../examples/codex/sessions/2025/10/14/rollout-2025-10-14T10-00-00-0199e2a4-5b3c-7d8e-9f01-23456789abcd.jsonl"
)

// The counts and roles below were derived from the files, not from the
// parser, with this script. response_item messages are canonical; an
// event_msg user_message, agent_message or agent_reasoning counts only when
// no response item of its kind has the same text (white space collapsed).
// The model's items group into one assistant message per step: reasoning
// opens a step unless the step holds only reasoning, text after tool calls
// opens one, calls join the step; prompts and tool outputs close it and are
// messages of their own (developer/system prompts are s, outputs t).
//
//	python3 -c '
//	import json,sys,collections
//	RT=("message","reasoning","function_call","function_call_output","custom_tool_call","custom_tool_call_output","local_shell_call","web_search_call","image_generation_call","agent_message")
//	T=lambda s:" ".join((s or "").split())
//	for f in sys.argv[1:]:
//	  items=[]
//	  for l in open(f):
//	    try: o=json.loads(l)
//	    except ValueError: continue
//	    t,p=o.get("type"),o.get("payload") or {}
//	    if "payload" not in o and t in RT: t,p="response_item",o
//	    pt=p.get("type")
//	    if t=="response_item":
//	      if pt=="message":
//	        c=p.get("content"); c=[{"text":c}] if isinstance(c,str) else c or []
//	        x=T("\n\n".join(q.get("text","") for q in c if q.get("type")!="input_image"))
//	        r={"assistant":"a","system":"s","developer":"s"}.get(p.get("role"),"u")
//	        items.append(("text" if r=="a" else "prompt",r,x,0))
//	      elif pt=="reasoning":
//	        for q in (p.get("summary") or [])+(p.get("content") or []):
//	          if T(q.get("text")): items.append(("reason","a",T(q.get("text")),0))
//	      elif pt=="agent_message":
//	        c=p.get("content") or []
//	        items.append(("text","a",T("\n\n".join(q.get("text","") for q in c)) or T(p.get("message")),0))
//	      elif pt in RT[2:] and "output" not in pt: items.append(("call","a","",0))
//	      elif pt in RT[2:]: items.append(("out","t","",0))
//	    elif t=="event_msg":
//	      if pt=="user_message": items.append(("prompt","u",T(p.get("message")),1))
//	      elif pt=="agent_message": items.append(("text","a",T(p.get("message")),1))
//	      elif pt in ("agent_reasoning","agent_reasoning_raw_content") and T(p.get("text")): items.append(("reason","a",T(p.get("text")),1))
//	  free=collections.Counter(i[:3] for i in items if not i[3]); r=""; cur=None
//	  for k,role,x,ev in items:
//	    if ev and free[(k,role,x)]>0: free[(k,role,x)]-=1; continue
//	    if k in ("prompt","out"):
//	      if cur: r+="a"; cur=None
//	      r+=role
//	    elif k=="reason":
//	      if cur and (cur["text"] or cur["calls"]): r+="a"; cur=None
//	      cur=cur or {"text":0,"calls":0}
//	    elif k=="text":
//	      if cur and cur["calls"]: r+="a"; cur=None
//	      cur=cur or {"text":0,"calls":0}; cur["text"]=1
//	    else: cur=cur or {"text":0,"calls":0}; cur["calls"]=1
//	  if cur: r+="a"
//	  print(f,len(r),r)' FILES
//
// Titles: the first user prompt that is not injected context, after "## My
// request for Codex:" when the IDE prefixed its context; its first
// paragraph, white space collapsed, cut to 80 runes at the last space past
// the middle with "…" appended.
var cases = []parsertest.Case{
	{
		File: real1,
		Want: []parsertest.Want{{
			ID:       "0199812e-64f0-7f73-91fc-095dda01c36e",
			Title:    "Quality score",
			Messages: 119,
			Roles:    "uuatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatuua",
		}},
	},
	{
		File: real2,
		Want: []parsertest.Want{{
			ID:       "019982b8-3422-79e0-8b3b-05abaf4f3c3e",
			Title:    "Evaluate @packages/services and create a new package called…",
			Messages: 71,
			Roles:    "uuatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatatata",
		}},
	},
	{
		// One malformed line (15) is a warning.
		File: quirks,
		Want: []parsertest.Want{{
			ID:       "0199f0a1-7c2e-7b10-9e4d-3a5b6c7d8e9f",
			Title:    "Why does GET /jobs/{id}/status return 500 when the job row is missing?",
			Messages: 16,
			Roles:    "suuuuatatatataua",
		}},
		Warnings: 1,
	},
	{
		// Newer shapes: a function_call_output whose output is an object
		// (content_items; an unknown shape), an image_generation_call, an
		// agent_message response item with its event twin.
		File: newer,
		Want: []parsertest.Want{{
			ID:       "019a5b3c-1d2e-7f40-8a1b-2c3d4e5f6a7b",
			Title:    "Check issue 12, run the burst test, then draw the limiter's state machine.",
			Messages: 7,
			Roles:    "uatataa",
		}},
	},
	{
		File: legacy,
		Want: []parsertest.Want{{
			ID:       "5973b6c0-94b8-487b-a530-2aeb6098ae0e",
			Title:    "Should job status use gRPC server streaming or polling?",
			Messages: 3,
			Roles:    "uua",
		}},
	},
	{
		File: noMeta,
		Want: []parsertest.Want{{
			ID:       "0199f0b2-1111-7222-8333-944455566677",
			Title:    "Summarise the incident timeline in INCIDENT.md",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		File: example,
		Want: []parsertest.Want{{
			ID:       "0199e2a4-5b3c-7d8e-9f01-23456789abcd",
			Title:    "Exports take anywhere from 30 s to 20 min and clients need progress. Should the…",
			Messages: 17,
			Roles:    "uuatatatatauatata",
		}},
	},
}

func TestCorpus(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func TestQuirks(t *testing.T) {
	c := parsertest.ParseOne(t, New(), quirks)
	m := c.Messages

	if c.Project != "jobs" || c.Model != "gpt-5-codex" {
		t.Errorf("project %q model %q", c.Project, c.Model)
	}
	wantTags := "cwd:/home/dev/src/jobs/.worktrees/status-api|branch:feat/job-status|repo:git@example.com:acme/jobs.git|commit:4be1c0ffee"
	if got := strings.Join(c.Tags, "|"); got != wantTags {
		t.Errorf("tags %q", got)
	}
	if len(c.Notes) != 1 || c.Notes[0].Kind != "instructions" || !strings.Contains(c.Notes[0].Text, "make check") {
		t.Errorf("notes %+v", c.Notes)
	}
	if len(c.Summaries) != 1 || !strings.Contains(c.Summaries[0], "404 job_not_found") {
		t.Errorf("summaries %q", c.Summaries)
	}
	if c.Date.Format("15:04:05.000") != "09:30:00.110" || c.Updated.Format("15:04:05.000") != "09:30:21.000" {
		t.Errorf("date %v updated %v", c.Date, c.Updated)
	}

	hidden := map[int]bool{0: true, 1: true, 2: true, 3: true}
	for i, msg := range m {
		if msg.Hidden != hidden[i] {
			t.Errorf("message %d (%s %.40q): hidden %v, want %v", i, msg.Role, msg.Content, msg.Hidden, hidden[i])
		}
	}
	// The request keeps its IDE context (nothing lost) and its image, once:
	// the event twin was dropped.
	if r := m[4]; !strings.HasPrefix(r.Content, "# Context from my IDE setup:") || len(r.Attachments) != 1 ||
		r.Attachments[0].Type != "image/png" || r.Attachments[0].Size != 1536 {
		t.Errorf("request: %+v", r)
	}
	// Two reasoning parts (events first, response item after) and a call.
	if a := m[5]; a.Thinking != "**Looking for the handler**\n\n**Checking sql.ErrNoRows handling**" ||
		len(a.ToolCalls) != 1 || a.ToolCalls[0].Arguments != `{"command":["rg","-n","ErrNoRows","api"],"workdir":"/home/dev/src/jobs"}` ||
		a.Model != "gpt-5-codex" || strings.Contains(a.Thinking, "gAAAA") {
		t.Errorf("step 1: %+v", a)
	}
	if r := m[6].ToolResults; len(r) != 1 || !r[0].IsError || r[0].Name != "shell" || r[0].Content != "" {
		t.Errorf("exit code 1: %+v", r)
	}
	if a := m[7]; len(a.ToolCalls) != 1 || a.ToolCalls[0].Name != "local_shell" || a.ToolCalls[0].ID != "call_sh2" ||
		!strings.Contains(a.ToolCalls[0].Arguments, `"command":["sed","-n","40,60p","api/status.go"]`) {
		t.Errorf("local shell: %+v", a)
	}
	if r := m[8].ToolResults; len(r) != 1 || r[0].IsError || r[0].Name != "local_shell" || !strings.HasPrefix(r[0].Content, "row, err := store.Get") {
		t.Errorf("object output: %+v", r)
	}
	if a := m[9]; !strings.HasPrefix(a.Thinking, "Missing rows surface") || a.Content != "The handler maps every store error to 500; I'll map sql.ErrNoRows to 404." ||
		len(a.ToolCalls) != 1 || a.ToolCalls[0].Name != "apply_patch" || !strings.HasPrefix(a.ToolCalls[0].Arguments, "*** Begin Patch") {
		t.Errorf("step 3: %+v", a)
	}
	if r := m[10].ToolResults; r[0].Name != "apply_patch" || r[0].Content != "Success. Updated the following files:\nM api/status.go\n" {
		t.Errorf("patch output: %+v", r)
	}
	if a := m[11]; len(a.ToolCalls) != 2 || a.ToolCalls[0].Name != "web_search" || a.ToolCalls[1].Name != "view_image" {
		t.Errorf("step 4: %+v", a.ToolCalls)
	}
	if r := m[12]; r.ToolResults[0].Content != "docs/status-flow.png" || len(r.Attachments) != 1 || r.Attachments[0].Size != 300 {
		t.Errorf("image output: %+v", r)
	}
	// Messages that only the event stream holds are kept.
	if a := m[13]; !strings.HasPrefix(a.Content, "Decision: return 404") || a.Role != conversation.RoleAssistant {
		t.Errorf("event-only agent message: %+v", a)
	}
	if u := m[14]; u.Content != "also add a test for the 404" || u.Role != conversation.RoleUser {
		t.Errorf("event-only user message: %+v", u)
	}
	if a := m[15]; !a.Cancelled || a.Thinking != "**Writing the test**" || len(a.ToolCalls) != 1 {
		t.Errorf("aborted step: %+v", a)
	}
	for i, msg := range m[:15] {
		if msg.Cancelled {
			t.Errorf("message %d cancelled", i)
		}
	}
}

// TestDedupe checks that a message in one stream only is kept and one in
// both is kept once, whichever comes first.
func TestDedupe(t *testing.T) {
	const head = `{"timestamp":"2025-10-14T08:00:00Z","type":"session_meta","payload":{"id":"s1","cwd":"/x"}}` + "\n"
	resp := func(role, text string) string {
		typ := "input_text"
		if role == "assistant" {
			typ = "output_text"
		}
		return `{"timestamp":"2025-10-14T08:00:01Z","type":"response_item","payload":{"type":"message","role":"` + role + `","content":[{"type":"` + typ + `","text":"` + text + `"}]}}` + "\n"
	}
	event := func(typ, text string) string {
		return `{"timestamp":"2025-10-14T08:00:01Z","type":"event_msg","payload":{"type":"` + typ + `","message":"` + text + `"}}` + "\n"
	}
	tests := []struct {
		name, data, roles, contents string
	}{
		{"both streams", resp("user", "hi") + event("user_message", "hi") + event("agent_message", "hello") + resp("assistant", "hello"), "ua", "hi|hello"},
		{"events only", event("user_message", "hi") + event("agent_message", "hello"), "ua", "hi|hello"},
		{"responses only", resp("user", "hi") + resp("assistant", "hello"), "ua", "hi|hello"},
		{"white space differs", resp("user", "a  b\\n") + event("user_message", "a b"), "u", "a  b\n"},
		{"said twice, echoed twice", resp("user", "again") + event("user_message", "again") + resp("user", "again") + event("user_message", "again"), "uu", "again|again"},
		{"said twice, echoed once", resp("user", "again") + resp("user", "again") + event("user_message", "again"), "uu", "again|again"},
		{"different text", resp("user", "one") + event("user_message", "two"), "uu", "one|two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Parse(context.Background(), "r.jsonl", strings.NewReader(head+tt.data))
			if err != nil {
				t.Fatal(err)
			}
			msgs := res.Conversations[0].Messages
			var contents []string
			for _, m := range msgs {
				contents = append(contents, m.Content)
			}
			if got := parsertest.RoleLetters(msgs); got != tt.roles || strings.Join(contents, "|") != tt.contents {
				t.Errorf("got %s %q, want %s %q", got, strings.Join(contents, "|"), tt.roles, tt.contents)
			}
		})
	}
}

func TestReadOutput(t *testing.T) {
	tests := []struct {
		raw, text string
		isErr     bool
	}{
		{`"{\"output\":\"ok\\n\",\"metadata\":{\"exit_code\":0}}"`, "ok\n", false},
		{`"{\"output\":\"boom\",\"metadata\":{\"exit_code\":\"2\"}}"`, "boom", true},
		{`"plain text"`, "plain text", false},
		{`"{\"unrelated\":1}"`, `{"unrelated":1}`, false},
		{`{"content":"denied","success":false}`, "denied", true},
		{`[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]`, "a\n\nb", false},
		{`null`, "", false},
		{`42`, "42", false},
	}
	for _, tt := range tests {
		text, isErr, _ := readOutput([]byte(tt.raw))
		if text != tt.text || isErr != tt.isErr {
			t.Errorf("readOutput(%s) = %q, %v; want %q, %v", tt.raw, text, isErr, tt.text, tt.isErr)
		}
	}
}

func TestInjected(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"<environment_context>\n<cwd>/x</cwd>\n</environment_context>", true},
		{"  <user_instructions>be brief</user_instructions>", true},
		{"# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>…</INSTRUCTIONS>", true},
		{"# Context from my IDE setup:\n\n## Open tabs:\n- a.go", true},
		{"# Context from my IDE setup:\n\n## My request for Codex:\nfix it", false},
		{"fix the <environment_context> parser", false},
	}
	for _, tt := range tests {
		if got := injected(tt.text); got != tt.want {
			t.Errorf("injected(%.40q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	if got := request("# Context from my IDE setup:\n\n## My request for Codex:\nfix it\n"); got != "\nfix it\n" {
		t.Errorf("request = %q", got)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, data string
		kind       error // nil: no error, no conversation
		line       int
	}{
		{"empty", "", nil, 0},
		{"header only", `{"timestamp":"2025-10-14T08:00:00Z","type":"session_meta","payload":{"id":"s1"}}` + "\n", nil, 0},
		{"bookkeeping only", `{"timestamp":"t","type":"event_msg","payload":{"type":"token_count"}}` + "\n", nil, 0},
		{"cut short", `{"timestamp":"2025-10-14T08:00:00Z","type":"session_me`, parsers.ErrSyntax, 1},
		{"claude code", `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u","message":{"role":"user","content":"hi"}}` + "\n", parsers.ErrShape, 0},
		{"payload not an object", `{"timestamp":"t","type":"response_item","payload":[1]}` + "\n", parsers.ErrShape, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Parse(context.Background(), "/x/r.jsonl", strings.NewReader(tt.data))
			if tt.kind == nil {
				if err != nil || len(res.Conversations) != 0 {
					t.Fatalf("got %v, %v; want no conversation and no error", res, err)
				}
				return
			}
			parsertest.CheckError(t, err, "/x/r.jsonl", tt.line, tt.kind)
		})
	}
}

func TestWarningNamesLine(t *testing.T) {
	data := `{"timestamp":"t","type":"session_meta","payload":{"id":"s1"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"hi"}}
{"timestamp":"t","type":"response_item","payload":{"type":"mess
{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"hello"}}
`
	res, err := New().Parse(context.Background(), "r.jsonl", strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0].Error(), "r.jsonl:3: ") || !errors.Is(res.Warnings[0], parsers.ErrSyntax) {
		t.Errorf("warnings %v", res.Warnings)
	}
	if got := parsertest.RoleLetters(res.Conversations[0].Messages); got != "ua" {
		t.Errorf("roles %q", got)
	}
}

func TestCancelled(t *testing.T) {
	line := `{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"hi"}}` + "\n"
	parsertest.CheckCancel(t, New(), "r.jsonl", []byte(strings.Repeat(line, 1000)))
}

func TestDefaultRoots(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := strings.Join(New().DefaultRoots("/home/u", getenv), "|"); got != "/home/u/.codex/sessions|/home/u/.codex/archived_sessions" {
		t.Errorf("default roots %q", got)
	}
	env["CODEX_HOME"] = "/srv/codex"
	if got := strings.Join(New().DefaultRoots("/home/u", getenv), "|"); got != "/srv/codex/sessions|/srv/codex/archived_sessions" {
		t.Errorf("roots with CODEX_HOME %q", got)
	}
}

func TestDetect(t *testing.T) {
	const meta = `{"timestamp":"2025-09-25T14:02:05.435Z","type":"session_meta","payload":{"id":"0199"}}` + "\n"
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"session meta", "rollout-x.jsonl", `{"timestamp":"2025-09-25T14:02:05.435Z","type":"session_meta","payload":{"id":"0199","cwd":"/x"}}`, true},
		{"meta under another name", "session.jsonl", `{"timestamp":"2025-09-25T14:02:05.435Z","type":"session_meta","payload":{"id":"0199"}}`, true},
		{"meta cut short", "rollout-x.jsonl", `{"timestamp":"2025-09-25T14:02:05.435Z","type":"session_meta","payload":{"id":"0199","instructions":"long`, true},
		{"no header", "rollout-x.jsonl", `{"timestamp":"2025-10-21T08:00:01Z","type":"turn_context","payload":{"model":"gpt-5"}}`, true},
		{"keys reordered", "x.jsonl", `{"type":"event_msg","payload":{"type":"user_message"},"timestamp":"t"}`, true},
		{"legacy header", "rollout-2025-05-07T17-24-21-5973b6c0.jsonl", `{"id":"5973b6c0","timestamp":"2025-05-07T17:24:21.123Z","instructions":null}`, true},
		{"legacy header, other name", "5973b6c0.jsonl", `{"id":"5973b6c0","timestamp":"2025-05-07T17:24:21.123Z","instructions":null}`, false},
		{"saved as .json", "rollout-x.json", `{"timestamp":"t","type":"session_meta","payload":{}}`, true},
		{"saved as .txt", "a.txt", `{"timestamp":"t","type":"response_item","payload":{}}`, true},
		{"legacy header as .json", "rollout-x.json", `{"id":"5973b6c0","timestamp":"2025-05-07T17:24:21.123Z","instructions":null}`, false},
		{"quoted in notes", "notes.md", "# notes\n" + `{"timestamp":"t","type":"session_meta","payload":{}}`, false},
		{"claude code", "x.jsonl", `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u","timestamp":"t"}`, false},
		{"claude summary", "x.jsonl", `{"type":"summary","summary":"x","leafUuid":"u"}`, false},
		{"personalagent", "x.jsonl", `{"role":"user","content":"hi","ts":"2025-01-21T19:30:00Z"}`, false},
		{"no payload", "x.jsonl", `{"timestamp":"t","type":"event_msg"}`, false},
		{"other type", "x.jsonl", `{"timestamp":"t","type":"message","payload":{}}`, false},
		{"empty", "x.jsonl", ``, false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"NUL-prefixed head", "rollout-x.jsonl", strings.Repeat("\x00", 1000) + "\n" + meta, true},
		{"NULs glued to the record", "x.jsonl", strings.Repeat("\x00", 1000) + meta, true},
		{"garbage first line", "x.jsonl", "garbage\n" + meta, true},
		{"torn first record", "x.jsonl", `{"timestamp":"t","type":` + "\n" + meta, true},
		{"garbage then legacy header", "rollout-2025-05-07T17-24-21-5973b6c0.jsonl", "garbage\n" + `{"id":"5973b6c0","timestamp":"t","instructions":null}`, true},
		{"garbage then claude code", "x.jsonl", "garbage\n" + `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u","timestamp":"t"}`, false},
		{"NULs then personalagent", "x.jsonl", strings.Repeat("\x00", 100) + "\n" + `{"role":"user","content":"hi","ts":"t"}`, false},
		{"only NULs", "rollout-x.jsonl", strings.Repeat("\x00", 4096), false},
		{"only garbage", "rollout-x.jsonl", "garbage\n", false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestLeadingDamage: a rollout that a crash left with NUL bytes, a torn or
// a garbage line before its records is claimed and read whole, and the
// damage is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	for _, file := range []string{quirks, legacy, noMeta} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			parsertest.CheckLeadingDamage(t, New(), "/s/"+filepath.Base(file), parsertest.ReadFile(t, file))
		})
	}
}

// TestDetectTree runs Detect over every real file and example of every
// family: only Codex's own may be claimed.
func TestDetectTree(t *testing.T) {
	claimed := parsertest.DetectTree(t, New(), func(path string) bool {
		slash := filepath.ToSlash(path)
		return strings.Contains(slash, "/codex/") ||
			(strings.HasPrefix(slash, "testdata/") && !strings.Contains(slash, "golden/") && !strings.Contains(slash, "fuzz/"))
	}, "../../testdata/corpus", "../../examples", "testdata")
	if claimed < len(cases) {
		t.Errorf("claimed %d files, want at least %d", claimed, len(cases))
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "rollout-2025-10-14T10-00-00-0199e2a4-5b3c-7d8e-9f01-23456789abcd.jsonl",
		quirks, legacy, noMeta, newer, example)
}

func TestNewerShapes(t *testing.T) {
	c := parsertest.ParseOne(t, New(), newer)
	m := c.Messages
	if r := m[2].ToolResults; len(r) != 1 || r[0].Content != "Issue #12: refill cap ignores long idle periods\nStatus: open" || r[0].IsError {
		t.Errorf("content_items output: %+v", r)
	}
	if r := m[4].ToolResults; len(r) != 1 || r[0].Content != "exit_code: 0\nstdout: === RUN   TestBurst\n--- PASS: TestBurst (0.00s)\nok  \tlimiter\t0.012s" {
		t.Errorf("output object of another shape: %+v", r)
	}
	img := m[5]
	if len(img.ToolCalls) != 1 || img.ToolCalls[0].Name != "image_generation" || img.ToolCalls[0].ID != "ig_0a1b2c" ||
		!strings.Contains(img.ToolCalls[0].Arguments, "token bucket") ||
		len(img.Attachments) != 1 || img.Attachments[0] != (conversation.Attachment{Type: "image/png", Size: 520}) {
		t.Errorf("image generation: %+v", img)
	}
	if a := m[6]; a.Role != conversation.RoleAssistant || !strings.HasPrefix(a.Content, "The test passes") {
		t.Errorf("agent_message item: %+v", a)
	}
}

func TestRolloutID(t *testing.T) {
	tests := []struct {
		base, want string
		ok         bool
	}{
		{"rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36e.jsonl", "0199812e-64f0-7f73-91fc-095dda01c36e", true},
		{"rollout-2025-09-25T08-02-05-0199812E-64F0-7F73-91FC-095DDA01C36E.jsonl", "0199812e-64f0-7f73-91fc-095dda01c36e", true},
		{"0199812e-64f0-7f73-91fc-095dda01c36e.jsonl", "0199812e-64f0-7f73-91fc-095dda01c36e", true},
		{"rollout-2025-09-25T08-02-05-0199812e64f07f7391fc095dda01c36e.jsonl", "", false}, // no hyphens
		{"rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36g.jsonl", "", false},
		{"rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36e.json", "", false},
		{"rollout-x.jsonl", "", false},
	}
	for _, tt := range tests {
		if got, ok := rolloutID(tt.base); got != tt.want || ok != tt.ok {
			t.Errorf("rolloutID(%q) = %q, %v; want %q, %v", tt.base, got, ok, tt.want, tt.ok)
		}
	}
}
