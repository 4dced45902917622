package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/server"
)

// TestRecallTellsOfAnotherBuild: recall through a daemon of another build
// says so on stderr, as search and index do; as a hook it says nothing
// there (an agent's session start), unless -v.
func TestRecallTellsOfAnotherBuild(t *testing.T) {
	root := t.TempDir()
	if err := convtest.WriteAtomic(filepath.Join(root, "a.json"), convtest.Portable("conv-a", "Okapis", "Okapis have long tongues.")); err != nil {
		t.Fatal(err)
	}
	engine, _ := convtest.Engine(t, root)
	data := t.TempDir()
	ts := httptest.NewServer(server.NewHandler(server.HandlerOptions{Backend: engine, Identity: server.Health{PID: os.Getpid(), DataDir: data, Version: "test"}}))
	t.Cleanup(ts.Close)
	if err := daemon.WriteInfo(data, daemon.Info{Addr: ts.Listener.Addr().String(), PID: os.Getpid(), DataDir: data, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		warn bool
	}{
		{"recall", []string{"recall", "--data-dir", data, "--project", "p", "--timeout", "10s"}, true},
		{"hook", []string{"recall", "--hook", "--data-dir", data, "--project", "p", "--timeout", "10s"}, false},
		{"hook -v", []string{"recall", "--hook", "-v", "--data-dir", data, "--project", "p", "--timeout", "10s"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cs(t, home, tc.args...)
			if got := strings.Contains(r.stderr, "is another build of convsearch"); got != tc.warn {
				t.Errorf("%v: warned %v, want %v (exit %d)\n%s", tc.args, got, tc.warn, r.code, r.stderr)
			}
		})
	}
}
