package personalagent

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const example = "../../examples/personalagent/conversations/20250314092211042.jsonl"

func TestSuite(t *testing.T) {
	// No real PersonalAgent file is public (testdata/corpus/SOURCES.md): the
	// fixtures below cover the spec's shapes and the shipped app's quirks.
	parsertest.Run(t, New(), []parsertest.Case{
		{
			// The spec's own example, with a tool call, a tool result and a
			// cancelled stream.
			File: "testdata/20250121193000001.jsonl",
			Want: []parsertest.Want{{ID: "20250121193000001", Title: "Rust async discussion", Messages: 6, Roles: "uauata"}},
		},
		{
			// thinking_content, timestamp, tool_calls/tool_results as JSON
			// text, a default title, a context summary.
			File: "testdata/20250302141503417.jsonl",
			Want: []parsertest.Want{{
				ID: "20250302141503417",
				// The first user message is 82 characters: cut at a word.
				Title:    "Can you check whether port 5432 is open on db-staging before I run the…",
				Messages: 7, Roles: "suataua",
			}},
		},
		{
			// CRLF, a blank line, a line cut short, a non-object line, a
			// non-JSON line, no final newline, no companion.
			File:     "testdata/20250410080000123.jsonl",
			Want:     []parsertest.Want{{ID: "20250410080000123", Title: "Summarise the incident report for the payment outage", Messages: 4, Roles: "uaua"}},
			Warnings: 3,
		},
		{
			// A companion cut short: a warning, and the title falls back.
			File:     "testdata/20250511120000999.jsonl",
			Want:     []parsertest.Want{{ID: "20250511120000999", Title: "Which log level should the worker default to?", Messages: 2, Roles: "ua"}},
			Warnings: 1,
		},
		{
			// A conversation created and never written to.
			File: "testdata/20250601000000000.jsonl",
			Want: []parsertest.Want{{ID: "20250601000000000", Title: "Quarterly planning", Messages: 0}},
		},
		{
			// Content as blocks with an inline image, a line without a role,
			// an unknown role, a single tool call object, an object output.
			File: "testdata/20250705163000250.jsonl",
			Want: []parsertest.Want{{
				ID:       "20250705163000250",
				Title:    "Here is the architecture diagram, what do you think of the queue placement?",
				Messages: 5, Roles: "uaaat",
			}},
		},
		{
			File: example,
			Want: []parsertest.Want{{ID: "20250314092211042", Title: "SQLite v8 migration: splitting note tags", Messages: 8, Roles: "uatauaua"}},
		},
	})
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "20250101120000123.jsonl",
		"testdata/20250121193000001.jsonl",
		"testdata/20250302141503417.jsonl",
		"testdata/20250410080000123.jsonl",
		"testdata/20250705163000250.jsonl",
	)
}

