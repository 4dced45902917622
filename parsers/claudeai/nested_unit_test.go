package claudeai

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// TestTornInNestedChatMessages: a real export whose message holds a tool
// input with a field named "chat_messages", torn inside that field, drops
// the message the tear went through and keeps the ones before it, with a
// warning: the unit is the conversation's own chat_messages, not any array
// of that name.
func TestTornInNestedChatMessages(t *testing.T) {
	file := corpus + "example.json"
	data := parsertest.ReadFile(t, file)
	old := []byte(`"sender": "assistant",`)
	if bytes.Count(data, old) != 1 {
		t.Fatalf("%s: want one assistant message", file)
	}
	data = bytes.Replace(data, old, []byte(`"sender": "assistant", "content": [{"type": "tool_use", "name": "t", "input": {"chat_messages": ["hello", "world"]}}],`), 1)
	arrays := parsertest.Arrays(t, data, "chat_messages")
	if len(arrays) != 2 {
		t.Fatalf("%d arrays named chat_messages, want the conversation's and the input's", len(arrays))
	}
	top, nested := arrays[0], arrays[1]
	cuts := []int{bytes.Index(data, []byte(`"world"`)), bytes.Index(data, []byte(`"hello"`)) + 3, nested.Ends[0] + 1}
	parsertest.CheckTorn(t, New(), file, data, cuts, func(cut int) []byte {
		k, _ := top.Within(cut)
		return top.Keep(data, k, -1)
	})
	k, _ := top.Within(cuts[0])
	res, err := New().Parse(context.Background(), file, bytes.NewReader(data[:cuts[0]]))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the %d complete messages of conversation", k)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), want) {
		t.Errorf("warnings %v, want one saying %q", res.Warnings, want)
	}
}
