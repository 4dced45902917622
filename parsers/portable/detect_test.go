package portable

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

func TestDetect(t *testing.T) {
	long := `{"id":"x","metadata":{"topics":["a"],"decisions":[{"decision":"` + strings.Repeat("d", parsers.HeadSize) + `"}]},"messages":[]}`
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"spec shape", "c/20251127-abc123.json", `{"id": "20251127-abc123", "date": "2025-11-27T09:00:00", "title": "T", "messages": [{"role": "user"`, true},
		{"cut right after messages", "a.json", `{"title": "T", "messages": [`, true},
		{"cut inside first message", "a.json", `{"id": "x", "messages": [{"ro`, true},
		{"messages null", "a.json", `{"id": "x", "messages": null}`, true},
		{"metadata only, no ident", "a.json", `{"messages": [], "metadata": {"topics": []}}`, true},
		{"sorted keys", "a.json", `{"date": "2025", "id": "x", "messages": [{"content": "hi", "role": "user"}]}`, true},
		{"BOM", "a.json", "\xef\xbb\xbf" + `{"id": "x", "messages": []}`, true},
		{"upper-case extension", "A.JSON", `{"id": "x", "messages": []}`, true},
		{"metadata first, head cut before messages", "a.json", long[:parsers.HeadSize], true},
		{"acceptance malformed file", "broken.json", `{"id": "x", "title": "t", "messages": [`, true},
		{"a transcript's speaker turns", "s1.json", `{"id": "conv-26-s1", "date": "2023-05-08T13:56:00", "messages": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel!"}]}`, true},

		{"wrong extension", "a.txt", `{"id": "x", "messages": []}`, false},
		{"jsonl", "a.jsonl", `{"id": "x", "messages": []}`, false},
		{"manifest", "index.json", `{"conversations": [{"id": "x", "file": "x.json"}]}`, false},
		{"manifest cut", "index.json", `{"conversations": [`, false},
		{"array", "a.json", `[{"id": "x", "messages": []}]`, false},
		{"no messages", "a.json", `{"id": "x", "title": "t"}`, false},
		{"messages but nothing else", "a.json", `{"messages": [{"role": "user", "content": "x"}]}`, false},
		{"openai request", "req.json", `{"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}], "metadata": {"user": "u"}}`, false},
		{"messages an object", "a.json", `{"id": "x", "messages": {"a": 1}}`, false},
		{"messages of another family", "a.json", `{"id": "x", "messages": [{"type": "function_call", "call_id": "c"}]}`, false},
		{"nested messages only", "a.json", `{"id": "x", "data": {"messages": []}}`, false},
		{"browser export", "chat-backup-1.json", `{"threads": [{"id": "t", "name": "n", "messages": [{"text": "x", "sender": "Human"}]}]}`, false},
		{"browser indexedDB", "chat-backup-1.json", `{"indexedDB": {"threads": [{"id": "t", "branches": []}]}}`, false},
		{"kiro", "k.json", `{"conversation_id": "c", "next_message": null, "history": [], "messages": []}`, false},
		{"fnord v1", "c.json", `{"version": 1, "timestamp": 1, "messages": [], "metadata": {}}`, false},
		{"fnord v1 sorted", "c.json", `{"memory": [], "messages": [], "metadata": {"project": "p"}}`, false},
		{"fnord v0", "c.json", `1733000000:{"messages": []}`, false},
		{"personalagent meta", "1.meta.json", `{"id": "a", "title": "t", "created_at": "x", "message_count": 2}`, false},
		{"key in a string value", "a.json", `{"note": "\"messages\": [", "id": "x"}`, false},
		{"empty", "a.json", ``, false},
		{"binary", "a.json", "\x00\x01\x02", false},
	}
	for _, tt := range tests {
		if got := New().Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectOthers makes sure no file of another family, real or example,
// is claimed, and every portable file here is.
func TestDetectOthers(t *testing.T) {
	if parsertest.DetectTree(t, New(), func(path string) bool {
		return (strings.Contains(path, "examples/portable/") || strings.HasPrefix(path, "testdata/")) && filepath.Base(path) != "index.json"
	}, "../../testdata/corpus", "../../examples", "testdata/conversations") == 0 {
		t.Error("no file of this family under the roots: the test checked nothing")
	}
}

// TestDetectCutHeads: a portable file's head, cut anywhere after "messages",
// is still recognised.
func TestDetectCutHeads(t *testing.T) {
	data := parsertest.ReadFile(t, "testdata/conversations/20251127-b6247f39.json")
	from := bytes.Index(data, []byte(`"messages"`)) + len(`"messages": `)
	for cut := from; cut < len(data); cut += 7 {
		if !New().Detect("a.json", data[:cut]) {
			t.Fatalf("Detect refuses the head cut at %d: %q", cut, data[max(0, cut-40):cut])
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, data string
		kind       error
		line       int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"blank", " \n\t", parsers.ErrSyntax, 0},
		{"cut", "{\"id\": \"x\", \"title\": \"t\",\n\"messages\": [", parsers.ErrSyntax, 2},
		{"bad json on line 3", "{\n\"id\": \"x\",\n\"messages\": [}\n}", parsers.ErrSyntax, 3},
		{"array", `[{"id": "x", "messages": []}]`, parsers.ErrShape, 1},
		{"string", `"x"`, parsers.ErrShape, 1},
		{"manifest", `{"conversations": []}`, parsers.ErrShape, 1},
		{"no messages", `{"id": "x"}`, parsers.ErrShape, 1},
		{"messages an object", "{\"id\": \"x\",\n\n\"messages\": {\"a\": 1}}", parsers.ErrShape, 3},
		{"messages a string", `{"id": "x", "messages": "hi"}`, parsers.ErrShape, 1},
	}
	const path = "/data/conversations/bad.json"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New().Parse(context.Background(), path, strings.NewReader(tt.data))
			parsertest.CheckError(t, err, path, tt.line, tt.kind)
		})
	}
}