func TestDetect(t *testing.T) {
	const msg = `{"role":"user","content":"hi","ts":"2025-01-21T19:30:00Z"}` + "\n"
	nuls := strings.Repeat("\x00", 1000)
	long := `{"role":"user","content":"` + strings.Repeat("x", 5000) + `","ts":"2025-01-01T00:00:00Z"}`
	tests := []struct {
		name string
		path string
		head string
		want bool
	}{
		{"spec line", "c/20250121193000001.jsonl", `{"role":"user","content":"hi","ts":"2025-01-21T19:30:00Z"}`, true},
		{"first line longer than the head", "20250121193000001.jsonl", long[:parsers.HeadSize], true},
		{"role after other keys", "20250121193000001.jsonl", `{"content":"hi","timestamp":"x","role":"assistant"}` + "\n", true},
		{"BOM and blank lines", "20250121193000001.jsonl", "\xef\xbb\xbf\n\n{\"role\":\"system\",\"content\":\"s\"}", true},
		{"empty new conversation", "20250121193000001.jsonl", "", true},
		{"meta companion", "20250121193000001.meta.json", `{"id":"a1b2","title":"t","created_at":"2025-01-21T19:30:00Z"}`, false},
		{"meta content under a jsonl name", "20250121193000001.jsonl", `{"id":"a1b2","title":"t","created_at":"2025-01-21T19:30:00Z"}`, false},
		{"uuid name", "0199812e-64f0-7f73-91fc-095dda01c36e.jsonl", `{"role":"user","content":"hi"}`, false},
		{"16 digits", "2025012119300000.jsonl", `{"role":"user","content":"hi"}`, false},
		{"18 digits", "202501211930000011.jsonl", `{"role":"user","content":"hi"}`, false},
		{"other role", "20250121193000001.jsonl", `{"role":"Human","content":"hi"}`, true},
		{"content before role", "20250121193000001.jsonl", `{"content":"` + strings.Repeat("y", 5000)[:4000], true},
		{"right name, role not a string", "20250121193000001.jsonl", `{"role":1,"content":"hi"}`, false},
		{"right name, array", "20250121193000001.jsonl", `[{"role":"user","content":"hi"}]`, false},
		{"right name, text", "20250121193000001.jsonl", "role: user\n", false},
		{"claude-code line", "20250121193000001.json", `{"type":"user","message":{"role":"user","content":"hi"}}`, false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"NUL line first", "20250121193000001.jsonl", nuls + "\n" + msg, true},
		{"NULs glued to the record", "20250121193000001.jsonl", nuls + msg, true},
		{"garbage line first", "20250121193000001.jsonl", "garbage\n" + msg, true},
		{"torn record first", "20250121193000001.jsonl", `{"role":"user","content":"cut` + "\n" + msg, true},
		{"garbage then meta content", "20250121193000001.jsonl", "garbage\n" + `{"id":"a1b2","title":"t"}`, false},
		{"garbage then message, other name", "0199812e-64f0-7f73-91fc-095dda01c36e.jsonl", "garbage\n" + msg, false},
		{"only NULs", "20250121193000001.jsonl", strings.Repeat("\x00", 4096), false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestLeadingDamage: a conversation that a crash left with NUL bytes, a torn
// or a garbage line before its messages is claimed and read whole, and the
// damage is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	const file = "../../examples/personalagent/conversations/20250314092211042.jsonl"
	parsertest.CheckLeadingDamage(t, New(), file, parsertest.ReadFile(t, file))
}

// TestDetectOthers runs Detect over every corpus and example file: only our
// own .jsonl files may be claimed.
func TestDetectOthers(t *testing.T) {
	if parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(filepath.ToSlash(path), "examples/personalagent/") && strings.HasSuffix(path, ".jsonl")
	}, "../../testdata/corpus", "../../examples") == 0 {
		t.Error("no file of this family under the roots: the test checked nothing")
	}
}

func TestCompanions(t *testing.T) {
	p := New()
	got := p.Companions("/a/b/20250121193000001.jsonl")
	if len(got) != 1 || got[0] != "/a/b/20250121193000001.meta.json" {
		t.Errorf("Companions = %v", got)
	}
	if got := p.Companions("/a/b/x.meta.json"); got != nil {
		t.Errorf("Companions(meta) = %v, want nil", got)
	}
}

func TestDefaultRoots(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": "/xdg", "LOCALAPPDATA": "/win"}
	got := New().DefaultRoots("/home/u", func(k string) string { return env[k] })
	want := []string{
		"/home/u/Library/Application Support/PersonalAgent/conversations",
		"/xdg/PersonalAgent/conversations",
		"/win/PersonalAgent/conversations",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("DefaultRoots = %v, want %v", got, want)
	}
	got = New().DefaultRoots("/home/u", func(string) string { return "" })
	if len(got) != 2 || got[1] != "/home/u/.local/share/PersonalAgent/conversations" {
		t.Errorf("DefaultRoots without env = %v", got)
	}
}

