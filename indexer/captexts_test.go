package indexer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
)

func TestCapTexts(t *testing.T) {
	long := strings.Repeat("ab", 10) // 20 bytes
	runes := strings.Repeat("é", 10) // 20 bytes, 2 a rune
	tests := []struct {
		name string
		c    conversation.Conversation
		max  int
		cut  int
		want func(c *conversation.Conversation) []string // texts to compare
		out  []string
	}{
		{
			name: "short texts untouched",
			c:    conversation.Conversation{Title: "t", Messages: []conversation.Message{{Content: "hello"}}},
			max:  8,
			want: func(c *conversation.Conversation) []string { return []string{c.Title, c.Messages[0].Content} },
			out:  []string{"t", "hello"},
		},
		{
			name: "a message's texts share the budget",
			c: conversation.Conversation{Messages: []conversation.Message{{
				Content: "12345", Thinking: "67890",
				ToolCalls:   []conversation.ToolCall{{Name: "Bash", Arguments: "xyz"}},
				ToolResults: []conversation.ToolResult{{Content: "out"}},
			}}},
			max: 8,
			cut: 3,
			want: func(c *conversation.Conversation) []string {
				m := c.Messages[0]
				return []string{m.Content, m.Thinking, m.ToolCalls[0].Arguments, m.ToolResults[0].Content}
			},
			out: []string{"12345", "678", "", ""},
		},
		{
			name: "each message its own budget",
			c:    conversation.Conversation{Messages: []conversation.Message{{Content: long}, {Content: long}}},
			max:  8,
			cut:  2,
			want: func(c *conversation.Conversation) []string {
				return []string{c.Messages[0].Content, c.Messages[1].Content}
			},
			out: []string{long[:8], long[:8]},
		},
		{
			name: "cut at a rune boundary",
			c:    conversation.Conversation{Title: runes},
			max:  7,
			cut:  1,
			want: func(c *conversation.Conversation) []string { return []string{c.Title} },
			out:  []string{runes[:6]},
		},
		{
			name: "the conversation's own text shares one budget",
			c: conversation.Conversation{
				Summaries: []string{"12345"},
				Artifacts: []conversation.Artifact{{Title: "abc", Content: long}},
				Notes:     []conversation.Note{{Text: "note"}},
			},
			max: 10,
			cut: 2,
			want: func(c *conversation.Conversation) []string {
				return []string{c.Summaries[0], c.Artifacts[0].Title, c.Artifacts[0].Content, c.Notes[0].Text}
			},
			out: []string{"12345", "abc", "ab", ""},
		},
		{
			name: "decisions each their own",
			c:    conversation.Conversation{Decisions: []conversation.Decision{{Decision: long, Rationale: long}}},
			max:  4,
			cut:  2,
			want: func(c *conversation.Conversation) []string {
				return []string{c.Decisions[0].Decision, c.Decisions[0].Rationale}
			},
			out: []string{"abab", "abab"},
		},
		{
			name: "no cap",
			c:    conversation.Conversation{Title: long},
			max:  0,
			want: func(c *conversation.Conversation) []string { return []string{c.Title} },
			out:  []string{long},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			if n := CapTexts(&c, tt.max); n != tt.cut {
				t.Errorf("cut %d texts, want %d", n, tt.cut)
			}
			got := tt.want(&c)
			for i := range got {
				if got[i] != tt.out[i] {
					t.Errorf("text %d = %q, want %q", i, got[i], tt.out[i])
				}
				if !utf8.ValidString(got[i]) {
					t.Errorf("text %d is not valid UTF-8: %q", i, got[i])
				}
			}
		})
	}
}
