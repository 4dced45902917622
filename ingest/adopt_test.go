package ingest

import (
	"context"
	"os"
	"testing"

	"github.com/convsearch/convsearch/indexer"
)

// When the file that owns a conversation's plain id goes (removed, or
// rewritten to hold another conversation), a file holding the same
// conversation under ID~hash takes the plain id over on that pass.
func TestCopyTakesOverPlainID(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		lose func(e *env, owner string) // makes owner give up A, and syncs
	}{
		{"removed, then Sync", func(e *env, owner string) {
			os.Remove(owner)
			if _, err := e.in.Sync(ctx, []string{owner}); err != nil {
				e.t.Fatal(err)
			}
		}},
		{"removed, then full pass", func(e *env, owner string) {
			os.Remove(owner)
			e.reconcile()
		}},
		{"rewritten, then Sync", func(e *env, owner string) {
			e.write("sess1.conv", "TESTCONV Z\nq\n")
			if _, err := e.in.Sync(ctx, []string{owner}); err != nil {
				e.t.Fatal(err)
			}
		}},
		{"record dropped before, then full pass", func(e *env, owner string) {
			// An index left so by an earlier version: the owner's record
			// gone, the copy still under ID~hash.
			os.Remove(owner)
			if err := e.ix.Apply(ctx, []indexer.Change{{State: indexer.FileState{Path: owner}, Remove: true}}); err != nil {
				e.t.Fatal(err)
			}
			e.reconcile()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			owner := e.write("sess1.conv", "TESTCONV A\nx\ny\n")
			e.reconcile()
			cp := e.write("sess1c.conv", "TESTCONV A\nx\ny\n")
			if _, err := e.in.Sync(ctx, []string{cp}); err != nil {
				t.Fatal(err)
			}
			st, _ := e.ix.File(cp)
			if len(st.Conversations) != 1 || st.Conversations[0].ID == "A" {
				t.Fatalf("copy indexed as %+v, want A~hash", st.Conversations)
			}
			tt.lose(e, owner)
			st, _ = e.ix.File(cp)
			if len(st.Conversations) != 1 || st.Conversations[0].ID != "A" {
				t.Errorf("copy holds %+v, want the plain id A", st.Conversations)
			}
			if got := e.messages(); got["A"] != 2 {
				t.Errorf("messages of A: %v", got)
			}
			// The documents moved too: nothing is left under the old key.
			if s := e.reconcile(); s.Parsed != 0 {
				t.Errorf("a later full pass parsed %d files, want 0", s.Parsed)
			}
		})
	}
}