func TestFields(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/20250302141503417.jsonl")
	c := res.Conversations[0]
	if want := time.Date(2025, 3, 2, 14, 15, 3, 0, time.UTC); !c.Date.Equal(want) {
		t.Errorf("Date = %v, want %v (the file name's stamp)", c.Date, want)
	}
	if want := time.Date(2025, 3, 2, 14, 16, 3, 100e6, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("Updated = %v, want %v", c.Updated, want)
	}
	if c.Model != "claude-3-7-sonnet" {
		t.Errorf("Model = %q", c.Model)
	}
	if len(c.Summaries) != 1 || !strings.Contains(c.Summaries[0], "db-staging:5432") {
		t.Errorf("Summaries = %q", c.Summaries)
	}
	m := c.Messages[2]
	if m.Thinking != "The user wants a connectivity check; use the shell tool with nc." {
		t.Errorf("thinking_content not read: %q", m.Thinking)
	}
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call_01" || m.ToolCalls[0].Name != "shell_exec" ||
		m.ToolCalls[0].Arguments != `{"command":"nc -zv db-staging 5432"}` {
		t.Errorf("tool_calls as JSON text: %+v", m.ToolCalls)
	}
	tr := c.Messages[3].ToolResults
	if len(tr) != 1 || tr[0].CallID != "call_01" || !tr[0].IsError || !strings.Contains(tr[0].Content, "Connection refused") {
		t.Errorf("tool_results as JSON text: %+v", tr)
	}
	if !c.Messages[6].Cancelled {
		t.Error(`cancelled "true" not read`)
	}
	if c.Messages[1].Timestamp.IsZero() {
		t.Error("timestamp key not read")
	}

	c = parsertest.ParseFile(t, New(), "testdata/20250121193000001.jsonl").Conversations[0]
	if c.Messages[1].Model != "claude-sonnet-4-20250514" || c.Messages[1].Thinking == "" {
		t.Errorf("model_id/thinking: %+v", c.Messages[1])
	}
	if got := c.Messages[3].ToolCalls; len(got) != 1 || got[0].Arguments != `{"query":"rust async executors"}` {
		t.Errorf("object arguments: %+v", got)
	}
	if !c.Messages[5].Cancelled {
		t.Error("cancelled not read")
	}
	if want := time.Date(2025, 1, 21, 20, 45, 0, 0, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("Updated = %v, want the companion's updated_at %v", c.Updated, want)
	}

	c = parsertest.ParseFile(t, New(), "testdata/20250705163000250.jsonl").Conversations[0]
	m = c.Messages[0]
	if len(m.Attachments) != 1 || m.Attachments[0].Type != "image/png" || m.Attachments[0].Size == 0 {
		t.Errorf("inline image: %+v", m.Attachments)
	}
	if strings.Contains(m.Content, "base64") || !strings.Contains(m.Content, "queue placement") {
		t.Errorf("content: %q", m.Content)
	}
	if got := c.Messages[3].ToolCalls; len(got) != 1 || got[0].Name != "read_file" || got[0].Arguments != `{"path":"docs/queue.md"}` {
		t.Errorf("function-nested call: %+v", got)
	}
	if got := c.Messages[4].ToolResults; len(got) != 1 || got[0].CallID != "c9" || !strings.Contains(got[0].Content, `"lines":12`) {
		t.Errorf("object output: %+v", got)
	}
	if want := time.Unix(1751733000, 0).UTC(); !c.Messages[0].Timestamp.Equal(want) {
		t.Errorf("epoch ts = %v, want %v", c.Messages[0].Timestamp, want)
	}
}

func TestWarnings(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/20250410080000123.jsonl")
	wantLines := []int{4, 5, 6}
	if len(res.Warnings) != len(wantLines) {
		t.Fatalf("warnings = %v", res.Warnings)
	}
	for i, w := range res.Warnings {
		var pe *parsers.Error
		if !errors.As(w, &pe) || pe.Line != wantLines[i] || pe.Path != "testdata/20250410080000123.jsonl" {
			t.Errorf("warning %d = %v, want line %d of the file", i, w, wantLines[i])
		}
	}
	if !errors.Is(res.Warnings[0], parsers.ErrSyntax) || !errors.Is(res.Warnings[1], parsers.ErrShape) {
		t.Errorf("warning kinds: %v", res.Warnings)
	}

	res = parsertest.ParseFile(t, New(), "testdata/20250511120000999.jsonl")
	if len(res.Warnings) != 1 || !errors.Is(res.Warnings[0], parsers.ErrSyntax) ||
		!strings.Contains(res.Warnings[0].Error(), "20250511120000999.meta.json") {
		t.Errorf("malformed companion: %v", res.Warnings)
	}
}

