package qcli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const stripped = "[content stripped — counts only]"

func TestSuite(t *testing.T) {
	parsertest.Run(t, New(), []parsertest.Case{
		// Real Kiro CLI files: one Prompt turn answered by a ToolUse, its
		// results in the next turn answered by a Response.
		{File: "../../testdata/corpus/kiro-cli/conversation-graphify.json", Want: []parsertest.Want{{ID: "aaaaaaaa-0000-4000-8000-000000000001", Title: stripped, Messages: 4, Roles: "uata"}}},
		{File: "../../testdata/corpus/kiro-cli/conversation-truncated.json", Want: []parsertest.Want{{ID: "aaaaaaaa-0000-4000-8000-000000000002", Title: stripped, Messages: 4, Roles: "uata"}}},
		// The tool use was never answered: no results turn.
		{File: "../../testdata/corpus/kiro-cli/conversation-no-result.json", Want: []parsertest.Want{{ID: "aaaaaaaa-0000-4000-8000-000000000003", Title: stripped, Messages: 2, Roles: "ua"}}},
		// Two tool uses in one turn, both results in one tool message.
		{File: "../../testdata/corpus/kiro-cli/conversation-negative.json", Want: []parsertest.Want{{ID: "aaaaaaaa-0000-4000-8000-000000000004", Title: stripped, Messages: 4, Roles: "uata"}}},
		// An fs_read whose result is a Text block.
		{File: "../../testdata/corpus/kiro-cli/conversation-report-read.json", Want: []parsertest.Want{{ID: "aaaaaaaa-0000-4000-8000-000000000005", Title: stripped, Messages: 4, Roles: "uata"}}},
		// Older Q CLI: entries as [user, assistant] pairs, legacy model
		// field, latest_summary as plain text, a cancelled tool use with the
		// prompt typed instead.
		{File: "testdata/legacy-pairs.json", Want: []parsertest.Want{{
			ID:       "b7c1e2d4-5f60-4a8b-9c1d-2e3f4a5b6c7d",
			Title:    "Our Postgres connection pool keeps hitting max_connections during deploys. How…",
			Messages: 9, Roles: "uatauatua",
		}}},
		// Current shape with everything optional and some damage: hook
		// context, an image, thinking, string args, an error result, a
		// number as an entry, unknown variants, a tangent, next_message.
		{File: "testdata/quirks.json", Warnings: 3, Want: []parsertest.Want{{
			ID:       "6a1b2c3d-4e5f-4071-8293-a4b5c6d7e8f9",
			Title:    "Why does the CSV export in this screenshot show garbled umlauts?",
			Messages: 12, Roles: "suauatauauau",
		}}},
		// After /compact: the first entry's prompt is the JSON of earlier
		// tool results (hidden); the title comes from the transcript's first
		// "> " line, or without a transcript from the summary's Objective.
		// Counts and titles from
		//	python3 -c 'import json,sys
		//	for f in sys.argv[1:]:
		//	  d=json.load(open(f)); r=""
		//	  for e in d["history"]:
		//	    u=e["user"]; c=u["content"]
		//	    if u.get("additional_context"): r+="s"
		//	    r+="t" if ("ToolUseResults" in c or "CancelledToolUses" in c) else "u"
		//	    r+="a"
		//	  t=[l[2:].replace("> \n","\n") for l in d["transcript"] if l.startswith("> ")]
		//	  print(f,len(r),r," ".join((t[0] if t else "").split()))' FILES
		{File: "testdata/compacted.json", Want: []parsertest.Want{{
			ID:       "0c0aac7e-0000-4000-8000-000000000001",
			Title:    "Why does the limiter let a burst through after a long idle?",
			Messages: 6, Roles: "uauata",
		}}},
		{File: "testdata/compacted-no-transcript.json", Want: []parsertest.Want{{
			ID:       "0c0aac7e-0000-4000-8000-000000000002",
			Title:    "stop the token bucket from letting a burst through after a long idle period",
			Messages: 6, Roles: "uauata",
		}}},
		{File: "../../examples/qcli/terraform-state-split.json", Want: []parsertest.Want{{
			ID:       "3f9d2b6e-8a41-4c7e-b2d5-6e1a9c0f7b38",
			Title:    "terraform plan in platform-infra wants to destroy and recreate the staging RDS…",
			Messages: 15, Roles: "uatatauauatatua",
		}}},
	})
}

