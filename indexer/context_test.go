package indexer

import (
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

func TestContextText(t *testing.T) {
	user := func(s string) conversation.Message {
		return conversation.Message{Role: conversation.RoleUser, Content: s}
	}
	asst := func(s string) conversation.Message {
		return conversation.Message{Role: conversation.RoleAssistant, Content: s}
	}
	tool := func(s string) conversation.Message {
		return conversation.Message{Role: conversation.RoleTool, Content: s}
	}
	hidden := conversation.Message{Role: conversation.RoleUser, Content: "injected", Hidden: true}
	tools := make([]conversation.Message, contextReach)
	for i := range tools {
		tools[i] = tool("output")
	}
	long := strings.Repeat("word ", 100)
	for _, tt := range []struct {
		name string
		msgs []conversation.Message
		i    int
		want string
	}{
		{"both neighbours", []conversation.Message{user("And Pudding?"), asst("she ate a sock"), user("oh no")}, 1, "And Pudding?\noh no"},
		{"first message has only a next", []conversation.Message{user("And Pudding?"), asst("she ate a sock")}, 0, "she ate a sock"},
		{"last message has only a previous", []conversation.Message{user("And Pudding?"), asst("she ate a sock")}, 1, "And Pudding?"},
		{"alone", []conversation.Message{user("hello")}, 0, ""},
		{"tool output and hidden context are skipped", []conversation.Message{user("fix the build"), tool("make: error"), hidden, asst("fixed it")}, 3, "fix the build"},
		{"no further than contextReach", append(append([]conversation.Message{user("far")}, tools...), asst("reply")), contextReach + 1, ""},
		{"within contextReach", append(append([]conversation.Message{user("near")}, tools[1:]...), asst("reply")), contextReach, "near"},
		{"a long neighbour is cut between words", []conversation.Message{user(long), asst("ok")}, 1, long[:maxContextBytes-1]},
		{"one long word is cut at a rune", []conversation.Message{user(strings.Repeat("é", 200)), asst("ok")}, 1, strings.Repeat("é", maxContextBytes/2)},
		{"a blank neighbour is passed over", []conversation.Message{user("And Pudding?"), asst(" \n "), asst("she ate a sock")}, 0, "she ate a sock"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := contextText(tt.msgs, tt.i); got != tt.want {
				t.Errorf("contextText(%d) = %q, want %q", tt.i, got, tt.want)
			}
		})
	}
}

// TestContextIndexed checks that each message's document carries its
// neighbours' text, and not its own, in the context field.
func TestContextIndexed(t *testing.T) {
	c := &conversation.Conversation{ID: "c1", Source: "portable", Title: "t", Messages: []conversation.Message{
		{Role: conversation.RoleUser, Content: "And Pudding?"},
		{Role: conversation.RoleAssistant, Content: "she ate a sock"},
	}}
	c.Renumber()
	docs := documents(c, c.ID, "/f.json")
	got := map[string]any{}
	for _, d := range docs {
		if d.fields[FieldType] == KindMessage {
			got[d.id] = d.fields[FieldContext]
		}
	}
	want := map[string]any{MessageDocID("c1", 0): "she ate a sock", MessageDocID("c1", 1): "And Pudding?"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s context %q, want %q", id, got[id], w)
		}
	}
}
