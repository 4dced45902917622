package chatgpt

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const examples = "../../examples/chatgpt/"

func TestSuite(t *testing.T) {
	parsertest.Run(t, New(), []parsertest.Case{
		{
			File: "testdata/export-2023.json",
			Want: []parsertest.Want{
				// Main thread, then the first answer that was regenerated.
				{ID: "7f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f", Title: "Nginx latency percentiles", Messages: 8, Roles: "suatauaa"},
				// No conversation_id: the id is read; the prompt edited away
				// and its answer come after the main thread.
				{ID: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", Title: "Grafana p99 spikes", Messages: 14, Roles: "suattauauataua"},
			},
		},
		{
			File: "testdata/export-2025.json",
			Want: []parsertest.Want{
				{ID: "682e9f70-1c3b-8001-a6d2-4f5e6a7b8c9d", Title: "Kafka offset commit order", Messages: 10, Roles: "sususaaaua"},
				// No title, no current node: the latest leaf of the tree;
				// then the partial answer, the stray node, the cycle.
				{ID: "677e2b10-5d4c-8001-b7e3-0a1b2c3d4e5f", Title: "Why does `go test -race` time out in CI but pass locally?", Messages: 9, Roles: "uuataauau"},
			},
			Warnings: 1, // the null element
		},
		{
			// Thoughts with content, with chunks only, as bare strings and
			// in parts; a reasoning_recap whose text is in parts. Counts from
			//	python3 -c 'import json
			//	for c in json.load(open("testdata/thoughts.json")):
			//	  m=c["mapping"]; n=c["current_node"]; r=""
			//	  while n:
			//	    if m[n]["message"]: r=m[n]["message"]["author"]["role"][0]+r
			//	    n=m[n]["parent"]
			//	  print(c["id"],len(r),r)'
			File: "testdata/thoughts.json",
			Want: []parsertest.Want{{ID: "68f1a2b3-4c5d-8001-9e0f-1a2b3c4d5e6f", Title: "Outbox relay: delete or mark sent", Messages: 9, Roles: "suaaaauaa"}},
		},
		{
			File: "testdata/single.json",
			Want: []parsertest.Want{{ID: "660a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c", Title: "SQLite WAL checkpoints", Messages: 2, Roles: "ua"}},
		},
		{
			File:   examples + "conversations.json",
			Golden: "example-conversations.json",
			Want: []parsertest.Want{
				{ID: "6874c1a2-9e30-8001-a1f4-5b2e7c9d0e13", Title: "Rate limiter algorithm for the API gateway", Messages: 13, Roles: "suauatauauaua"},
				{ID: "6891d0f4-2b7a-8001-9c3e-0d4f6a8b1c25", Title: "Redis key design for rate limits", Messages: 5, Roles: "suaua"},
			},
		},
	})
}

func parseString(s string) (*parsers.Result, error) {
	return New().Parse(context.Background(), "/x/conversations.json", strings.NewReader(s))
}

func byID(t *testing.T, c *conversation.Conversation, id string) conversation.Message {
	t.Helper()
	for _, m := range c.Messages {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("conversation %s: no message %s", c.ID, id)
	return conversation.Message{}
}

func TestThoughts(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/thoughts.json")
	want := []struct {
		id, thinking string
		hidden       bool
	}{
		{"n-t1", "Delete vs mark\nDeleting keeps the table small; marking keeps an audit trail.", false},
		{"n-t2", "Vacuum cost\nMass deletes bloat the table until autovacuum runs.\nPartitioning by day lets old partitions be dropped.\n\nA bare thought string about retention.", false},
		{"n-r1", "Thought for 41 seconds", true},
		{"n-t3", "Logical decoding reads the WAL, so the relay could skip the table entirely.", false},
	}
	for _, w := range want {
		m := byID(t, c, w.id)
		if m.Thinking != w.thinking || m.Content != "" || m.Hidden != w.hidden {
			t.Errorf("%s: thinking %q content %q hidden %v; want %q, hidden %v", w.id, m.Thinking, m.Content, m.Hidden, w.thinking, w.hidden)
		}
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, head string
		want       bool
	}{
		{"export", `[{"title": "t", "create_time": 1.7e9, "update_time": 1.7e9, "mapping": {"client-created-root": {"id": "client-created-root", "message": null`, true},
		{"keys sorted", `[{"conversation_id": "c", "create_time": 1.7e9, "current_node": "n", "default_model_slug": "gpt-4o", "id": "c", "is_archived": false, "mapping": {`, true},
		{"one conversation", "\xef\xbb\xbf{\"mapping\": {}, \"title\": \"x\"}", true},
		{"cut before the mapping", `{"conversation_id": "c", "current_node": "n", "title": "long`, true},
		{"claude.ai export", `[{"uuid": "u", "name": "n", "chat_messages": [{"mapping": 1, "current_node": 2}]}]`, false},
		{"word as a value", `{"note": "mapping", "current_node_text": "current_node"}`, false},
		{"kiro cli", `{"conversation_id": "c", "next_message": null, "history": []}`, false},
		{"mapping alone", `{"mapping": {"a": 1}}`, false},
		{"not json", `mapping: current_node`, false},
		{"empty", ``, false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect("conversations.json", []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDetectOthers makes sure no file of another family is claimed.
func TestDetectOthers(t *testing.T) {
	parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(filepath.ToSlash(path), "/chatgpt/")
	}, "../../testdata/corpus", "../../examples")
}

func TestBranches(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/export-2023.json")
	b := res.Conversations[1]
	var got []string
	for _, m := range b.Messages {
		got = append(got, m.Branch)
	}
	want := strings.Repeat(",", 11) + ",1,1"
	if strings.Join(got, ",") != want {
		t.Errorf("branches %q, want the main thread then branch 1 twice", got)
	}
	edited := byID(t, b, "aaa24e5f-6a7b-4c8d-9e0f-1a2b3c4d5e17")
	if edited.ParentID != "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f16" || edited.Content != "Could it be the Prometheus scrape interval?" {
		t.Errorf("edited prompt %+v", edited)
	}
	if m := byID(t, b, "4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a19"); m.ParentID != edited.ID || m.Branch != "1" {
		t.Errorf("its answer %+v", m)
	}
	// The first real message answers no message: its parent is the empty root.
	if b.Messages[0].ParentID != "" {
		t.Errorf("first message parent %q", b.Messages[0].ParentID)
	}
	// Every node's message exactly once.
	seen := map[string]bool{}
	for _, m := range b.Messages {
		if seen[m.ID] {
			t.Errorf("message %s twice", m.ID)
		}
		seen[m.ID] = true
	}
}

func TestNoCurrentNode(t *testing.T) {
	c := parsertest.ParseFile(t, New(), "testdata/export-2025.json").Conversations[1]
	var got []string
	for _, m := range c.Messages {
		got = append(got, m.ID+"@"+m.Branch)
	}
	want := []string{
		"7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c01@", "8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d02@", "9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e03@",
		"0d1e2f3a-4b5c-4d6e-9f7a-8b9c0d1e2f04@", "2f3a4b5c-6d7e-4f8a-9b9c-0d1e2f3a4b06@", // the latest leaf
		"1e2f3a4b-5c6d-4e7f-8a8b-9c0d1e2f3a05@1", "stray-3a4b5c6d@2", "loop-a@3", "loop-b@3",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order\n got %q\nwant %q", got, want)
	}
	if c.Date.Format("2006-01-02T15:04:05.0Z") != "2025-01-08T10:00:00.5Z" || c.Model != "gpt-4o" {
		t.Errorf("date %v, model %q", c.Date, c.Model)
	}
	if m := c.Messages[3]; len(m.ToolResults) != 1 || !m.ToolResults[0].IsError || m.ToolResults[0].Name != "python" || m.Content != "tool_error: Code execution state reset." {
		t.Errorf("system error %+v", m)
	}
	if m := c.Messages[4]; !m.Cancelled || m.Partial {
		t.Errorf("interrupted answer %+v", m)
	}
	if m := c.Messages[5]; !m.Partial {
		t.Errorf("in-progress answer %+v", m)
	}
	if m := c.Messages[6]; m.Content != "A node whose parent was never written." {
		t.Errorf("unknown content type: %q", m.Content)
	}
	if m := c.Messages[0]; !m.Hidden || !strings.Contains(m.Content, "2-core runners") {
		t.Errorf("memory %+v", m)
	}
}

func TestContentTypes(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/export-2025.json")
	k := res.Conversations[0]
	hidden := ""
	for _, m := range k.Messages {
		if m.Hidden {
			hidden += "h"
		} else {
			hidden += "."
		}
	}
	// system, user_editable_context, system, user, system, thoughts,
	// reasoning_recap, answer, voice prompt, voice answer.
	if hidden != "hhh.h.h..." {
		t.Errorf("hidden %q", hidden)
	}
	if m := k.Messages[1]; !strings.Contains(m.Content, "Preferred name: Sam") || !strings.Contains(m.Content, "trade-offs first") {
		t.Errorf("user_editable_context %q", m.Content)
	}
	th := k.Messages[5]
	if th.Content != "" || !strings.HasPrefix(th.Thinking, "Weighing commit order\nCommit before write loses the batch") || !strings.Contains(th.Thinking, "Idempotent writes\nAn upsert") || th.Model != "o3" {
		t.Errorf("thoughts %+v", th)
	}
	if m := k.Messages[6]; m.Content != "" || m.Thinking != "Thought for 12 seconds" || !m.Hidden {
		t.Errorf("reasoning recap %+v", m)
	}
	voice := k.Messages[8]
	if voice.Content != "And would Kafka transactions give us exactly once here?" || len(voice.Attachments) != 1 ||
		voice.Attachments[0] != (conversation.Attachment{Name: "file_00000000a1b2722f8e3c4d5e6f708192", Type: "audio/wav", Size: 96044, Ref: "sediment://file_00000000a1b2722f8e3c4d5e6f708192"}) {
		t.Errorf("voice prompt %+v", voice)
	}
	if k.Model != "o3" {
		t.Errorf("model %q", k.Model)
	}

	old := parsertest.ParseFile(t, New(), "testdata/export-2023.json").Conversations
	nginx := old[0]
	if m := nginx.Messages[0]; m.Role != conversation.RoleSystem || !m.Hidden {
		t.Errorf("empty system root %+v", m)
	}
	u := nginx.Messages[1]
	if len(u.Attachments) != 1 || u.Attachments[0] != (conversation.Attachment{Name: "access-2023-07-16.log", Type: "text/plain", Size: 4821337, Ref: "file-Qm3xR8vT2kLp9ZwYc4NbH7sd"}) {
		t.Errorf("uploaded file %+v", u.Attachments)
	}
	code := nginx.Messages[2]
	if !strings.HasPrefix(code.Content, "import pandas as pd") || len(code.ToolCalls) != 1 || code.ToolCalls[0].Name != "python" || code.Model != "gpt-4-code-interpreter" {
		t.Errorf("code %+v", code)
	}
	out := nginx.Messages[3]
	if out.Role != conversation.RoleTool || !strings.Contains(out.Content, "/api/search     0.120  0.870  2.410") ||
		len(out.ToolResults) != 1 || out.ToolResults[0].Name != "python" || len(out.Attachments) != 1 || out.Attachments[0].Name != "file-Hk2Lp9Qw4Rt7Yx1Zc3Vb8Nm0" {
		t.Errorf("execution output %+v", out)
	}

	g := old[1]
	if m := g.Messages[0]; !m.Hidden || m.Role != conversation.RoleSystem || !strings.Contains(m.Content, "written in Go and run on Kubernetes") {
		t.Errorf("custom instructions %+v", m)
	}
	img := g.Messages[1]
	if img.Content != "This Grafana panel shows p99 latency spiking every 5 minutes on the catalog service. What could cause that?" ||
		len(img.Attachments) != 1 || img.Attachments[0] != (conversation.Attachment{Name: "grafana-p99.png", Type: "image/png", Size: 183244, Ref: "file-service://file-Zx9Wv8Ut7Sr6Qp5On4Ml3Kj2"}) {
		t.Errorf("image prompt %+v", img)
	}
	if m := g.Messages[3]; !strings.Contains(m.Content, "【0†Cache stampede") || m.ToolResults[0].Name != "browser" {
		t.Errorf("browsing %+v", m)
	}
	if m := g.Messages[4]; !strings.HasPrefix(m.Content, "Cache stampede - Wikipedia\nhttps://en.wikipedia.org/wiki/Cache_stampede\nUnder very heavy load") {
		t.Errorf("quote %q", m.Content)
	}
	if m := g.Messages[9]; len(m.ToolCalls) != 1 || m.ToolCalls[0].Name != "dalle.text2im" {
		t.Errorf("dalle call %+v", m)
	}
	if m := g.Messages[10]; !strings.HasPrefix(m.Content, "A clean technical diagram") || len(m.Attachments) != 1 || m.Attachments[0].Type != "image" || m.Attachments[0].Size != 412345 {
		t.Errorf("dalle image %+v", m)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		kind     error
		line     int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"number", "\n7", parsers.ErrShape, 2},
		{"bad value", "[\n{\"title\": \"x\",\n \"mapping\": {\"a\": nope}}]", parsers.ErrSyntax, 3},
		{"cut", "[{\"title\": \"x\", \"mapping\": {\n", parsers.ErrSyntax, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseString(tt.in)
			parsertest.CheckError(t, err, "/x/conversations.json", tt.line, tt.kind)
		})
	}
}

func TestLiberal(t *testing.T) {
	in := `[
{"id": "a", "title": "dup", "mapping": {}},
{"id": "a", "title": "dup again", "mapping": {
  "n1": {"message": {"author": {"role": "developer"}, "content": "bare string content", "create_time": "1712000000"}, "parent": null, "children": "n2"},
  "n2": {"message": {"author": {"role": "critic"}, "content": {"content_type": "text", "parts": ["hi", 42, null]}}, "parent": "n1", "children": []}},
 "current_node": "n2"},
{"title": "no id", "create_time": 1712000000, "mapping": {}}
]`
	res, err := parseString(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conversations) != 3 || res.Conversations[1].ID != "a~2" || len(res.Warnings) != 1 {
		t.Fatalf("conversations %d, warnings %v", len(res.Conversations), res.Warnings)
	}
	if res.Conversations[0].Messages == nil {
		t.Errorf("an empty mapping gives messages null, want []")
	}
	c := res.Conversations[1]
	if len(c.Messages) != 2 {
		t.Fatalf("messages %+v", c.Messages)
	}
	// children given as a string is no list, but the parent link still holds.
	if m := c.Messages[0]; m.Role != conversation.RoleSystem || m.Content != "bare string content" || m.Timestamp.Year() != 2024 {
		t.Errorf("message 0 %+v", m)
	}
	if m := c.Messages[1]; m.Role != conversation.RoleAssistant || m.Content != "hi\n\n42" || m.ParentID != "n1" {
		t.Errorf("message 1 %+v", m)
	}
	if id := res.Conversations[2].ID; !strings.HasPrefix(id, "20240401-") {
		t.Errorf("derived id %q", id)
	}
}

func TestCutExport(t *testing.T) {
	data := parsertest.ReadFile(t, "testdata/export-2025.json")
	// Cut inside the last conversation: the first is kept, with a warning.
	cut := data[:bytes.Index(data, []byte(`"677e2b10`))+40]
	res, err := New().Parse(context.Background(), "c.json", bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conversations) != 1 || len(res.Warnings) != 2 || !errors.Is(res.Warnings[1], parsers.ErrSyntax) {
		t.Errorf("%d conversations, warnings %v", len(res.Conversations), res.Warnings)
	}
}

func TestCancel(t *testing.T) {
	parsertest.CheckCancel(t, New(), "c.json", parsertest.ReadFile(t, "testdata/export-2023.json"))
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "conversations.json", "testdata/export-2023.json", "testdata/export-2025.json", "testdata/single.json", "testdata/thoughts.json")
}
