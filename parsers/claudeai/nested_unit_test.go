package claudeai

import (
	"bytes"
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
	k, res, err := parsertest.CheckTornInNested(t, New(), file, data, parsertest.Arrays(t, data, "chat_messages"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the %d complete messages of conversation", k)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), want) {
		t.Errorf("warnings %v, want one saying %q", res.Warnings, want)
	}
}