func TestCorpusToolResultsJoined(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "../../testdata/corpus/kiro-cli/conversation-negative.json")
	if c.Project != "gfxrepo" {
		t.Errorf("project %q, want gfxrepo", c.Project)
	}
	if c.Model != "auto" {
		t.Errorf("model %q, want auto", c.Model)
	}
	call := c.Messages[1]
	if len(call.ToolCalls) != 2 || call.ToolCalls[0].ID != "tooluse_D" || call.ToolCalls[1].Name != "execute_bash" {
		t.Fatalf("tool calls %+v", call.ToolCalls)
	}
	if want := `{"command":"grep -rn graphify cage/","working_dir":"/tmp/gfxrepo","summary":"[stripped]"}`; call.ToolCalls[0].Arguments != want {
		t.Errorf("arguments %s, want %s", call.ToolCalls[0].Arguments, want)
	}
	res := c.Messages[2]
	if res.Content != "" || len(res.ToolResults) != 2 {
		t.Fatalf("tool message %+v", res)
	}
	for i, want := range []conversation.ToolResult{
		{CallID: "tooluse_D", Name: "execute_bash", Content: "cage/graphifytx.py:1:x"},
		{CallID: "tooluse_E", Name: "execute_bash", Content: "graphify"},
	} {
		if res.ToolResults[i] != want {
			t.Errorf("result %d = %+v, want %+v", i, res.ToolResults[i], want)
		}
	}
	if res.ParentID != "m-1" {
		t.Errorf("tool message parent %q, want m-1", res.ParentID)
	}
	if !c.Date.IsZero() || !c.Updated.IsZero() {
		t.Errorf("date %v updated %v: the file has no timestamps", c.Date, c.Updated)
	}
}

func TestCompacted(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/compacted.json")
	m := c.Messages
	if !m[0].Hidden || m[0].Role != conversation.RoleUser ||
		m[0].Content != "limiter/bucket.go:57:\tb.refill(now)\nlimiter/bucket.go:74:\tb.refill(now)\nstderr: grep: cmd/: No such file or directory\nexit status: 1" {
		t.Errorf("tool results made a prompt: hidden %v, %q", m[0].Hidden, m[0].Content)
	}
	for i, want := range []string{
		// JSON text inside a Text block: real newlines, so "PASS ok" and
		// "Status: open" are found as phrases.
		"=== RUN   TestBurstAfterLongIdle\n--- PASS: TestBurstAfterLongIdle (0.00s)\nPASS\nok  \tlimiter\t0.012s",
		"content:\n  type: text\n  text: Issue #12: refill cap ignores long idle periods\nStatus: open\nLabels: bug, limiter\nisError: false",
	} {
		if got := m[4].ToolResults[i].Content; got != want {
			t.Errorf("result %d: %q, want %q", i, got, want)
		}
	}
	for _, msg := range m {
		if strings.Contains(msg.Content, `\n`) {
			t.Errorf("message %d keeps a JSON escape: %q", msg.Index, msg.Content)
		}
		for _, r := range msg.ToolResults {
			if strings.Contains(r.Content, `\n`) {
				t.Errorf("result of message %d keeps a JSON escape: %q", msg.Index, r.Content)
			}
		}
	}
}

func TestResultsPrompt(t *testing.T) {
	tests := []struct {
		prompt string
		ok     bool
	}{
		{`{"exit_status":"0","stdout":"x"} {"a":1}`, true},
		{`[{"path":"a"}]`, true},
		{"<tool result redacted>", true},
		{`{"a":1} and then some words`, false},
		{`{"a":1} "a string"`, false},
		{"Why does the limiter let bursts through?", false},
		{"", false},
	}
	for _, tt := range tests {
		if _, ok := resultsPrompt(tt.prompt); ok != tt.ok {
			t.Errorf("resultsPrompt(%q) = %v, want %v", tt.prompt, ok, tt.ok)
		}
	}
}

