package portable

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/internal/golden"
)

// richConversation has every field Marshal must carry: system and tool
// roles, tool calls with compact, non-compact and non-JSON arguments,
// results, thinking, attachments, every flag, branches, zoned times.
func richConversation() *conversation.Conversation {
	t0 := time.Date(2025, 12, 4, 8, 30, 0, 125_000_000, time.UTC)
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	cest := time.FixedZone("", 2*3600)
	c := &conversation.Conversation{
		ID:      "7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6",
		Source:  "claude-code",
		File:    "/home/dev/.claude/projects/-src-payments/7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6.jsonl",
		Title:   "Flaky integration test: retry policy for the payments client",
		Date:    t0,
		Updated: at(400),
		Project: "payments",
		Model:   "claude-sonnet-4-5",
		Topics: []conversation.Topic{
			{Name: "retries", Origin: conversation.OriginExplicit},
			{Name: "jitter", Origin: conversation.OriginExtracted},
		},
		Decisions: []conversation.Decision{
			{Decision: "Retry charges with exponential backoff and full jitter (100 ms base, 2 s cap, 4 attempts)", Rationale: "Immediate retries hit the provider's rate limiter in lockstep; jitter spreads them out", Timestamp: at(180), MessageIndex: 4, Origin: conversation.OriginExplicit},
			{Decision: "Send an Idempotency-Key with every charge", Rationale: "A retried charge must never bill twice", MessageIndex: -1, Origin: conversation.OriginExtracted},
		},
		Tags:                 []string{"payments", "flaky-test"},
		RelatedConversations: []string{"20251120-1b2e3f4a"},
		Artifacts: []conversation.Artifact{
			{Type: "code", Path: "internal/payments/retry.go", Title: "retry.go", Description: "Backoff with full jitter", Content: "func backoff(attempt int) time.Duration {\n\td := min(base<<attempt, maxDelay)\n\treturn time.Duration(rand.Int64N(int64(d)))\n}", MessageIndex: 4},
			{Type: "document", Path: "docs/retries.md", MessageIndex: -1},
		},
		Summaries: []string{"Fixed the flaky TestChargeRetries: backoff with jitter, idempotency keys, retries only on 429/503."},
		Notes: []conversation.Note{
			{Kind: "file_change", Title: "internal/payments/retry.go", Text: "+func backoff(attempt int) time.Duration {", Time: at(200)},
		},
	}
	c.Messages = []conversation.Message{
		{ID: "m0", Role: conversation.RoleSystem, Content: "Working directory: /src/payments. Go 1.26.", Timestamp: at(0), Hidden: true},
		{ID: "m1", ParentID: "m0", Role: conversation.RoleUser, Content: "TestChargeRetries fails about one run in twenty in CI. Log attached.", Timestamp: at(5),
			Attachments: []conversation.Attachment{{Name: "ci-log.txt", Type: "text/plain", Size: 18234}, {Name: "trace.png", Type: "image/png", Size: 40211, Ref: "attachments/trace.png"}}},
		{ID: "m2", ParentID: "m1", Role: conversation.RoleAssistant, Content: "Let me read the client's retry loop.", Timestamp: at(20), Model: "claude-sonnet-4-5",
			Thinking:  "The failure rate suggests timing; check how retries are spaced.",
			ToolCalls: []conversation.ToolCall{{ID: "toolu_01", Name: "Read", Arguments: `{"file_path":"internal/payments/client.go"}`}}},
		{ID: "m3", ParentID: "m2", Role: conversation.RoleTool, Timestamp: at(21),
			ToolResults: []conversation.ToolResult{{CallID: "toolu_01", Name: "Read", Content: "for i := 0; i < 3; i++ {\n\tresp, err = c.do(req)\n\tif err == nil { break }\n}"}}},
		{ID: "m4", ParentID: "m3", Role: conversation.RoleAssistant, Timestamp: at(180).In(cest), Model: "claude-sonnet-4-5",
			Content: "The client retries immediately, three times, on any error. Under load the provider answers 429 and all three retries land inside its window. Decision: exponential backoff with full jitter (base 100 ms, cap 2 s, 4 attempts), only on 429, 503 and connection resets, and an Idempotency-Key on every charge so a retry can never bill twice.",
			ToolCalls: []conversation.ToolCall{
				{ID: "toolu_02", Name: "Bash", Arguments: `{"command":"go test ./internal/payments -run TestChargeRetries -count=50"}`},
				{ID: "toolu_03", Name: "Grep", Arguments: `{ "pattern": "c.do(req)" }`},
				{ID: "toolu_04", Name: "Note", Arguments: "plain text, not JSON"},
				{ID: "toolu_05", Name: "Noop", Arguments: "{}"},
				{Name: "NoArgs"},
			}},
		{ID: "m5", ParentID: "m4", Role: conversation.RoleTool, Timestamp: at(240),
			ToolResults: []conversation.ToolResult{
				{CallID: "toolu_02", Content: "--- FAIL: TestChargeRetries (0.41s)\n3 of 50 runs failed", IsError: true},
				{CallID: "toolu_03", Content: "internal/payments/client.go:88"},
				{CallID: "toolu_05", Content: "{}"},
			}},
		{ID: "m6", ParentID: "m5", Role: conversation.RoleUser, Content: "Go with backoff, jitter and idempotency keys. <b>Not</b> more attempts.", Timestamp: at(300), Branch: "1"},
		{ID: "m7", ParentID: "m6", Role: conversation.RoleAssistant, Content: "Writing retry.go…", Timestamp: at(310), Sidechain: true, Partial: true, Cancelled: true, Branch: "1"},
		{ID: "m8", ParentID: "m7", Role: conversation.RoleSystem, Content: "Context compacted.", Timestamp: at(400), Hidden: true, Deleted: true},
	}
	c.Renumber()
	return c
}

