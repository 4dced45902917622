package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

// A long conversation's topics are read from a sample of its messages, at
// most about maxTopicBytes, spread over the whole of it; a shorter one is
// read whole.
func TestTopicTextsOfLongConversation(t *testing.T) {
	msg := func(i int) conversation.Message {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		return conversation.Message{Role: role, Content: fmt.Sprintf("message %d %s", i, strings.Repeat("word ", 200))}
	}
	tests := []struct {
		name     string
		messages int
		hidden   bool // every other message a tool's output, not read
		wantAll  bool
	}{
		{"short: every message", 100, false, true},
		{"just under the limit: every message", maxTopicBytes / 1020, false, true},
		{"long: a sample", 20000, false, false},
		{"long with tool output: a sample of what is said", 20000, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &conversation.Conversation{ID: "c", Title: "the title"}
			usableN := 0
			for i := range tt.messages {
				m := msg(i)
				if tt.hidden && i%2 == 1 {
					m.Role = conversation.RoleTool
				} else {
					usableN++
				}
				c.Messages = append(c.Messages, m)
			}
			c.Renumber()
			var texts []string
			bytes := 0
			for _, text := range topicTexts(c) {
				texts = append(texts, text)
				bytes += len(text)
			}
			if texts[0] != "the title" {
				t.Errorf("first text %q, want the title", texts[0])
			}
			got := len(texts) - 1
			if tt.wantAll && got != usableN {
				t.Errorf("%d messages read, want all %d", got, usableN)
			}
			if !tt.wantAll {
				if bytes > maxTopicBytes || bytes < maxTopicBytes/3 {
					t.Errorf("%d bytes read, want at most %d and at least a third of it", bytes, maxTopicBytes)
				}
				// The sample reaches the end of the conversation.
				last := texts[len(texts)-1]
				var n int
				fmt.Sscanf(last, "message %d", &n)
				if n < tt.messages*9/10 {
					t.Errorf("last message read is %d of %d: the sample does not span the conversation", n, tt.messages)
				}
			}
		})
	}
}

// A conversation too long to read whole still yields its topics: those
// that run through it.
func TestTopicsOfLongConversation(t *testing.T) {
	c := &conversation.Conversation{ID: "c", Title: "pool sizing"}
	for i := range 12000 {
		text := fmt.Sprintf("the connection pool sizing for postgres replica %d needs the retry backoff we tuned; filler%d text%d ", i%7, i, i*3)
		c.Messages = append(c.Messages, conversation.Message{Role: conversation.RoleUser, Content: strings.Repeat(text, 2)})
	}
	c.Renumber()
	topics := New(nil, Options{}).Topics(c)
	var names []string
	for _, tp := range topics {
		names = append(names, tp.Name)
	}
	joined := strings.Join(names, "|")
	for _, want := range []string{"pool", "backoff"} {
		if !strings.Contains(joined, want) {
			t.Errorf("topics %v, want one naming %q", names, want)
		}
	}
}