func TestObjective(t *testing.T) {
	tests := []struct{ summary, want string }{
		{"## CONVERSATION SUMMARY\n* Objective: fix the refill cap\n* Topic 2: x", "fix the refill cap"},
		{"## OBJECTIVE\n\nMigrate the billing DB to Aurora\n\n## PROGRESS\n- done", "Migrate the billing DB to Aurora"},
		{"**Primary Goal:** ship v2", "ship v2"},
		{"## CONVERSATION SUMMARY\n* Topic 1: Postgres pool sizing\n", "Topic 1: Postgres pool sizing"},
		{"plain text summary", "plain text summary"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := objective(tt.summary); got != tt.want {
			t.Errorf("objective(%q) = %q, want %q", tt.summary, got, tt.want)
		}
	}
}

func TestQuirks(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/quirks.json")
	m := c.Messages
	if c.Project != "report-service" {
		t.Errorf("project %q from a Windows cwd, want report-service", c.Project)
	}
	if c.Model != "claude-sonnet-4.5" {
		t.Errorf("model %q", c.Model)
	}
	if !m[0].Hidden || m[0].Role != conversation.RoleSystem || !strings.Contains(m[0].Content, "feature/csv-export") {
		t.Errorf("additional context: %+v, want a hidden system message", m[0])
	}
	if len(m[1].Attachments) != 1 || m[1].Attachments[0] != (conversation.Attachment{Type: "image/png", Size: 12}) {
		t.Errorf("image attachment %+v, want image/png of 12 bytes", m[1].Attachments)
	}
	if m[2].Thinking != "Two bytes per umlaut: UTF-8 read as Latin-1." || m[2].Model != "claude-sonnet-4.5" || m[2].ID != "m-q0" {
		t.Errorf("assistant %+v", m[2])
	}
	if want := time.Date(2025, 10, 9, 8, 53, 29, 0, time.UTC); !m[2].Timestamp.Equal(want) {
		t.Errorf("assistant time %v (stream end), want %v", m[2].Timestamp, want)
	}
	calls := m[4].ToolCalls
	if len(calls) != 2 {
		t.Fatalf("tool calls %+v", calls)
	}
	if calls[0].Arguments != `{"operations":[{"mode":"Line","path":"src/export.py"}]}` {
		t.Errorf("string args not unwrapped: %s", calls[0].Arguments)
	}
	if calls[1].Name != "@sqlite/read_query" || !strings.Contains(calls[1].Arguments, "SELECT id") {
		t.Errorf("orig_name/orig_args fallback: %+v", calls[1])
	}
	rs := m[5].ToolResults
	if len(rs) != 3 {
		t.Fatalf("results %+v", rs)
	}
	if rs[1].Name != "@sqlite/read_query" || !rs[1].IsError || rs[1].Content != "error: no such table: exports" {
		t.Errorf("error result %+v", rs[1])
	}
	if rs[2].Name != "" || rs[2].Content != "plain string block" {
		t.Errorf("result for an unknown call %+v", rs[2])
	}
	if m[7].Role != conversation.RoleUser || !strings.Contains(m[7].Content, "/compact") {
		t.Errorf("unknown user variant not kept as text: %+v", m[7])
	}
	if m[8].Content != "Compacted: CSV export switched to utf-8-sig." {
		t.Errorf("unknown assistant variant: %+v", m[8])
	}
	for i, msg := range m {
		tangent := i == 9 || i == 10
		if (msg.Branch == "tangent") != tangent {
			t.Errorf("message %d branch %q", i, msg.Branch)
		}
	}
	if m[11].Content != "Back to the export: open a PR with the utf-8-sig change." {
		t.Errorf("next_message: %+v", m[11])
	}
	if len(c.Summaries) != 1 || !strings.HasPrefix(c.Summaries[0], "CSV export writes utf-8-sig") {
		t.Errorf("summaries %q", c.Summaries)
	}
	var kinds []string
	for _, n := range c.Notes {
		kinds = append(kinds, n.Kind+":"+n.Text)
	}
	if len(kinds) != 2 || !strings.HasPrefix(kinds[0], "transcript:> Why does") || kinds[1] != "file_change:src/export.py (+3 -1 lines by the agent)" {
		t.Errorf("notes %q", kinds)
	}
	if want := time.Date(2025, 10, 9, 8, 53, 20, 0, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want %v", c.Date, want)
	}
	if want := time.Date(2025, 10, 9, 9, 6, 0, 0, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want %v", c.Updated, want)
	}
}

func TestLegacy(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/legacy-pairs.json")
	if c.Model != "CLAUDE_3_7_SONNET_20250219_V1_0" || c.Project != "billing-api" {
		t.Errorf("model %q project %q", c.Model, c.Project)
	}
	cancelled := c.Messages[6]
	if !cancelled.Cancelled || cancelled.Role != conversation.RoleTool || len(cancelled.ToolResults) != 1 ||
		cancelled.ToolResults[0].Name != "fs_write" || !cancelled.ToolResults[0].IsError {
		t.Errorf("cancelled tool use: %+v", cancelled)
	}
	if p := c.Messages[7]; p.Role != conversation.RoleUser || p.Cancelled || !strings.HasPrefix(p.Content, "Wait, explain PgBouncer") {
		t.Errorf("prompt typed instead: %+v", p)
	}
	if len(c.Summaries) != 1 || len(c.Notes) != 1 || c.Notes[0].Kind != "transcript" {
		t.Errorf("summaries %q notes %+v", c.Summaries, c.Notes)
	}
}

func TestExample(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "../../examples/qcli/terraform-state-split.json")
	if c.Project != "platform-infra" || c.Model != "claude-sonnet-4" {
		t.Errorf("project %q model %q", c.Project, c.Model)
	}
	if !strings.Contains(c.Messages[2].ToolResults[0].Content, "storage_encrypted       = false -> true # forces replacement") {
		t.Errorf("plan output not kept readable: %q", c.Messages[2].ToolResults[0].Content)
	}
	if !strings.Contains(c.Messages[7].Content, "Decision: separate root directories") {
		t.Errorf("decision message %q", c.Messages[7].Content)
	}
	if !c.Messages[12].Cancelled || c.Messages[12].ToolResults[0].Name != "fs_write" {
		t.Errorf("cancelled fs_write: %+v", c.Messages[12])
	}
	if want := time.Date(2025, 3, 12, 9, 14, 3, 512e6, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want %v", c.Date, want)
	}
}