func TestMarshalGolden(t *testing.T) {
	got, err := Marshal(richConversation())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/conversations/exported.json", got)
	if !New().Detect("exported.json", got[:min(len(got), 4096)]) {
		t.Error("Detect refuses Marshal's output")
	}
}

// TestMarshalSchema checks the keys the format's own tools read.
func TestMarshalSchema(t *testing.T) {
	out, err := Marshal(richConversation())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ID       string `json:"id"`
		Date     string `json:"date"`
		Title    string `json:"title"`
		Messages []struct {
			Role      string  `json:"role"`
			Content   string  `json:"content"`
			Timestamp *string `json:"timestamp"`
		} `json:"messages"`
		Metadata map[string]json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID != "7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6" || doc.Date != "2025-12-04T08:30:00.125Z" || doc.Title == "" {
		t.Errorf("id, date, title = %q, %q, %q", doc.ID, doc.Date, doc.Title)
	}
	if len(doc.Messages) != 9 || doc.Messages[0].Role != "system" || doc.Messages[3].Role != "tool" {
		t.Errorf("messages: %+v", doc.Messages)
	}
	if ts := doc.Messages[4].Timestamp; ts == nil || *ts != "2025-12-04T10:33:00.125+02:00" {
		t.Errorf("zoned timestamp written as %v, want its offset kept", ts)
	}
	for _, k := range []string{"project", "topics", "decisions", "related_conversations", "tags", "artifacts", "source", "summaries", "notes", "extracted_topics"} {
		if _, ok := doc.Metadata[k]; !ok {
			t.Errorf("metadata has no %q", k)
		}
	}
	if got := string(doc.Metadata["source"]); got != `"claude-code"` {
		t.Errorf("metadata.source = %s, want the original source", got)
	}
	var topics []string
	if err := json.Unmarshal(doc.Metadata["topics"], &topics); err != nil || len(topics) != 1 || topics[0] != "retries" {
		got := string(doc.Metadata["topics"])
		t.Errorf("metadata.topics = %s, want only the explicit topic", got)
	}
	if !strings.Contains(string(out), "<b>Not</b>") {
		t.Error("HTML in content was escaped")
	}
}

