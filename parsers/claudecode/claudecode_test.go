package claudecode

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

const corpus = "../../testdata/corpus/claude-code/"

const example = "../../examples/claude-code/projects/-home-maya-src-cachesvc/3f6b2c1e-8d4a-4f7b-9c2e-5a1d0e7f9b34.jsonl"

// The counts and roles below were derived from the files, not from the
// parser, with this script (one message per user or system line and per
// distinct assistant message.id; a user line holding only tool_result
// blocks is a tool message; malformed lines skipped, and a record skipped
// when one with the same uuid, type and content came before):
//
//	python3 -c '
//	import json,sys
//	for f in sys.argv[1:]:
//	  ids=set(); seen=set(); r=""
//	  for l in open(f):
//	    try: o=json.loads(l)
//	    except ValueError: continue
//	    u=o.get("uuid"); t=o.get("type"); m=o.get("message"); c=(m or {}).get("content")
//	    k=(u,t,json.dumps(m,sort_keys=True),json.dumps(o.get("content")),o.get("subtype"),json.dumps(o.get("error")),o.get("isSidechain"))
//	    if u and k in seen: continue
//	    if u: seen.add(k)
//	    if t=="assistant":
//	      i=o["message"].get("id")
//	      if i in ids: continue
//	      ids.add(i); r+="a"
//	    elif t=="user": r+="t" if isinstance(c,list) and c and all(b.get("type")=="tool_result" for b in c) else "u"
//	    elif t=="system": r+="s"
//	  print(f,len(r),r)' FILES
//
// Titles: the last summary line whose leafUuid is the uuid of a record of
// the file (summaries of other sessions do not count),
//
//	jq -rs '[.[].uuid] as $u | .[] | select(.type=="summary" and (.leafUuid as $l | $u | index($l))).summary' FILE | tail -1
//
// or the first paragraph of the first prompt a person typed (not isMeta, not
// an echo of Claude Code's own, a slash command with arguments read as
// "/name args"; not a sub-agent's prompt unless every message is one),
// whitespace collapsed, cut to 80 runes at the last space past the middle,
// with "…" appended.
var cases = []parsertest.Case{
	{
		File: corpus + "tiny-conversation.jsonl",
		Want: []parsertest.Want{{
			ID:       "67a8478e-78dc-44ab-82ea-f65c8ead85f6",
			Title:    `Lately, I've noticed you being very tentative. "I've identified a clear…`,
			Messages: 6,
			Roles:    "uauata",
		}},
	},
	{
		File: corpus + "short-conversation.jsonl",
		Want: []parsertest.Want{{
			// Its one summary line names a leaf in another session.
			ID:       "982581eb-41b9-46da-86c1-ac34168117a8",
			Title:    "Summarize this part of a conversation in 2-3 sentences. What happened, what was…",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		// Holds only file-history snapshots and a summary: no conversation.
		File: corpus + "medium-conversation.jsonl",
	},
	{
		File: corpus + "large-conversation.jsonl",
		Want: []parsertest.Want{{
			ID:       "0fae0449-64d3-4788-8622-d3a47d82c14b",
			Title:    "I see four uncommitted files?", // both summary lines are of other sessions
			Messages: 350,
			Roles: "atatatatatatatatatatatatatatatauatatauatatatatatatatatatatatatatauatatatatatatatauatatatauatatauauatatatatatatuauatatata" +
				"tatatatatatatatatatauatatatatatatatatatatatatauuuuatatatatatatatatataatatatatatatautatatataattataatatatuuatauatuuatataua" +
				"tatatatatatauatatatatauatatatatatatatatuuatatatatatatatatatatatatatuuatatatatatatauatatatatatatatatatatatatata",
		}},
	},
	{
		File: corpus + "long-conversation.jsonl",
		Want: []parsertest.Want{{
			ID:       "9a9eadc8-c1f1-493e-a0f1-884aa996b05b",
			Title:    "please read the research and the resources directories. then talk to me about…",
			Messages: 190,
			Roles: "uatttattuauatauauauatauatatauatattatsssssatatttatatattauatatatttattattatattatauatatattttatttatttatattauatatattttatata" +
				"tatatttatatattttatttatatattatatttatttattatauauattttatatauattatauattauatta",
		}},
	},
	{
		// Title from the summary whose leafUuid is in the file; one
		// malformed line (14) is a warning.
		File: "testdata/quirks.jsonl",
		Want: []parsertest.Want{{
			ID:       "5d1c7a52-3f0e-4c8e-9a61-2b7f0d4e8c11",
			Title:    "Token bucket rate limiter: burst handling",
			Messages: 18,
			Roles:    "uuuuautsatuaauusua",
		}},
		Warnings: 1,
	},
	{
		File: "testdata/renamed.jsonl",
		Want: []parsertest.Want{{
			ID:       "5d1c7a52-3f0e-4c8e-9a61-2b7f0d4e8c11",
			Title:    "limiter: token vs IP key",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{
		File: "testdata/agent-a1b2c3d4.jsonl",
		Want: []parsertest.Want{{
			ID:       "5d1c7a52-3f0e-4c8e-9a61-2b7f0d4e8c11/agent-a1b2c3d4",
			Title:    "Find every caller of refill() in the repository and report file and line.",
			Messages: 4,
			Roles:    "uata",
		}},
	},
	{
		// Summaries of two other sessions; /clear without arguments
		// hidden, /review with arguments the title; a reply written twice
		// read once; two different prompts under one uuid both kept.
		File: "testdata/slash-command.jsonl",
		Want: []parsertest.Want{{
			ID:       "7c1e0b9a-2d4f-4a8e-b6c3-1f2e3d4c5b6a",
			Title:    "/review the limiter change in bucket.go, especially the refill cap",
			Messages: 9,
			Roles:    "uuuuuauua",
		}},
	},
	{
		// The only visible prompt is a sub-agent's: the title is the
		// first visible message of the main thread.
		File: "testdata/sidechain-first.jsonl",
		Want: []parsertest.Want{{
			ID:       "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
			Title:    "I'll survey the repository first.",
			Messages: 7,
			Roles:    "uuauata",
		}},
	},
	{
		File: example,
		Want: []parsertest.Want{{
			ID:       "3f6b2c1e-8d4a-4f7b-9c2e-5a1d0e7f9b34",
			Title:    "Sharded LRU replaces single-mutex session cache",
			Messages: 14,
			Roles:    "uatatauatataua",
		}},
	},
}

func TestCorpus(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func parseString(t *testing.T, path, data string) (*parsers.Result, error) {
	t.Helper()
	return New().Parse(context.Background(), path, strings.NewReader(data))
}

func TestQuirks(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/quirks.jsonl")
	m := c.Messages

	if c.Project != "ratelimit" {
		t.Errorf("project %q, want ratelimit (the repository a .worktrees checkout belongs to)", c.Project)
	}
	if c.Model != "claude-opus-4-1-20250805" {
		t.Errorf("model %q", c.Model)
	}
	wantTags := []string{"cwd:/home/dev/src/ratelimit/.worktrees/token-bucket", "branch:token-bucket"}
	if strings.Join(c.Tags, "|") != strings.Join(wantTags, "|") {
		t.Errorf("tags %q, want %q", c.Tags, wantTags)
	}
	if got := c.Date.Format("2006-01-02T15:04:05.000Z"); got != "2025-10-02T09:00:00.500Z" {
		t.Errorf("date %s", got)
	}
	if got := c.Updated.Format("2006-01-02T15:04:05.000Z"); got != "2025-10-02T09:05:02.000Z" {
		t.Errorf("updated %s", got)
	}
	wantSummaries := []string{
		"Token bucket rate limiter: burst handling",
		"This session is being continued from a previous conversation that ran out of context. Summary: the refill cap was added and the burst test passes.",
	}
	if strings.Join(c.Summaries, "|") != strings.Join(wantSummaries, "|") {
		t.Errorf("summaries %q", c.Summaries)
	}
	if len(c.Notes) != 1 || c.Notes[0].Kind != "file_change" || c.Notes[0].Text != "limiter/bucket.go\nlimiter/bucket_test.go" {
		t.Errorf("notes %+v", c.Notes)
	}

	hidden := map[int]bool{0: true, 1: true, 2: true, 7: true, 13: true, 15: true, 16: true}
	for i, msg := range m {
		if msg.Hidden != hidden[i] {
			t.Errorf("message %d (%s %.40q): hidden %v, want %v", i, msg.Role, msg.Content, msg.Hidden, hidden[i])
		}
	}

	// The reply split over lines 8, 9 and 11 is one message, with the
	// user's line 10 after it.
	a := m[4]
	if a.ID != "u-a1-part0" || a.Content != "Let me read the refill code." || len(a.ToolCalls) != 1 ||
		a.ToolCalls[0].Name != "Read" || !strings.Contains(a.Thinking, "without capping") {
		t.Errorf("split reply: %+v", a)
	}
	if strings.Contains(a.Thinking, "EqQBCkYIBxgCKkA") {
		t.Error("thinking signature kept")
	}
	if m[5].Content != "it's in limiter/bucket.go" || m[5].ParentID != "u-a1-part0" {
		t.Errorf("interleaved prompt: %+v", m[5])
	}
	// The tool result's parent was a progress record, itself a child of the
	// reply's last line: both resolve to the reply.
	if r := m[6]; r.Role != conversation.RoleTool || r.ParentID != "u-a1-part0" ||
		len(r.ToolResults) != 1 || r.ToolResults[0].Name != "Read" || r.ToolResults[0].CallID != "toolu_read1" ||
		!strings.Contains(r.ToolResults[0].Content, "b.tokens += now.Sub") || r.Content != "" {
		t.Errorf("tool result: %+v", r)
	}
	if s := m[7]; s.Role != conversation.RoleSystem || s.Content != `api_error: {"status":529}` {
		t.Errorf("system record: %+v", s)
	}
	if a := m[8]; len(a.ToolCalls) != 1 || a.ToolCalls[0].Arguments != `{"command":"go test ./limiter -run TestBurstAfterIdle","description":"Run the burst test"}` {
		t.Errorf("bash call: %+v", a.ToolCalls)
	}
	if r := m[9]; !r.ToolResults[0].IsError || r.ToolResults[0].Name != "Bash" ||
		len(r.Attachments) != 1 || r.Attachments[0].Type != "image/jpeg" || r.Attachments[0].Size != 600 {
		t.Errorf("failed tool result: %+v", r)
	}
	if u := m[3]; len(u.Attachments) != 1 || u.Attachments[0].Type != "image/png" || u.Attachments[0].Size != 2048 {
		t.Errorf("image attachment: %+v", u.Attachments)
	}
	if !m[10].Sidechain || !m[11].Sidechain || m[11].Model != "claude-haiku-4-5-20251001" || m[12].Sidechain {
		t.Errorf("sidechain flags: %v %v %v", m[10].Sidechain, m[11].Sidechain, m[12].Sidechain)
	}
	if !strings.HasPrefix(m[12].Content, "Decision: cap tokens") {
		t.Errorf("string content: %q", m[12].Content)
	}
	if d := m[14]; d.Content != "Also check the 429 handling against this RFC." || len(d.Attachments) != 1 ||
		d.Attachments[0] != (conversation.Attachment{Name: "RFC 6585.pdf", Type: "application/pdf", Size: 900}) {
		t.Errorf("document: %+v", d)
	}
	if s := m[15]; s.Content != "Conversation compacted" {
		t.Errorf("compact boundary: %+v", s)
	}
	if last := m[17]; last.Model != "" || last.Content != "API Error: 529 Overloaded" {
		t.Errorf("synthetic reply: %+v", last)
	}
}

func TestSlashCommand(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/slash-command.jsonl")
	if len(c.Summaries) != 0 {
		t.Errorf("summaries %q: those of other sessions are not this one's", c.Summaries)
	}
	hidden := map[int]bool{0: true, 1: true, 2: true, 4: true}
	for i, m := range c.Messages {
		if m.Hidden != hidden[i] {
			t.Errorf("message %d (%.40q): hidden %v, want %v", i, m.Content, m.Hidden, hidden[i])
		}
	}
	if m := c.Messages[3]; m.Role != conversation.RoleUser || m.Content != "/review the limiter change in bucket.go,\nespecially the refill cap" {
		t.Errorf("slash command: %s %q", m.Role, m.Content)
	}
	if a, b := c.Messages[6], c.Messages[7]; a.ID != "c-7" || b.ID != "c-7" || a.Content != "ok, add that test" || b.Content != "and name it TestBurstAfterLongIdle" {
		t.Errorf("records sharing a uuid: %q %q", a.Content, b.Content)
	}

	side := parsertest.ParseOne(t, New(), "testdata/sidechain-first.jsonl")
	if m := side.Messages[3]; !m.Sidechain || m.Hidden || m.Role != conversation.RoleUser {
		t.Errorf("sub-agent prompt: %+v", m)
	}
}

func TestSlashCommandText(t *testing.T) {
	tests := []struct{ text, want string }{
		{"<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>pr 12</command-args>", "/review pr 12"},
		{"<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>a <T> generic\nacross files</command-args>", "/review a <T> generic\nacross files"},
		{"<command-name>deploy</command-name><command-args>staging</command-args>", "/deploy staging"},
		{"<command-name>/clear</command-name><command-message>clear</command-message><command-args></command-args>", ""},
		{"<command-name>/init</command-name>", ""},
		{"<command-args>x</command-args>", ""},
		{"<command-name>/x</command-name><command-args>y</command-args> and more", ""},
		{"<command-name>/x</command-name><local-command-stdout>y</local-command-stdout>", ""},
		{"<command-name>/x</command-name><command-args>cut", ""},
		{"plain prompt", ""},
	}
	for _, tt := range tests {
		got, ok := slashCommand(tt.text)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("slashCommand(%q) = %q, %v; want %q", tt.text, got, ok, tt.want)
		}
	}
}

func TestWarningNamesLine(t *testing.T) {
	res, err := parseString(t, "s.jsonl", `{"type":"user","sessionId":"s","uuid":"1","message":{"role":"user","content":"hi"}}
{"type":"assistant","message":
{"type":"assistant","sessionId":"s","uuid":"2","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hello"}]}}
[1,2]
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 2 {
		t.Fatalf("warnings %v, want 2", res.Warnings)
	}
	for i, want := range []string{"s.jsonl:2: ", "s.jsonl:4: "} {
		if !strings.HasPrefix(res.Warnings[i].Error(), want) {
			t.Errorf("warning %q, want prefix %q", res.Warnings[i], want)
		}
	}
	if !errors.Is(res.Warnings[0], parsers.ErrSyntax) || !errors.Is(res.Warnings[1], parsers.ErrShape) {
		t.Errorf("warning kinds: %v", res.Warnings)
	}
	if got := parsertest.RoleLetters(res.Conversations[0].Messages); got != "ua" {
		t.Errorf("roles %q", got)
	}
}

// TestLeadingDamage: a session that a crash left with NUL bytes or a garbage
// line before its records is read, and the damage is a warning naming the
// line.
func TestLeadingDamage(t *testing.T) {
	const records = `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"1","message":{"role":"user","content":"hi"}}
{"parentUuid":"1","sessionId":"s","type":"assistant","uuid":"2","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hello"}]}}
`
	nuls := strings.Repeat("\x00", 4096)
	tests := []struct{ name, data, warn string }{
		{"NUL line", nuls + "\n" + records, "s.jsonl:1: "},
		{"NULs glued to the first record", nuls + records, "s.jsonl:1: "},
		{"garbage first line", "garbage\n" + records, "s.jsonl:1: "},
		{"NULs then garbage", nuls + "\ngarbage\n" + records, "s.jsonl:1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := parseString(t, "/p/s.jsonl", tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conversations) != 1 {
				t.Fatalf("%d conversations, want 1", len(res.Conversations))
			}
			if got := parsertest.RoleLetters(res.Conversations[0].Messages); got != "ua" {
				t.Errorf("roles %q, want ua", got)
			}
			if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Error(), tt.warn) {
				t.Errorf("warnings %v, want one naming %q", res.Warnings, tt.warn)
			}
		})
	}
}

// TestLeadingDamageFiles: real sessions behind the same damage are read as
// the clean files are, as every JSON Lines family checks.
func TestLeadingDamageFiles(t *testing.T) {
	for _, file := range []string{corpus + "short-conversation.jsonl", example} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			parsertest.CheckLeadingDamage(t, New(), "/p/"+filepath.Base(file), parsertest.ReadFile(t, file))
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, data string
		kind       error // nil: no error, no conversation
		line       int
	}{
		{"empty", "", nil, 0},
		{"blank lines", "\n  \n", nil, 0},
		{"only a summary", `{"type":"summary","summary":"s","leafUuid":"x"}` + "\n", nil, 0},
		{"cut short", `{"parentUuid":null,"sessionId":"s","type":"us`, parsers.ErrSyntax, 1},
		{"not json", "hello\nworld\n", parsers.ErrSyntax, 1},
		{"other format", `{"role":"user","content":"What is Rust?","ts":"2025-01-21T19:30:00Z"}` + "\n", parsers.ErrShape, 0},
		{"codex", `{"timestamp":"2025-10-14T10:00:00Z","type":"session_meta","payload":{"id":"x"}}` + "\n", parsers.ErrShape, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := parseString(t, "/x/s.jsonl", tt.data)
			if tt.kind == nil {
				if err != nil || len(res.Conversations) != 0 {
					t.Fatalf("got %v, %v; want no conversation and no error", res, err)
				}
				return
			}
			parsertest.CheckError(t, err, "/x/s.jsonl", tt.line, tt.kind)
		})
	}
}

func TestCancelled(t *testing.T) {
	line := `{"type":"user","sessionId":"s","message":{"role":"user","content":"hi"}}` + "\n"
	parsertest.CheckCancel(t, New(), "s.jsonl", []byte(strings.Repeat(line, 1000)))
}

func TestProject(t *testing.T) {
	tests := []struct{ cwd, want string }{
		{"/Users/a/src/convsearch", "convsearch"},
		{"/Users/a/src/convsearch/", "convsearch"},
		{"/Users/a/src/example-project/.worktrees/streaming", "example-project"},
		{`C:\Users\a\src\tool`, "tool"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := project(tt.cwd); got != tt.want {
			t.Errorf("project(%q) = %q, want %q", tt.cwd, got, tt.want)
		}
	}
}

func TestDefaultRoots(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := New().DefaultRoots("/home/u", getenv); len(got) != 1 || got[0] != "/home/u/.claude/projects" {
		t.Errorf("default roots %q", got)
	}
	env["CLAUDE_CONFIG_DIR"] = "/etc/claude"
	if got := New().DefaultRoots("/home/u", getenv); len(got) != 1 || got[0] != "/etc/claude/projects" {
		t.Errorf("roots with CLAUDE_CONFIG_DIR %q", got)
	}
}

func TestDetect(t *testing.T) {
	const userRec = `{"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","uuid":"u"}` + "\n"
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"user record", "a.jsonl", `{"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","uuid":"u"}`, true},
		{"assistant record cut short", "a.jsonl", `{"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"/x","sessionId":"s","version":"1","message":{"id":"m","content":[{"type":"text","text":"lo`, true},
		{"summary", "a.jsonl", `{"type":"summary","summary":"x","leafUuid":"u"}` + "\n{}", true},
		{"snapshot", "a.jsonl", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`, true},
		{"custom title", "a.jsonl", `{"type":"custom-title","customTitle":"t","sessionId":"s"}`, true},
		{"queue operation", "a.jsonl", `{"type":"queue-operation","operation":"enqueue","timestamp":"t","sessionId":"s"}`, true},
		{"pretty spacing", "a.jsonl", `{"type": "summary", "summary": "x", "leafUuid": "u"}`, true},
		{"leading blank line", "a.jsonl", "\n" + `{"type":"summary","summary":"x","leafUuid":"u"}`, true},
		// Under another name the content decides, from the first line only.
		{"saved as .json", "a.json", `{"type":"summary","summary":"x","leafUuid":"u"}`, true},
		{"no extension", "a", `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u"}`, true},
		{"quoted in notes", "notes.md", "# notes\n" + `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u"}`, false},
		{"damage under another name", "a.txt", "garbage\n" + `{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u"}`, false},
		{"codex", "rollout-x.jsonl", `{"timestamp":"2025-09-25T14:02:05.435Z","type":"session_meta","payload":{"id":"0199","cwd":"/x"}}`, false},
		{"codex event", "rollout-x.jsonl", `{"timestamp":"2025-09-25T14:02:05.435Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}`, false},
		{"personalagent", "20250121193000001.jsonl", `{"role":"user","content":"What is Rust?","ts":"2025-01-21T19:30:00Z"}`, false},
		{"summary without leaf", "a.jsonl", `{"type":"summary","summary":"x"}`, false},
		{"uuid only", "a.jsonl", `{"uuid":"u","type":"user"}`, false},
		{"array", "a.jsonl", `[{"sessionId":"s","uuid":"u"}]`, false},
		{"empty", "a.jsonl", "", false},
		{"qwen code user record", "a.jsonl", `{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`, false},
		{"qwen code system record", "a.jsonl", `{"uuid":"u","parentUuid":"p","sessionId":"s","type":"system","subtype":"chat_compression","systemPayload":{}}`, false},
		{"key in a later line only", "a.jsonl", `{"role":"user"}` + "\n" + `{"sessionId":"s","uuid":"u"}`, false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"NUL-prefixed head", "a.jsonl", strings.Repeat("\x00", 1000) + "\n" + userRec, true},
		{"NULs glued to the record", "a.jsonl", strings.Repeat("\x00", 1000) + userRec, true},
		{"garbage first line", "a.jsonl", "garbage\n" + userRec, true},
		{"torn first record", "a.jsonl", `{"parentUuid":null,"sessionId":"s",` + "\n" + userRec, true},
		{"garbage then codex", "rollout-x.jsonl", "garbage\n" + `{"timestamp":"t","type":"session_meta","payload":{"id":"0199"}}`, false},
		{"NULs then qwen code", "a.jsonl", strings.Repeat("\x00", 100) + "\n" + `{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`, false},
		{"garbage then personalagent", "1.jsonl", "garbage\n" + `{"role":"user","content":"hi","ts":"t"}`, false},
		{"garbage then other record", "a.jsonl", "garbage\n" + `{"role":"user"}` + "\n" + userRec, false},
		// A head of damage only leaves nothing to judge: the place decides.
		{"all NULs in projects", "/h/.claude/projects/-x/s.jsonl", strings.Repeat("\x00", 4096), true},
		{"all NULs in a subagent log", "/h/.claude/projects/-x/s/subagents/agent-a.jsonl", strings.Repeat("\x00", 4096), true},
		{"all garbage in projects", "/h/.claude/projects/-x/s.jsonl", "garbage\n", true},
		{"all NULs elsewhere", "/h/.qwen/projects/-x/chats/s.jsonl", strings.Repeat("\x00", 4096), false},
		{"all NULs directly in projects", "/h/.claude/projects/s.jsonl", strings.Repeat("\x00", 4096), false},
		{"empty in projects", "/h/.claude/projects/-x/s.jsonl", "", false},
		{"other format in projects", "/h/.claude/projects/-x/s.jsonl", `{"role":"user","content":"hi"}`, false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectTree runs Detect over every real file and example of every
// family: only Claude Code's own may be claimed.
func TestDetectTree(t *testing.T) {
	claimed := parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(filepath.ToSlash(path), "/claude-code/") ||
			(strings.HasPrefix(path, "testdata") && !strings.Contains(path, "golden") && !strings.Contains(path, "fuzz"))
	}, "../../testdata/corpus", "../../examples", "testdata", "../gemini/testdata/qwen") // Qwen's records look alike
	if claimed < len(cases) {
		t.Errorf("claimed %d files, want at least %d", claimed, len(cases))
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "3f6b2c1e-8d4a-4f7b-9c2e-5a1d0e7f9b34.jsonl",
		"testdata/quirks.jsonl", "testdata/renamed.jsonl", "testdata/agent-a1b2c3d4.jsonl",
		"testdata/slash-command.jsonl", "testdata/sidechain-first.jsonl",
		corpus+"tiny-conversation.jsonl", corpus+"short-conversation.jsonl")
}