func TestDetect(t *testing.T) {
	p := New()
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"saved.json", `{"conversation_id":"x","next_message":null,"history":[]}`, true},
		{"saved.json", "\ufeff\n {\n \"history\": [],\n \"conversation_id\": \"x\"}", true},
		// history beyond the head: next_message stands in.
		{"saved.json", `{"conversation_id": "x", "next_message": {"content": {"Prompt": {"prompt": "long`, true},
		// Any name: /save writes where the user says.
		{"conversation", `{"conversation_id":"x","history":[`, true},
		{"saved.json", `{"conversation_id":"x","messages":[]}`, false},
		{"saved.json", `{"q_conversation_id":"x","history":[]}`, false},
		{"saved.json", `{"title":"conversation_id","text":"history"}`, false},
		{"saved.json", `[{"conversation_id":"x","history":[]}]`, false},
		{"rollout.jsonl", `{"timestamp":"2025","type":"session_meta","payload":{"conversation_id":"x"}}`, false},
		{"data.sqlite3", "SQLite format 3\x00", false},
		{"empty.json", "", false},
	}
	for _, tt := range tests {
		if got := p.Detect(tt.name, []byte(tt.head)); got != tt.want {
			t.Errorf("Detect(%s, %.40q) = %v, want %v", tt.name, tt.head, got, tt.want)
		}
	}
}

// TestDetectOthers makes sure no file of another family is claimed.
func TestDetectOthers(t *testing.T) {
	parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(path, "kiro-cli") || strings.Contains(path, filepath.Join("examples", "qcli"))
	}, "../../testdata/corpus", "../../examples")
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		kind error
		line int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"cut", "{\n \"conversation_id\": \"x\",\n \"history\": [\n  {\"user\": ", parsers.ErrSyntax, 4},
		{"bad byte", "{\n \"conversation_id\": \"x\",\n \"history\": [}\n", parsers.ErrSyntax, 3},
		{"array", `[{"conversation_id":"x"}]`, parsers.ErrShape, 1},
		{"other object", `{"id":"x","messages":[]}`, parsers.ErrShape, 0},
		{"history not a list", `{"conversation_id":"x","history":"none"}`, parsers.ErrShape, 0},
	}
	for _, tt := range tests {
		path := filepath.Join("some", "dir", tt.name+".json")
		_, err := New().Parse(context.Background(), path, strings.NewReader(tt.data))
		parsertest.CheckError(t, err, path, tt.line, tt.kind)
	}
}

