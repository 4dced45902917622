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
		{"an id is no name", Message{Author: "user-139", Content: "1"}, "1"},
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

func TestPersonName(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"Caroline", true}, {" Mary Ann ", true}, {"O'Brien", true}, {"Jean-Luc", true}, {"Zoë", true}, {"J. R. Smith", true},
		{"", false}, {"user-139", false}, {"gpt-4o", false}, {"GPT", false}, {"AI Assistant", false}, {"User:", false},
		{"Claude 3.5 Sonnet", false}, {"tool_call", false}, {"1", false}, {"ghp_0123456789abcdefghijklmnopqrstuvwxyz", false},
		{"a very long name of four", false}, {"-Caroline", false},
	}
	for _, tt := range tests {
		if got := PersonName(tt.s); got != tt.want {
			t.Errorf("PersonName(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestReason(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"because the p99 dropped", "the p99 dropped"},
		{"Because: it is cheaper", "it is cheaper"},
		{"  because, frankly, time", "frankly, time"},
		{"becauseless word", "becauseless word"},
		{"the p99 dropped", "the p99 dropped"},
		{"because", "because"},
		{"", ""},
	} {
		if got := Reason(tt.in); got != tt.want {
			t.Errorf("Reason(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
