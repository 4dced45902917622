package opencode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// TestTornSideFile: OpenCode keeps each message and each part in a file of
// its own, one record, so there is nothing to salvage from one cut short (a
// crash while it was written, a partial copy): the torn file is dropped
// whole, with a warning on the session naming it, never read as half a
// message, and every other message is kept as if the torn file were gone.
func TestTornSideFile(t *testing.T) {
	const sid = "ses_6c1f2a3b5ffeAbCdEfGhIjKl02"
	for _, side := range []string{"message/" + sid + "/msg_b002.json", "part/msg_b002/prt_b002a.json"} {
		t.Run(side, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS("testdata/storage")); err != nil {
				t.Fatal(err)
			}
			session := filepath.Join(dir, strings.TrimPrefix(s2, "testdata/storage/"))
			file := filepath.Join(dir, side)
			data := parsertest.ReadFile(t, file)
			// What the session reads without the side file.
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			want, err := New().Parse(context.Background(), session, strings.NewReader(string(parsertest.ReadFile(t, session))))
			if err != nil {
				t.Fatal(err)
			}
			for _, cut := range parsertest.Cuts(data) {
				if err := os.WriteFile(file, data[:cut], 0o600); err != nil {
					t.Fatal(err)
				}
				got, err := New().Parse(context.Background(), session, strings.NewReader(string(parsertest.ReadFile(t, session))))
				if err != nil {
					t.Fatalf("cut at %d: %v", cut, err)
				}
				if len(got.Conversations) != 1 || !reflect.DeepEqual(got.Conversations[0].Messages, want.Conversations[0].Messages) {
					t.Errorf("cut at %d: got %+v, want the messages without %s: %+v", cut, got.Conversations, side, want.Conversations)
				}
				warned := false
				for _, w := range got.Warnings {
					var pe *parsers.Error
					warned = warned || errors.As(w, &pe) && pe.Path == session && errors.Is(w, parsers.ErrSyntax) && strings.Contains(w.Error(), file)
				}
				if !warned {
					t.Errorf("cut at %d: no syntax warning naming %s in %v", cut, file, got.Warnings)
				}
			}
		})
	}
}