func TestEdgeShapes(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		roles string
		id    string
	}{
		// A conversation saved before the first answer.
		{"only next", `{"conversation_id":"c1","next_message":{"content":{"Prompt":{"prompt":"hi"}}},"history":[]}`, "u", "c1"},
		{"null history", `{"conversation_id":"c2","history":null}`, "", "c2"},
		{"content as text", `{"conversation_id":"c3","history":[{"user":{"content":"plain"},"assistant":{"Response":{"content":"ok"}}}]}`, "ua", "c3"},
		// Pair with metadata third, bare messages as entries.
		{"triple", `{"conversation_id":"c4","history":[[{"content":{"Prompt":{"prompt":"a"}}},{"ToolUse":{"content":"","tool_uses":[{"id":"t","name":"x","args":{}}]}},{"model_id":"m"}],{"content":{"ToolUseResults":{"tool_use_results":[{"tool_use_id":"t","content":[{"Text":"r"}],"status":"Success"}]}}},{"Response":{"content":"done"}}]}`, "uata", "c4"},
		// Cancelled with no prompt and no results: nothing to keep but the answer.
		{"empty cancel", `{"conversation_id":"c5","history":[{"user":{"content":{"CancelledToolUses":{"prompt":null,"tool_use_results":[]}}},"assistant":{"Response":{"content":"ok"}}}]}`, "a", "c5"},
		{"no id", `{"history":[{"user":{"content":{"Prompt":{"prompt":"hello there"}}}}]}`, "u", ""},
		{"nulls everywhere", `{"conversation_id":{},"history":[null,{},[],"text"],"latest_summary":[],"model_info":null,"file_line_tracker":[]}`, "", ""},
	}
	for _, tt := range tests {
		res, err := New().Parse(context.Background(), "x/"+tt.name+".json", strings.NewReader(tt.data))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		c := res.Conversations[0]
		if got := parsertest.RoleLetters(c.Messages); got != tt.roles {
			t.Errorf("%s: roles %q, want %q", tt.name, got, tt.roles)
		}
		if tt.id != "" && c.ID != tt.id {
			t.Errorf("%s: id %q, want %q", tt.name, c.ID, tt.id)
		}
		if c.ID == "" {
			t.Errorf("%s: no id", tt.name)
		}
		if err := parsertest.Invariants(res); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestFallbackIDIgnoresFolder(t *testing.T) {
	data := `{"history":[{"user":{"content":{"Prompt":{"prompt":"hello"}},"timestamp":"2025-01-02T03:04:05Z"}}]}`
	parse := func(path string) *conversation.Conversation {
		res, err := New().Parse(context.Background(), path, strings.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return res.Conversations[0]
	}
	a, b := parse("/one/place/chat.json"), parse("/other/place/chat.json")
	if a.ID != b.ID || !strings.HasPrefix(a.ID, "20250102-") {
		t.Errorf("ids %q and %q: want the same, dated 20250102", a.ID, b.ID)
	}
}

func TestNoBinaryKept(t *testing.T) {
	img := strings.Repeat("137,80,78,71,", 500) + "0"
	data := `{"conversation_id":"c","history":[{"user":{"content":{"Prompt":{"prompt":"see data:image/png;base64,` +
		strings.Repeat("QUJD", 200) + ` here"}},"images":[{"format":"jpeg","source":{"Bytes":[` + img + `]}}]},"assistant":{"Response":{"content":"ok"}}}]}`
	c, _, err := Decode(context.Background(), "x.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	u := c.Messages[0]
	if strings.Contains(u.Content, "QUJD") || !strings.Contains(u.Content, "[image/png data, 600 bytes]") {
		t.Errorf("content %q", u.Content)
	}
	if len(u.Attachments) != 1 || u.Attachments[0].Type != "image/jpeg" || u.Attachments[0].Size != 2001 {
		t.Errorf("attachments %+v", u.Attachments)
	}
}

func TestCancelledContext(t *testing.T) {
	parsertest.CheckCancel(t, New(), "quirks.json", parsertest.ReadFile(t, "testdata/quirks.json"))
}

func TestShorten(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"  short\n text ", 80, "short text"},
		{"abcdefghij", 5, "abcd…"},
		{"one two three four", 12, "one two…"},
		{"ééééééé", 4, "ééé…"},
	}
	for _, tt := range tests {
		if got := Shorten(tt.in, tt.n); got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "conversation.json",
		"../../testdata/corpus/kiro-cli/conversation-negative.json",
		"../../testdata/corpus/kiro-cli/conversation-report-read.json",
		"testdata/legacy-pairs.json",
		"testdata/quirks.json", "testdata/compacted.json",
		"../../examples/qcli/terraform-state-split.json",
	)
}

func TestDecodeLeavesMissingIDEmpty(t *testing.T) {
	c, _, err := Decode(context.Background(), "v", []byte(`{"history":[]}`))
	if err != nil || c.ID != "" {
		t.Errorf("Decode: id %q, err %v; want no id, no error", c.ID, err)
	}
}

// TestTorn cuts real conversation documents at many offsets, as a crash
// while the tool saved them would: the history entries written whole before
// the tear are kept, and of the one it cut the members written whole (a
// prompt whose reply was torn), with a warning.
func TestTorn(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/corpus/kiro-cli/*.json")
	more, _ := filepath.Glob("/work/shared/corpus/kiro-cli/*.json")
	files = append(append(files, more...), "testdata/legacy-pairs.json", "testdata/compacted.json")
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			arrays := parsertest.Arrays(t, data, "history")
			if len(arrays) == 0 {
				t.Fatal("no history")
			}
			a := arrays[0]
			cuts := parsertest.Cuts(data, a)
			for k := range a.Ends {
				// Inside each entry: after its first member, in its last.
				start := entryStart(data, a, k)
				members := entryMembers(t, data[start:a.Ends[k]])
				for _, m := range members {
					cuts = append(cuts, start+m.end, start+m.end+3)
				}
			}
			parsertest.CheckTorn(t, New(), file, data, cuts, wholeParts(t, data, a))
		})
	}
}

// entryStart is where the k-th element of a starts.
func entryStart(data []byte, a parsertest.Array, k int) int {
	p := a.Open + 1
	if k > 0 {
		p = a.Ends[k-1]
	}
	for p < len(data) && strings.ContainsRune(" \t\r\n,", rune(data[p])) {
		p++
	}
	return p
}

// member is a member of a history entry (an object) or an element of one
// (an older version's list): raw is its text ("key": value, or the value),
// end its end within the entry, closed whether its value ends with a
// delimiter of its own (a string, object or list) rather than with the
// next byte (a number or literal).
type member struct {
	raw    string
	end    int
	closed bool
}

// entryMembers returns the members of entry, a history entry's JSON.
func entryMembers(t *testing.T, entry []byte) []member {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(entry))
	open, err := dec.Token()
	if err != nil {
		t.Fatalf("entry %.40q: %v", entry, err)
	}
	var out []member
	for dec.More() {
		begin := int(dec.InputOffset())
		if open == json.Delim('{') {
			if _, err := dec.Token(); err != nil {
				t.Fatal(err)
			}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		end := int(dec.InputOffset())
		raw := strings.TrimLeft(string(entry[begin:end]), " \t\r\n,")
		out = append(out, member{raw: raw, end: end, closed: strings.ContainsRune(`"]}`, rune(v[len(v)-1]))})
	}
	return out
}

// wholeParts is the expect of CheckTorn for qcli: the entries of history a
// that ended before the cut, and of the entry the cut went through the
// members that did (none: the entry is dropped).
func wholeParts(t *testing.T, data []byte, a parsertest.Array) func(cut int) []byte {
	return func(cut int) []byte {
		k, inside := a.Within(cut)
		if !inside || k == len(a.Ends) {
			return a.Whole(data)(cut)
		}
		start := entryStart(data, a, k)
		if cut <= start {
			return a.Whole(data)(cut)
		}
		var kept []string
		for _, m := range entryMembers(t, data[start:a.Ends[k]]) {
			if start+m.end < cut || m.closed && start+m.end == cut {
				kept = append(kept, m.raw)
			}
		}
		if len(kept) == 0 {
			return a.Whole(data)(cut)
		}
		open, close := "{", "}"
		if data[start] == '[' {
			open, close = "[", "]"
		}
		prev := a.Open + 1
		if k > 0 {
			prev = a.Ends[k-1]
		}
		out := append([]byte{}, data[:prev]...)
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, open+strings.Join(kept, ",")+close...)
		return append(out, data[a.Close:]...)
	}
}
