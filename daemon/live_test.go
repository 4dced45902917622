package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/indexer"
)

// TestLiveNamesHolder: an MCP server refused the index by another process
// answers with an error that names the holder (pid and command) and says
// what to do, as the other commands do; it used to drop the pid.
func TestLiveNamesHolder(t *testing.T) {
	for _, c := range []struct{ holder, want string }{
		{"mcp", "(`convsearch mcp`, an agent's MCP server)"},
		{"watch", "(`convsearch watch`)"},
		{"index", "(`convsearch index`)"},
	} {
		t.Run(c.holder, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			st, err := OpenStore(StoreOptions{Dir: dir, Holder: c.holder})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			l := NewLive(LiveOptions{Store: StoreOptions{Dir: dir, Holder: "mcp"}, Retry: time.Hour})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { l.Run(ctx); close(done) }()
			_, err = l.Stats(ctx)
			cancel()
			<-done
			want := fmt.Sprintf("process %d %s", os.Getpid(), c.want)
			if !errors.Is(err, indexer.ErrLocked) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "convsearch serve") {
				t.Errorf("Stats while %s holds the index: %v, want ErrLocked naming %q", c.holder, err, want)
			}
		})
	}
}