func TestParseCancelled(t *testing.T) {
	parsertest.CheckCancel(t, New(), "a.json", []byte(`{"id":"x","messages":[]}`))
}

func TestParseQuirks(t *testing.T) {
	tests := []struct {
		name, data string
		check      func(t *testing.T, res *parsers.Result)
	}{
		{"no id: derived from content, not folder", `{"title": "T", "date": "2025-01-02T03:04:05", "messages": [{"role": "user", "content": "hi"}]}`, func(t *testing.T, res *parsers.Result) {
			if id := res.Conversations[0].ID; !strings.HasPrefix(id, "20250102-") || len(id) != 17 {
				t.Errorf("id %q, want 20250102-<8 hex>", id)
			}
		}},
		{"project from project_path", `{"id": "x", "messages": [], "metadata": {"project": null, "project_path": "/Users/a/code/genome/"}}`, func(t *testing.T, res *parsers.Result) {
			if p := res.Conversations[0].Project; p != "genome" {
				t.Errorf("project %q, want genome", p)
			}
		}},
		{"data URL payload dropped", `{"id": "x", "messages": [{"role": "user", "content": "see data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB end", "attachments": [{"name": "p.png", "url": "data:image/png;base64,iVBORw0KGgo="}]}]}`, func(t *testing.T, res *parsers.Result) {
			m := res.Conversations[0].Messages[0]
			if strings.Contains(m.Content, "iVBOR") || !strings.Contains(m.Content, "[image/png data") {
				t.Errorf("content %q kept the payload", m.Content)
			}
			if a := m.Attachments[0]; a.Ref != "" || a.Type != "image/png" || a.Size == 0 {
				t.Errorf("attachment %+v", a)
			}
		}},
		{"chat-completions tool calls as JSON text", `{"id": "x", "messages": [{"role": "assistant", "content": null, "tool_calls": "[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}}]"}, {"role": "tool", "tool_results": [{"tool_call_id": "c1", "output": {"ok": true}}]}]}`, func(t *testing.T, res *parsers.Result) {
			m := res.Conversations[0].Messages
			if tc := m[0].ToolCalls; len(tc) != 1 || tc[0].ID != "c1" || tc[0].Name != "f" || tc[0].Arguments != `{"a":1}` {
				t.Errorf("tool calls %+v", tc)
			}
			if tr := m[1].ToolResults; len(tr) != 1 || tr[0].CallID != "c1" || tr[0].Content != `{"ok":true}` {
				t.Errorf("tool results %+v", tr)
			}
		}},
		// As Python's json.dump writes them (ensure_ascii): read as text,
		// so "naïveté" is found and counted as typed; keys keep their order.
		{"escaped tool arguments and results read as text", `{"id": "x", "messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "grep -r na\u00efvet\u00e9 src", "z": 1, "a": "\u003c\ud83e\uddec"}}]}, {"role": "tool", "tool_results": [{"tool_call_id": "c1", "output": {"text": "caf\u00e9\nbar", "n": 2.50}}]}]}`, func(t *testing.T, res *parsers.Result) {
			m := res.Conversations[0].Messages
			if tc := m[0].ToolCalls; len(tc) != 1 || tc[0].Arguments != `{"command":"grep -r naïveté src","z":1,"a":"<🧬"}` {
				t.Errorf("tool calls %+v", tc)
			}
			if tr := m[1].ToolResults; len(tr) != 1 || tr[0].Content != `{"text":"café\nbar","n":2.50}` {
				t.Errorf("tool results %+v", tr)
			}
		}},
		{"decision timestamp matches the last of equal messages", `{"id": "x", "messages": [{"role": "user", "content": "a", "timestamp": "2025-01-01T10:00:00"}, {"role": "assistant", "content": "b", "timestamp": "2025-01-01T10:00:00"}, {"role": "user", "content": "c", "timestamp": "2025-01-01T10:05:00"}], "metadata": {"decisions": [{"decision": "d", "timestamp": "2025-01-01T10:00:00"}, {"decision": "e", "timestamp": "2025-01-01T10:01:00"}, {"decision": "f", "message_index": 9}, {"decision": "", "rationale": ""}]}}`, func(t *testing.T, res *parsers.Result) {
			ds := res.Conversations[0].Decisions
			if len(ds) != 3 || ds[0].MessageIndex != 1 || ds[1].MessageIndex != -1 || ds[2].MessageIndex != -1 {
				t.Errorf("decisions %+v, want indexes 1, -1, -1", ds)
			}
		}},
		{"a rationale loses its own because", `{"id": "x", "messages": [], "metadata": {"decisions": [{"decision": "d", "rationale": "Because: the p99 dropped"}, {"decision": "e", "rationale": " it is cheaper "}]}}`, func(t *testing.T, res *parsers.Result) {
			ds := res.Conversations[0].Decisions
			if len(ds) != 2 || ds[0].Rationale != "the p99 dropped" || ds[1].Rationale != "it is cheaper" {
				t.Errorf("decisions %+v, want rationales without because, trimmed", ds)
			}
		}},
		{"who wrote: author, else speaker, name or a role that is a name, never a tool's name", `{"id": "x", "messages": [{"role": "user", "name": "Caroline", "content": "a"}, {"role": "assistant", "speaker": "Melanie", "content": "b"}, {"role": "user", "author": "Jo", "name": "Joanna", "content": "c"}, {"role": "tool", "name": "get_weather", "content": "d"}, {"role": "Melanie", "content": "e"}, {"role": "model", "content": "f"}, {"role": "assistant", "name": "gpt-4o", "content": "g"}, {"role": "AI Assistant", "content": "h"}, {"role": "User:", "content": "i"}, {"role": 1, "content": "j"}, {"role": "user", "author": "  ", "speaker": " Mel ", "content": "k"}]}`, func(t *testing.T, res *parsers.Result) {
			var got []string
			for _, m := range res.Conversations[0].Messages {
				got = append(got, m.Author)
			}
			if want := []string{"Caroline", "Melanie", "Jo", "", "Melanie", "", "", "", "", "", "Mel"}; !slices.Equal(got, want) {
				t.Errorf("authors %q, want %q", got, want)
			}
		}},
		{"metadata not an object", `{"id": "x", "messages": [], "metadata": "oops"}`, func(t *testing.T, res *parsers.Result) {
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "metadata") {
				t.Errorf("warnings %v, want one about metadata", res.Warnings)
			}
		}},
		{"long first message makes a cut title", `{"id": "x", "messages": [{"role": "assistant", "content": "hello"}, {"role": "user", "content": "` + strings.Repeat("word ", 40) + `"}]}`, func(t *testing.T, res *parsers.Result) {
			if title := res.Conversations[0].Title; !strings.HasSuffix(title, "…") || !strings.HasPrefix(title, "word word") || len([]rune(title)) != 80 {
				t.Errorf("title %q", title)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Parse(context.Background(), "q.json", strings.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, res)
		})
	}
}