func TestParseErrors(t *testing.T) {
	p := New()
	path := "x/20250101000000000.jsonl"
	tests := []struct {
		name string
		in   string
		kind error
		line int
	}{
		{"only garbage", "not json\n", parsers.ErrSyntax, 1},
		{"only non-objects", "\n[1]\n2\n", parsers.ErrShape, 2},
		{"objects without message fields", `{"foo":1}` + "\n", parsers.ErrShape, 1},
		{"wrong field type", `{"role":"user","tool_calls":5,"content":"x","ts":{"a":1}}` + "\n" + `{"role":[1]}`, nil, 0},
	}
	for _, tt := range tests {
		res, err := p.Parse(context.Background(), path, strings.NewReader(tt.in))
		if tt.kind == nil {
			if err != nil || len(res.Conversations) != 1 || len(res.Conversations[0].Messages) != 2 {
				t.Errorf("%s: err %v, res %+v", tt.name, err, res)
			}
			continue
		}
		parsertest.CheckError(t, err, path, tt.line, tt.kind)
	}

	// An empty file is a new conversation, not an error.
	res, err := p.Parse(context.Background(), path, strings.NewReader(""))
	if err != nil || len(res.Conversations) != 1 || len(res.Conversations[0].Messages) != 0 {
		t.Errorf("empty file: %v, %+v", err, res)
	}
	if c := res.Conversations[0]; c.ID != "20250101000000000" || !c.Date.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("empty file: id %q date %v", c.ID, c.Date)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, path, strings.NewReader(`{"role":"user","content":"x"}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v", err)
	}
}

// TestLongLine checks a line far over bufio.Scanner's 64 KB default.
func TestLongLine(t *testing.T) {
	big := strings.Repeat("lorem ipsum ", 200_000) // 2.4 MB
	in := `{"role":"user","content":"` + big + `","ts":"2025-01-01T00:00:00Z"}` + "\n" +
		`{"role":"assistant","content":"ok","ts":"2025-01-01T00:00:01Z"}` + "\n"
	res, err := New().Parse(context.Background(), "20250101000000000.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Conversations[0]
	if len(c.Messages) != 2 || len(c.Messages[0].Content) != len(big) {
		t.Errorf("long line: %d messages, first %d bytes", len(c.Messages), len(c.Messages[0].Content))
	}
	if utfLen := len([]rune(c.Title)); utfLen > 81 || !strings.HasSuffix(c.Title, "…") {
		t.Errorf("title of a long first message: %q", c.Title)
	}
}

func TestRoles(t *testing.T) {
	tests := []struct {
		line string
		want conversation.Role
	}{
		{`{"role":"USER","content":"x"}`, conversation.RoleUser},
		{`{"role":"developer","content":"x"}`, conversation.RoleSystem},
		{`{"role":"function","content":"x"}`, conversation.RoleTool},
		{`{"role":"critic","content":"x"}`, conversation.RoleAssistant},
		{`{"content":"x"}`, conversation.RoleUser},
		{`{"content":"x","model_id":"m"}`, conversation.RoleAssistant},
		{`{"tool_results":[{"tool_call_id":"1","content":"r"}]}`, conversation.RoleTool},
		{`{"tool_calls":[{"id":"1","name":"n"}]}`, conversation.RoleAssistant},
	}
	for _, tt := range tests {
		var l line
		if err := json.Unmarshal([]byte(tt.line), &l); err != nil {
			t.Fatal(err)
		}
		m, err := readLine("f.jsonl", 1, &l)
		if err != nil || m.Role != tt.want {
			t.Errorf("%s: role %q (err %v), want %q", tt.line, m.Role, err, tt.want)
		}
	}
}
