package fnord

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const (
	v1Sorted   = "testdata/home/.fnord/projects/convsearch/conversations/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b.json"
	v0Legacy   = "testdata/projects/blog/conversations/0b9e7c4d-2f1a-4c3b-9d8e-7f6a5b4c3d2e.json"
	v1Odd      = "testdata/3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f.json"
	v1Memory   = "testdata/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.json"
	exampleDir = "../../examples/fnord/projects/telemetry-hub/conversations/"
	exampleV1  = exampleDir + "5b3e8f21-9c47-4d0a-b6e2-7a1f0c9d4e83.json"
	exampleV0  = exampleDir + "e2a47c19-0d5b-4f86-93a1-c8b6d27f5e04.json"
)

func TestSuite(t *testing.T) {
	// No real fnord file is public (testdata/corpus/SOURCES.md): the fixtures
	// cover v0 and v1, every message shape, memory and tasks.
	parsertest.Run(t, New(), []parsertest.Case{
		{
			// v1 with sorted keys: 15 KB of embeddings put "messages" far
			// beyond the head. Responses shapes, a reasoning item with an
			// encrypted payload, task lists of both shapes.
			File: v1Sorted,
			Want: []parsertest.Want{{
				ID:       "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b",
				Title:    "Where does the indexer decide which Bleve document type a conversation gets?",
				Messages: 6, Roles: "suaata",
			}},
		},
		{
			// v0: legacy chat-completions shapes, object arguments, topics
			// as one string, tasks as a bare list.
			File: v0Legacy,
			Want: []parsertest.Want{{
				ID:       "0b9e7c4d-2f1a-4c3b-9d8e-7f6a5b4c3d2e",
				Title:    "Why does the RSS feed show posts out of order?",
				Messages: 6, Roles: "suatta",
			}},
		},
		{
			// version first, a string timestamp, an image part, a bare
			// string item, a null item, an unknown item type, an unknown
			// role, an output without its call, a metadata title.
			File:     v1Odd,
			Want:     []parsertest.Want{{ID: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", Title: "Flame graph comparison", Messages: 6, Roles: "uaaaat"}},
			Warnings: 1,
		},
		{
			// Pretty-printed, messages as {}, memory only.
			File: v1Memory,
			Want: []parsertest.Want{{ID: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", Messages: 0}},
		},
		{
			File: exampleV1,
			Want: []parsertest.Want{{
				ID:       "5b3e8f21-9c47-4d0a-b6e2-7a1f0c9d4e83",
				Title:    "Device GenServers in telemetry-hub crash now and then when a sensor sends…",
				Messages: 13, Roles: "suatatauauata",
			}},
		},
		{
			File: exampleV0,
			Want: []parsertest.Want{{
				ID:       "e2a47c19-0d5b-4f86-93a1-c8b6d27f5e04",
				Title:    "The webhook dispatcher retries failed deliveries with Process.send_after and…",
				Messages: 8, Roles: "suattaua",
			}},
		},
	})
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "0b9e7c4d-2f1a-4c3b-9d8e-7f6a5b4c3d2e.json", v0Legacy, v1Odd, v1Memory, exampleV0)
}

func TestDetect(t *testing.T) {
	const name = "/h/.fnord/projects/p/conversations/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b.json"
	bigMemory := `{"memory":[{"content":"x","embeddings":[` + strings.Repeat("0.012345,", 600)
	tests := []struct {
		name string
		path string
		head string
		want bool
	}{
		{"v0", "x.json", `1699999999:{"memory":[],"messages":[]}`, true},
		{"v0 under a uuid name, cut early", name, `1699999999:{"mem`, true},
		{"v0 without fnord keys or name", "x.json", `1699999999:{"a":1}`, false},
		{"digits colon text", "x.txt", "12:30 meeting notes", false},
		{"v1 sorted, memory huge", name, bigMemory[:parsers.HeadSize], true},
		{"v1 version first", name, `{"version":1,"timestamp":1,"messages":[`, true},
		{"v1 pretty", name, "{\n  \"version\": 1,\n  \"messages\": []", true},
		{"v1 without the name", "conv.json", `{"memory":[],"messages":[{"role":"user","content":"hi"}],"metadata":{},"tasks":{}}`, true},
		{"v1 keys beyond the head, no name", "conv.json", bigMemory[:parsers.HeadSize], false},
		{"uuid name, other tool", name, `{"id":"6f1c","title":"t","created_at":"2025","profile_id":"p","messages":[]}`, false},
		{"uuid name, array", name, `[{"role":"user"}]`, false},
		{"chat export", "conversations.json", `{"title":"t","messages":[],"metadata":{}}`, false},
		{"empty", name, "", false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectOthers runs Detect over every corpus and example file: only
// fnord's own may be claimed.
// TestDetectLeavesCopilotSessions: Copilot's VS Code sessions are
// <uuid>.json too, with a version key; they are not fnord's.
func TestDetectLeavesCopilotSessions(t *testing.T) {
	files, _ := filepath.Glob("../copilot/testdata/vscode/*/chatSessions/*.json")
	if len(files) == 0 {
		t.Fatal("no Copilot session to look at")
	}
	for _, file := range files {
		data := parsertest.ReadFile(t, file)
		if New().Detect(file, data[:min(len(data), parsers.HeadSize)]) {
			t.Errorf("%s: claimed", file)
		}
	}
}

func TestDetectOthers(t *testing.T) {
	if parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(filepath.ToSlash(path), "examples/fnord/")
	}, "../../testdata/corpus", "../../examples") == 0 {
		t.Error("no file of this family under the roots: the test checked nothing")
	}
}

func TestDefaultRoots(t *testing.T) {
	got := New().DefaultRoots("/home/u", os.Getenv)
	if len(got) != 1 || got[0] != "/home/u/.fnord/projects" {
		t.Errorf("DefaultRoots = %v", got)
	}
}

func TestProject(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/home/u/.fnord/projects/convsearch/conversations/a.json", "convsearch"},
		{"projects/blog/conversations/a.json", "blog"},
		{"/tmp/elsewhere/conversations/a.json", ""},
		{"/home/u/.fnord/projects/convsearch/a.json", ""},
		{"a.json", ""},
	}
	for _, tt := range tests {
		if got := project(tt.path); got != tt.want {
			t.Errorf("project(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestV1(t *testing.T) {
	c := parsertest.ParseOne(t, New(), v1Sorted)
	if c.Project != "convsearch" || c.Model != "gpt-5-mini" {
		t.Errorf("project %q model %q", c.Project, c.Model)
	}
	if want := time.Unix(1747000000, 0).UTC(); !c.Date.Equal(want) || !c.Updated.Equal(want) {
		t.Errorf("date %v updated %v, want %v", c.Date, c.Updated, want)
	}
	if !c.Messages[0].Hidden || c.Messages[0].Role != conversation.RoleSystem {
		t.Errorf("developer message: %+v", c.Messages[0])
	}
	if c.Messages[1].Content != "Where does the indexer decide which Bleve document type a conversation gets?" {
		t.Errorf("input_text parts: %q", c.Messages[1].Content)
	}
	if m := c.Messages[2]; m.Thinking != "Look for BleveType implementations in the indexer package." || m.Content != "" {
		t.Errorf("reasoning: %+v", m)
	}
	if got := c.Messages[3].ToolCalls; len(got) != 1 || got[0].ID != "call_a1" || got[0].Name != "file_search_tool" || got[0].Arguments != `{"query":"BleveType","limit":5}` {
		t.Errorf("function_call: %+v", got)
	}
	if got := c.Messages[4].ToolResults; len(got) != 1 || got[0].CallID != "call_a1" || got[0].Name != "file_search_tool" || !strings.Contains(got[0].Content, "indexer/doc.go:14") {
		t.Errorf("function_call_output joined to its call: %+v", got)
	}
	var names []string
	for _, tp := range c.Topics {
		if tp.Origin != conversation.OriginExplicit {
			t.Errorf("topic %q origin %q", tp.Name, tp.Origin)
		}
		names = append(names, tp.Name)
	}
	if got := strings.Join(names, "|"); got != "bleve|index layout|go|testing" {
		t.Errorf("topics = %s", got)
	}
	var kinds []string
	for _, n := range c.Notes {
		kinds = append(kinds, n.Kind+":"+n.Title)
	}
	if got := strings.Join(kinds, "|"); got != "memory:project: Index layout|memory:global: User prefers table-driven tests|task:legacy-list|task:research-1 (done)" {
		t.Errorf("notes = %s", got)
	}
	// Task lists come in file order (sorted keys, as fnord writes them).
	if n := c.Notes[3]; !strings.Contains(n.Text, "Find where document types are chosen") ||
		!strings.Contains(n.Text, "- [done] t1: Search for BleveType → found in indexer/doc.go") ||
		!strings.Contains(n.Text, "- [skipped] t2: Check the mapping's TypeField") {
		t.Errorf("task note: %q", n.Text)
	}
	if !c.Notes[0].Time.Equal(time.Date(2025, 5, 11, 21, 46, 40, 0, time.UTC)) {
		t.Errorf("memory time %v", c.Notes[0].Time)
	}
}

func TestV0(t *testing.T) {
	c := parsertest.ParseOne(t, New(), v0Legacy)
	if want := time.Unix(1699999999, 0).UTC(); !c.Date.Equal(want) {
		t.Errorf("date %v, want the v0 prefix %v", c.Date, want)
	}
	if c.Project != "blog" {
		t.Errorf("project %q", c.Project)
	}
	calls := c.Messages[2].ToolCalls
	if len(calls) != 2 || calls[0].Name != "search_files" || calls[0].Arguments != `{"pattern":"feed.xml"}` ||
		calls[1].ID != "call_x2" || calls[1].Arguments != `{"path":"lib/feed.ex"}` || c.Messages[2].Content != "" {
		t.Errorf("legacy tool_calls: %+v", c.Messages[2])
	}
	if r := c.Messages[4].ToolResults; len(r) != 1 || r[0].Name != "read_file" || r[0].CallID != "call_x2" {
		t.Errorf("tool result named from its call: %+v", r)
	}
	if len(c.Topics) != 3 || c.Topics[1].Name != "dates" {
		t.Errorf("comma topics: %+v", c.Topics)
	}
	if len(c.Notes) != 2 || c.Notes[1].Kind != "task" || c.Notes[1].Text != "- [todo] 1: Fix feed ordering" {
		t.Errorf("bare task list: %+v", c.Notes)
	}
}

func TestOddItems(t *testing.T) {
	c := parsertest.ParseOne(t, New(), v1Odd)
	if m := c.Messages[0]; m.Content != "Compare these two flame graphs" || len(m.Attachments) != 1 ||
		m.Attachments[0].Type != "image/png" || m.Attachments[0].Size == 0 {
		t.Errorf("image part: %+v", m)
	}
	if c.Messages[1].Content != "a bare string item" {
		t.Errorf("string item: %+v", c.Messages[1])
	}
	if !strings.Contains(c.Messages[2].Content, "web_search_call") || !strings.Contains(c.Messages[2].Content, "beam scheduler") {
		t.Errorf("unknown item kept as JSON: %q", c.Messages[2].Content)
	}
	if r := c.Messages[5].ToolResults; len(r) != 1 || r[0].Content != `{"ok":true}` || r[0].Name != "" {
		t.Errorf("orphan output: %+v", r)
	}
	if want := time.Unix(1718000000, 0).UTC(); !c.Date.Equal(want) {
		t.Errorf("string timestamp: %v", c.Date)
	}

	c = parsertest.ParseOne(t, New(), v1Memory)
	if len(c.Notes) != 1 || c.Notes[0].Title != "Deploy window" || c.Title != "" {
		t.Errorf("memory-only file: title %q notes %+v", c.Title, c.Notes)
	}
}

// TestNoEmbeddings checks that embeddings and encrypted reasoning never
// reach the output.
func TestNoEmbeddings(t *testing.T) {
	for _, path := range []string{v1Sorted, v0Legacy, exampleV1, exampleV0} {
		c := parsertest.ParseOne(t, New(), path)
		out, err := parsertest.Canonical([]*conversation.Conversation{c})
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"embeddings", "0.0", "encrypted", "gAAAA"} {
			if bytes.Contains(out, []byte(bad)) {
				t.Errorf("%s: output holds %q", path, bad)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	const path = "x/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b.json"
	tests := []struct {
		name string
		in   string
		kind error
		line int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"v0 bad JSON", "1699999999:{\"messages\":[\n{\"role\":}", parsers.ErrSyntax, 2},
		{"digits without colon", "1699999999", parsers.ErrSyntax, 1},
		{"v1 cut short", "{\n\"version\":1,\n\"messages\":[", parsers.ErrSyntax, 3},
		{"array", `[{"role":"user"}]`, parsers.ErrShape, 1},
		{"other object", `{"title":"x"}`, parsers.ErrShape, 0},
		{"messages not a list", `{"version":1,"messages":"hello"}`, parsers.ErrShape, 0},
		{"text", "hello", parsers.ErrSyntax, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New().Parse(context.Background(), path, strings.NewReader(tt.in))
			parsertest.CheckError(t, err, path, tt.line, tt.kind)
		})
	}

	// Damage inside a readable file is a warning, not an error.
	res, err := New().Parse(context.Background(), path, strings.NewReader(`{"version":1,"messages":[1,{"role":"user","content":"hi"}],"memory":"x","tasks":5}`))
	if err != nil || len(res.Conversations[0].Messages) != 1 || len(res.Warnings) != 3 {
		t.Errorf("damaged parts: err %v, res %+v", err, res)
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w.Error(), path) {
			t.Errorf("warning without the file: %v", w)
		}
	}

	parsertest.CheckCancel(t, New(), path, []byte(`{"version":1,"messages":[{"role":"user","content":"x"}]}`))
}

func TestTasksOrder(t *testing.T) {
	in := `{"version":1,"messages":[],"tasks":{"zeta":[{"id":"z","data":"last key first"}],"alpha":{"description":"d","tasks":[]}}}`
	res, err := New().Parse(context.Background(), "a.json", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	n := res.Conversations[0].Notes
	if len(n) != 2 || n[0].Title != "zeta" || n[1].Title != "alpha" || n[1].Text != "d" {
		t.Errorf("task lists out of file order: %+v", n)
	}
}

func TestPartAttachment(t *testing.T) {
	tests := []struct {
		part string
		want conversation.Attachment
		ok   bool
	}{
		{`{"type":"input_image","image_url":"data:image/jpeg;base64,AAAA"}`, conversation.Attachment{Type: "image/jpeg", Size: 3}, true},
		{`{"type":"input_image","image_url":{"url":"https://example.com/a.png"}}`, conversation.Attachment{Type: "input_image", Ref: "https://example.com/a.png"}, true},
		{`{"type":"input_file","filename":"plan.pdf","file_data":"data:application/pdf;base64,AAAAAAAA"}`, conversation.Attachment{Name: "plan.pdf", Type: "application/pdf", Size: 6}, true},
		{`{"type":"input_file","file_id":"file-123"}`, conversation.Attachment{Type: "input_file", Ref: "file-123"}, true},
		{`{"type":"input_text","text":"hi"}`, conversation.Attachment{}, false},
	}
	for _, tt := range tests {
		got, ok := partAttachment([]byte(tt.part))
		if ok != tt.ok || got != tt.want {
			t.Errorf("partAttachment(%s) = %+v, %v; want %+v, %v", tt.part, got, ok, tt.want, tt.ok)
		}
	}
}
