package aider

import (
	"context"
	"strings"
	"testing"
)

// TestMultilineNotice: aider writes a notice of several lines with "> "
// before its first line only and the two spaces after its last only
// (io.py append_chat_history): after a reply, such a notice is aider's,
// not a quote of the reply, and its lines are one tool message; a quote of
// the reply, whose block does not end in the two spaces, stays in it.
func TestMultilineNotice(t *testing.T) {
	const (
		head  = "# aider chat started at 2025-01-02 10:00:00\n\n> Added main.go to the chat.  \n\n#### add a test target  \n\n"
		reply = "Add this to the Makefile, then run it:\n\n```\nmake test\n```\n\n"
	)
	type msg struct{ role, text string }
	tests := []struct {
		name, log string
		want      []msg // after the first notice and the prompt
	}{
		{"notice of two lines after a reply",
			reply + "> go vet ./...\ngo test ./...  \n> Run shell commands? (Y)es/(N)o [Yes]: n  \n",
			[]msg{{"assistant", "Add this to the Makefile, then run it:\n\n```\nmake test\n```"}, {"tool", "go vet ./...\ngo test ./...\nRun shell commands? (Y)es/(N)o [Yes]: n"}}},
		{"notice of three lines after a reply",
			"Done.\n\n> one\ntwo\nthree  \n",
			[]msg{{"assistant", "Done."}, {"tool", "one\ntwo\nthree"}}},
		{"notice of two lines after a notice",
			"Done.\n\n> Applied edit to a.go  \n> go vet ./...\ngo test ./...  \n",
			[]msg{{"assistant", "Done."}, {"tool", "Applied edit to a.go\ngo vet ./...\ngo test ./..."}}},
		{"quote of the reply, then a blank line",
			"See:\n\n> a quote\nof two lines\n\nThat is all.\n",
			[]msg{{"assistant", "See:\n\n> a quote\nof two lines\n\nThat is all."}}},
		{"quote of the reply at the end",
			"See:\n\n> a quote\n",
			[]msg{{"assistant", "See:\n\n> a quote"}}},
		{"quote of the reply, then a notice",
			"See:\n\n> a quote\n> Tokens: 1k sent  \n",
			[]msg{{"assistant", "See:\n\n> a quote"}, {"tool", "Tokens: 1k sent"}}},
		{"quote of the reply, then the user",
			"See:\n> a quote\n#### next  \n",
			[]msg{{"assistant", "See:\n> a quote"}, {"user", "next"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Parse(context.Background(), "/p/"+FileName, strings.NewReader(head+tt.log))
			if err != nil || len(res.Conversations) != 1 {
				t.Fatalf("%v %+v", err, res)
			}
			ms := res.Conversations[0].Messages
			var got []msg
			for _, m := range ms[min(2, len(ms)):] {
				got = append(got, msg{string(m.Role), m.Content})
			}
			if len(ms) < 2 || ms[0].Content != "Added main.go to the chat." || ms[1].Content != "add a test target" {
				t.Errorf("first messages %+v", ms[:min(2, len(ms))])
			}
			if len(got) != len(tt.want) {
				t.Fatalf("messages %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("message %d: %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}
