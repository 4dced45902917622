package conversation

import "testing"

func TestSearchText(t *testing.T) {
	tests := []struct {
		name string
		m    Message
		want string
	}{
		{"content", Message{Content: "hello"}, "hello"},
		{"author before the content", Message{Author: "Caroline", Content: "I painted a sunrise"}, "Caroline: I painted a sunrise"},
		{"author of no text", Message{Author: "Caroline"}, ""}, // a name alone is found by every search for it
		{"thinking, tools, attachments", Message{Content: "see", Thinking: "hmm", Attachments: []Attachment{{Name: "codebook.pdf"}}}, "see\nhmm\ncodebook.pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.SearchText(); got != tt.want {
				t.Errorf("SearchText() = %q, want %q", got, tt.want)
			}
		})
	}
}
