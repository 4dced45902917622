package daemon

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/watcher"
)

func TestKeeperApply(t *testing.T) {
	f := &fakeIngester{}
	k := NewKeeper(f, KeeperOptions{Roots: []string{"/r1", "/r2"}})
	if k.Ready() {
		t.Fatal("ready before the first batch")
	}
	ctx := context.Background()
	k.Apply(ctx, watcher.Batch{Paths: []string{"/r1/a"}})
	if k.Ready() {
		t.Fatal("ready before the initial batch")
	}
	k.Apply(ctx, watcher.Batch{Initial: true, Rescan: []string{"/r1"}, Paths: []string{"/r2/b"}})
	if !k.Ready() {
		t.Fatal("not ready after the initial batch")
	}
	if _, err := k.Reconcile(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Reconcile(ctx, []string{"/elsewhere"}); err != nil {
		t.Fatal(err)
	}
	wantR := [][]string{{"/r1"}, {"/r1", "/r2"}, {"/elsewhere"}}
	wantS := [][]string{{"/r1/a"}, {"/r2/b"}}
	if !reflect.DeepEqual(f.reconciled, wantR) || !reflect.DeepEqual(f.synced, wantS) {
		t.Errorf("reconciled %v synced %v, want %v and %v", f.reconciled, f.synced, wantR, wantS)
	}
	if st := k.Status(); st.Passes != 5 || st.Last == nil || st.Last.Reason != "request" {
		t.Errorf("status %+v", st)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := k.Reconcile(cctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("reconcile after cancel: %v", err)
	}
}

// TestLiveIndex runs the daemon in this process over a folder and changes
// files under it: each change shows up in searches through the API.
func TestLiveIndex(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "proj", "conv-a.json")
	if err := convtest.WriteAtomic(a, convtest.Portable("conv-a", "Alpha", "we chose zebrafish for the screen", "zebrafish it is")); err != nil {
		t.Fatal(err)
	}
	d := startTestDaemon(t, root, "")
	has := func(q string, want bool) {
		t.Helper()
		waitFor(t, q+" searchable", func() (bool, error) {
			n, err := d.total(q)
			return (n > 0) == want, err
		})
	}
	has("zebrafish", true)

	// A new file, in new folders.
	b := filepath.Join(root, "new", "deep", "conv-b.json")
	if err := convtest.WriteAtomic(b, convtest.Portable("conv-b", "Beta", "the axolotl regenerates")); err != nil {
		t.Fatal(err)
	}
	has("axolotl", true)

	// Rewritten in place, in bursts.
	for i := range 5 {
		words := []string{"planaria", "planaria again"}[min(i, 1)]
		if err := os.WriteFile(a, convtest.Portable("conv-a", "Alpha", words), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	has("planaria", true)
	has("zebrafish", false)

	// Half-written: the old content stays until the file is whole again.
	full := convtest.Portable("conv-a", "Alpha", "tardigrade survives")
	if err := os.WriteFile(a, full[:len(full)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a, full, 0o644); err != nil {
		t.Fatal(err)
	}
	has("tardigrade", true)

	// Removed; a folder removed whole.
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	has("tardigrade", false)
	if err := os.RemoveAll(filepath.Join(root, "new")); err != nil {
		t.Fatal(err)
	}
	has("axolotl", false)

	// Replaced by a folder holding a conversation.
	c := filepath.Join(root, "conv-c.json")
	if err := convtest.WriteAtomic(c, convtest.Portable("conv-c", "Gamma", "the quokka smiles")); err != nil {
		t.Fatal(err)
	}
	has("quokka", true)
	if err := os.Remove(c); err != nil {
		t.Fatal(err)
	}
	if err := convtest.WriteAtomic(filepath.Join(c, "inner.json"), convtest.Portable("conv-d", "Delta", "the okapi hides")); err != nil {
		t.Fatal(err)
	}
	has("okapi", true)
	has("quokka", false)

	// Unreadable files are logged and skipped (root reads everything).
	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		u := filepath.Join(root, "locked.json")
		if err := os.WriteFile(u, convtest.Portable("conv-u", "Locked", "the pangolin rolls"), 0o000); err != nil {
			t.Fatal(err)
		}
		if err := convtest.WriteAtomic(filepath.Join(root, "after.json"), convtest.Portable("conv-e", "After", "the narwhal dives")); err != nil {
			t.Fatal(err)
		}
		has("narwhal", true)
		if n, _ := d.total("pangolin"); n != 0 {
			t.Error("an unreadable file was indexed")
		}
	}
	if st := d.keeper.Status(); st.LastChange == nil {
		t.Errorf("status tells no change: %+v", st)
	}
}

// TestRootAppears starts the daemon on a root that does not exist yet.
func TestRootAppears(t *testing.T) {
	root := filepath.Join(t.TempDir(), "later")
	d := startTestDaemon(t, root, "")
	if err := convtest.WriteAtomic(filepath.Join(root, "x.json"), convtest.Portable("conv-x", "X", "the capybara relaxes")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "capybara searchable", func() (bool, error) {
		n, err := d.total("capybara")
		return n > 0, err
	})
}

func TestDaemonFile(t *testing.T) {
	d := examplesDaemon(t, "tok")
	dir := d.dir
	if _, _, err := Dial(context.Background(), dir); !errors.Is(err, ErrNoDaemon) {
		t.Errorf("dial with no daemon file: %v", err)
	}
	addr := d.srv.Listener.Addr().String()
	info := Info{Addr: addr, PID: os.Getpid(), Token: "tok", Started: time.Now(), DataDir: dir}
	if err := WriteInfo(dir, info); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(InfoFile(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("daemon file: %v, mode %v", err, fi.Mode())
	}
	c, got, err := Dial(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if got.Addr != addr || got.Token != "tok" {
		t.Errorf("daemon info %+v", got)
	}
	// Another process's file is left alone; ours is removed.
	if err := RemoveInfo(dir, os.Getpid()+1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(InfoFile(dir)); err != nil {
		t.Error("removed the file of another process")
	}
	// A file naming another pid (a stale file, the port taken since).
	info.PID++
	WriteInfo(dir, info)
	if _, _, err := Dial(context.Background(), dir); !errors.Is(err, ErrNoDaemon) {
		t.Errorf("dial of a stale file: %v", err)
	}
	// Nobody listening.
	dead := httptest.NewServer(nil)
	deadAddr := dead.Listener.Addr().String()
	dead.Close()
	WriteInfo(dir, Info{Addr: deadAddr, PID: os.Getpid(), DataDir: dir})
	if _, _, err := Dial(context.Background(), dir); !errors.Is(err, ErrNoDaemon) {
		t.Errorf("dial of a dead address: %v", err)
	}
	if err := RemoveInfo(dir, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(InfoFile(dir)); !os.IsNotExist(err) {
		t.Errorf("daemon file still there: %v", err)
	}
	for addr, want := range map[string]string{"0.0.0.0:80": "http://127.0.0.1:80", "[::]:81": "http://[::1]:81", ":82": "http://127.0.0.1:82", "127.0.0.1:83": "http://127.0.0.1:83"} {
		if got := (&Info{Addr: addr}).URL(); got != want {
			t.Errorf("URL of %s: %s, want %s", addr, got, want)
		}
	}
}

func TestCheckAddrToken(t *testing.T) {
	strong := "0123456789abcdef" // 16 characters
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:0", "", true},
		{"127.0.0.1:0", "a", true}, // loopback: any token
		{"localhost:0", "a", true},
		{"[::1]:0", "a", true},
		{"0.0.0.0:0", "", false},
		{"0.0.0.0:0", "a", false},
		{"0.0.0.0:0", strong[:15], false},
		{"0.0.0.0:0", "ÄÖÜäöüßÄÖÜäöüß", false}, // 14 characters, 28 bytes
		{"0.0.0.0:0", strong, true},
		{"192.0.2.1:7788", "short", false},
		{":7788", "short", false},
		{"box.example:7788", strong, true},
		{"127.0.0.1", strong, false}, // no port
		// Tokens no Authorization header can carry, on any address.
		{"127.0.0.1:0", " " + strong, false},
		{"127.0.0.1:0", strong + " ", false},
		{"127.0.0.1:0", "abc def", false},
		{"127.0.0.1:0", "abc\tdef", false},
		{"0.0.0.0:0", strong + "\n", false},
	} {
		err := CheckAddr(tc.addr, tc.token)
		if (err == nil) != tc.ok {
			t.Errorf("CheckAddr(%q, %q): %v, want ok %v", tc.addr, tc.token, err, tc.ok)
		}
		if err != nil && len(tc.token) > 4 && strings.Contains(err.Error(), tc.token) {
			t.Errorf("CheckAddr(%q, %q) tells the token: %v", tc.addr, tc.token, err)
		}
	}
}
