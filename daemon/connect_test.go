package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/indexer"
)

// TestConnectRootsWhileHeld: `search --root DIR` while another writer
// holds the index answers from the index as it is, read-only, without the
// pass over DIR, and says who holds it (NotSynced); when the read-only open
// fails too (the writer holds the index itself), the refusal names the
// holder. It used to fail in both cases.
func TestConnectRootsWhileHeld(t *testing.T) {
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		holder  StoreOptions // opened over the index while Connect runs
		answers bool
	}{
		{"rebuild", StoreOptions{Holder: "index", Rebuild: true}, true},
		{"mcp", StoreOptions{Holder: "mcp"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if _, _, err := Index(context.Background(), ConnectOptions{Store: StoreOptions{Dir: dir}, Roots: []string{examples}}); err != nil {
				t.Fatal(err)
			}
			ho := c.holder
			ho.Dir = dir
			held, err := OpenStore(ho)
			if err != nil {
				t.Fatal(err)
			}
			defer held.Close()
			want := fmt.Sprintf("process %d (`convsearch %s`", os.Getpid(), c.holder.Holder)
			conn, err := Connect(context.Background(), ConnectOptions{Store: StoreOptions{Dir: dir, Holder: "search"}, Roots: []string{t.TempDir()}})
			if !c.answers {
				if !errors.Is(err, indexer.ErrLocked) || !strings.Contains(err.Error(), want) {
					t.Fatalf("Connect --root while %s holds the index: %v, want ErrLocked naming %q", c.name, err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Connect --root while %s holds the index: %v, want a read-only answer", c.name, err)
			}
			defer conn.Close()
			var le *indexer.LockedError
			if !errors.As(conn.NotSynced, &le) || le.Holder.PID != os.Getpid() || !strings.Contains(conn.NotSynced.Error(), want) {
				t.Errorf("NotSynced = %v, want a *LockedError naming %q", conn.NotSynced, want)
			}
			if conn.Synced != nil {
				t.Errorf("Synced = %+v, want no pass", conn.Synced)
			}
			st, err := conn.Stats(context.Background())
			if err != nil || st.Documents == 0 {
				t.Errorf("Stats of the read-only fallback: %+v, %v, want the index's conversations", st, err)
			}
		})
	}
}
