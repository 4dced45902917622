package all

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

// A message over the most a parser reads of one text (8 MiB) is cut with a
// note saying how much was left out, and the parse warns of it, naming the
// file and the message: the cut must not pass for the whole message.
func TestOverLongMessageCutVisibly(t *testing.T) {
	const over = 1 << 20 // past the 8 MiB cap
	line := func(uuid, text string) string {
		return fmt.Sprintf(`{"parentUuid":null,"sessionId":"67a8478e-78dc-44ab-82ea-f65c8ead85f6","type":"user","message":{"role":"user","content":%q},"uuid":%q,"timestamp":"2025-09-19T17:34:29.181Z"}`+"\n", text, uuid)
	}
	for _, tt := range []struct {
		name string
		size int // of the second message's text
		cut  bool
	}{
		{"under the cap", 1 << 10, false},
		{"over the cap", 8<<20 + over, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "67a8478e-78dc-44ab-82ea-f65c8ead85f6.jsonl")
			data := line("963d09c0-9aa2-4d33-a97f-63ea51e9cb3b", "a question") + line("963d09c0-9aa2-4d33-a97f-63ea51e9cb3c", strings.Repeat("x", tt.size))
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			data = ""
			_, res, err := Registry().ParseFile(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conversations) != 1 || len(res.Conversations[0].Messages) != 2 {
				t.Fatalf("want one conversation of two messages, got %d conversations", len(res.Conversations))
			}
			m := res.Conversations[0].Messages[1]
			note := parsers.CutNote(int64(tt.size - 8<<20))
			if got := strings.HasSuffix(m.Content, note); got != tt.cut {
				t.Errorf("message of %d bytes: ends with %q: %v, want %v (ends %q)", tt.size, note, got, tt.cut, m.Content[max(len(m.Content)-100, 0):])
			}
			var warned []string
			for _, w := range res.Warnings {
				if errors.Is(w, parsers.ErrTextCut) {
					warned = append(warned, w.Error())
				}
			}
			if tt.cut != (len(warned) == 1) {
				t.Fatalf("warnings of a cut: %q", warned)
			}
			if tt.cut && (!strings.Contains(warned[0], path) || !strings.Contains(warned[0], "message 1") || !strings.Contains(warned[0], fmt.Sprint(over))) {
				t.Errorf("warning %q does not name the file, the message and the bytes left out", warned[0])
			}
		})
	}
}
