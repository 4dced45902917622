package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/parsers/all"
)

// TestDaemonOfAnotherBuild: a client whose build differs from the running
// daemon's (an upgrade that left the old daemon running), or whose
// redaction rules do, says so through index and search (Warn) and in the
// MCP server's next answer (Live.Notice), naming the daemon's pid, both
// versions and what to do; the same build says nothing. Everything used to
// go through the old daemon without a word.
func TestDaemonOfAnotherBuild(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	convtest.WriteAtomic(filepath.Join(root, "a.json"), convtest.Portable("conv-a", "Okapis", "Okapis have long tongues."))
	d := startRealDaemon(t, data, root) // Version "test"
	pid := d.Info().PID
	kill := fmt.Sprintf("`kill %d`, then `convsearch serve`", pid)
	for _, c := range []struct {
		name    string
		version string
		noRed   bool
		want    []string // each warning, by parts; none: no warning
	}{
		{"same build", "test", false, nil},
		{"not compared", "", false, nil},
		{"other version", "v1.0.0", false, []string{fmt.Sprintf("(pid %d) is another build", pid), "it runs " + BuildID("test"), "this is " + BuildID("v1.0.0"), kill}},
		{"other rules", "test", true, []string{fmt.Sprintf("(pid %d) indexes under redaction rules ", pid), "none (redaction off)", kill}},
	} {
		t.Run(c.name, func(t *testing.T) {
			so := StoreOptions{Dir: data, NoRedaction: c.noRed}
			check := func(what string, got []string) {
				t.Helper()
				if c.want == nil {
					if len(got) > 0 {
						t.Errorf("%s: warned %q, want nothing", what, got)
					}
					return
				}
				if len(got) != 1 {
					t.Fatalf("%s: warned %q, want one warning", what, got)
				}
				for _, part := range c.want {
					if !strings.Contains(got[0], part) {
						t.Errorf("%s: warned %q, want %q in it", what, got[0], part)
					}
				}
			}
			var warned []string
			warn := func(s string) { warned = append(warned, s) }
			conn, err := Connect(context.Background(), ConnectOptions{Store: so, Version: c.version, Warn: warn})
			if err != nil {
				t.Fatal(err)
			}
			conn.Close()
			check("search", warned)
			warned = nil
			if _, _, err := Index(context.Background(), ConnectOptions{Store: so, Roots: []string{root}, Version: c.version, Warn: warn}); err != nil {
				t.Fatal(err)
			}
			check("index", warned)

			l := NewLive(LiveOptions{Store: so, Version: c.version, Retry: time.Hour})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { l.Run(ctx); close(done) }()
			if _, err := l.Stats(ctx); err != nil {
				t.Error(err)
			}
			var notes []string
			if n := l.Notice(ctx); n != "" {
				notes = append(notes, n)
			}
			if n := l.Notice(ctx); n != "" {
				t.Errorf("mcp: second notice %q, want it told once", n)
			}
			cancel()
			<-done
			check("mcp", notes)
		})
	}
}

// TestMismatchOlderDaemon: a daemon from before builds were recorded (no
// Build in its daemon file) is another build, whatever its version says.
func TestMismatchOlderDaemon(t *testing.T) {
	for _, c := range []struct {
		info Info
		want string
	}{
		{Info{PID: 7, Version: "v0.9.0"}, "it runs v0.9.0, an older build"},
		{Info{PID: 7, Version: "dev"}, "it runs dev, an older build"},
		{Info{PID: 7}, "it runs unknown, an older build"},
	} {
		got := c.info.Mismatch("/d", "dev", StoreOptions{Dir: "/d"})
		if len(got) != 1 || !strings.Contains(got[0], c.want) || !strings.Contains(got[0], "`kill 7`") {
			t.Errorf("Mismatch of %+v = %q, want %q", c.info, got, c.want)
		}
	}
}

// TestMismatchParsers: builds alike but for their parsers' generation (a
// dev build without VCS stamping after a parser changed) are other builds:
// the daemon reads files with its own parsers.
func TestMismatchParsers(t *testing.T) {
	mine := BuildID("dev")
	if !strings.HasSuffix(mine, fmt.Sprintf(", parsers %08x", all.Registry().Generation())) {
		t.Fatalf("BuildID(dev) = %q, want the parsers' generation in it", mine)
	}
	for _, c := range []struct {
		build string
		warn  bool
	}{
		{mine, false},
		{strings.TrimSuffix(mine, fmt.Sprintf("%08x", all.Registry().Generation())) + "00000001", true},
	} {
		got := (&Info{PID: 7, Version: "dev", Build: c.build}).Mismatch("/d", "dev", StoreOptions{Dir: "/d"})
		if (len(got) == 1 && strings.Contains(got[0], "is another build")) != c.warn || len(got) > 1 {
			t.Errorf("daemon build %q, this %q: %q, want a warning %v", c.build, mine, got, c.warn)
		}
	}
}