func TestMarshalEmpty(t *testing.T) {
	out, err := Marshal(&conversation.Conversation{ID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	// The spec's lists are present and empty, absent values null.
	for _, want := range []string{`"date": null`, `"messages": []`, `"project": null`, `"topics": []`, `"decisions": []`, `"tags": []`, `"artifacts": []`, `"related_conversations": []`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("Marshal of an empty conversation lacks %s:\n%s", want, out)
		}
	}
	if _, err := Marshal(nil); err == nil {
		t.Error("Marshal(nil) gave no error")
	}
	res, err := New().Parse(context.Background(), "x.json", bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Conversations[0]; c.ID != "x" || len(c.Messages) != 0 || !c.Date.IsZero() {
		t.Errorf("read back %+v", c)
	}
}

// A portable file re-exported gives back its recorded source, not "portable".
func TestMarshalPortableSource(t *testing.T) {
	data, err := os.ReadFile("testdata/conversations/20251127-b6247f39.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := New().Parse(context.Background(), "20251127-b6247f39.json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Conversations[0]
	if !contains(c.Tags, "source:kiro-cli") {
		t.Fatalf("tags %q lack source:kiro-cli", c.Tags)
	}
	out, err := Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metadata struct {
			Source string   `json:"source"`
			Tags   []string `json:"tags"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Metadata.Source != "kiro-cli" || strings.Join(doc.Metadata.Tags, ",") != "kiro-cli" {
		t.Errorf("re-export: source %q tags %q, want kiro-cli and [kiro-cli]", doc.Metadata.Source, doc.Metadata.Tags)
	}
}

func TestNewManifestEntry(t *testing.T) {
	c := richConversation()
	e := NewManifestEntry(c, "/out/conversations/"+FileName(c.ID))
	m := Manifest{Conversations: []ManifestEntry{e, NewManifestEntry(&conversation.Conversation{ID: "empty"}, "empty.json")}}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"conversations":[{"id":"7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6","date":"2025-12-04T08:30:00.125Z","title":"Flaky integration test: retry policy for the payments client","project":"payments","topics":["retries"],"file":"/out/conversations/7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6.json"},` +
		`{"id":"empty","date":"","title":"","project":"","topics":[],"file":"empty.json"}]}`
	if string(out) != want {
		t.Errorf("manifest\n got %s\nwant %s", out, want)
	}
	// The manifest is what Detect must refuse.
	if New().Detect("index.json", out) {
		t.Error("Detect claims a manifest")
	}
}

func TestFileName(t *testing.T) {
	tests := []struct{ id, want string }{
		{"20251127-abc123", "20251127-abc123.json"},
		{"7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6", "7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6.json"},
		{"Überprüfung 2", "Überprüfung 2.json"},
		{"a/b", "a_b-" + sha8("a/b") + ".json"},
		{"a_b", "a_b.json"},
		{`c:\x*y?"<>|`, "c__x_y_____-" + sha8(`c:\x*y?"<>|`) + ".json"},
		{"..", sha8("..") + ".json"},
		{".hidden", "hidden-" + sha8(".hidden") + ".json"},
		{"", sha8("") + ".json"},
		{"index", "index-" + sha8("index") + ".json"},
		{"CON", "CON-" + sha8("CON") + ".json"},
		{"com1.x", "com1.x-" + sha8("com1.x") + ".json"},
		{"tab\there", "tab_here-" + sha8("tab\there") + ".json"},
		{strings.Repeat("é", 100), strings.Repeat("é", 60) + "-" + sha8(strings.Repeat("é", 100)) + ".json"},
	}
	for _, tt := range tests {
		if got := FileName(tt.id); got != tt.want {
			t.Errorf("FileName(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func sha8(s string) string { return conversation.NewID(s, time.Time{})[len("00000000-"):] }
