package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/convsearch/convsearch/internal/convtest"
)

// These tests run the built binary as a daemon (serve, watch), change files
// under its root and ask it over HTTP, as a user's tools would.

// daemonDeadline bounds every wait for the daemon: generous, as no test
// asserts how fast anything happens.
const daemonDeadline = 30 * time.Second

// lockedBuffer is a bytes.Buffer safe for a process writing while a test
// reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// daemonProc is a running convsearch serve or watch.
type daemonProc struct {
	t       *testing.T
	cmd     *exec.Cmd
	dataDir string
	url     string // serve only
	token   string // serve only: the token daemon.json holds
	stdout  *lockedBuffer
	stderr  *lockedBuffer
	exited  chan struct{}
	code    int
}

// daemonEnv is testEnv for the binary run as a second process.
func daemonEnv(home string) []string {
	env := os.Environ()
	for k, v := range testEnv(home) {
		env = append(env, k+"="+v)
	}
	return env
}

// startDaemon runs the binary with args in the background; it is killed at
// the end of the test if still running.
func startDaemon(t *testing.T, home string, args ...string) *daemonProc {
	t.Helper()
	d := &daemonProc{t: t, dataDir: filepath.Join(home, "data", "convsearch"), stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	d.cmd = exec.Command(binary, args...)
	d.cmd.Env = daemonEnv(home)
	d.cmd.Stdout, d.cmd.Stderr = d.stdout, d.stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := d.cmd.Wait()
		d.code = 0
		if ee, ok := err.(*exec.ExitError); ok {
			d.code = ee.ExitCode()
		}
		close(d.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-d.exited:
		default:
			d.cmd.Process.Kill()
			<-d.exited
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", args[0], d.stderr.String())
		}
	})
	return d
}

// startServe runs `serve` on a free loopback port over root and waits until
// it answers and its first pass is done.
func startServe(t *testing.T, home, root string, extra ...string) *daemonProc {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--no-default-roots", "--root", root}, extra...)
	d := startDaemon(t, home, args...)
	d.waitUntil("the daemon file", func() bool {
		b, err := os.ReadFile(filepath.Join(d.dataDir, "daemon.json"))
		if err != nil {
			return false
		}
		var info struct {
			Addr  string `json:"addr"`
			PID   int    `json:"pid"`
			Token string `json:"token"`
		}
		if json.Unmarshal(b, &info) != nil || info.PID != d.cmd.Process.Pid {
			return false
		}
		d.url, d.token = "http://"+info.Addr, info.Token
		return true
	})
	if strings.HasSuffix(d.url, ":0") {
		t.Fatalf("daemon file has the port asked for, not the real one: %s", d.url)
	}
	d.waitUntil("its address on stdout", func() bool { return strings.Contains(d.stdout.String(), d.url+"/") })
	d.waitUntil("/readyz", func() bool {
		resp, err := http.Get(d.url + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return d
}

// waitUntil polls ok until it holds, failing after the deadline or when the
// process exits.
func (d *daemonProc) waitUntil(what string, ok func() bool) {
	d.t.Helper()
	deadline := time.Now().Add(daemonDeadline)
	for !ok() {
		select {
		case <-d.exited:
			d.t.Fatalf("waiting for %s: the daemon exited with %d\nstderr:\n%s", what, d.code, d.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("timed out waiting for %s\nstderr:\n%s", what, d.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// total asks /api/search how many documents match q.
func (d *daemonProc) total(q string) int {
	d.t.Helper()
	req, err := http.NewRequest("GET", d.url+"/api/search?no_highlight=1&q="+url.QueryEscape(q), nil)
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+d.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.t.Fatalf("search %q: %v", q, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		d.t.Fatalf("search %q: HTTP %d: %s", q, resp.StatusCode, body)
	}
	var res struct {
		Total int `json:"total"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		d.t.Fatalf("search %q: %v", q, err)
	}
	return res.Total
}

// searchable waits until q finds something (want) or nothing (!want).
func (d *daemonProc) searchable(q string, want bool) {
	d.t.Helper()
	d.waitUntil(fmt.Sprintf("%q searchable=%v", q, want), func() bool { return (d.total(q) > 0) == want })
}

// stop sends sig and returns the exit code.
func (d *daemonProc) stop(sig os.Signal) int {
	d.t.Helper()
	if err := d.cmd.Process.Signal(sig); err != nil {
		d.t.Fatal(err)
	}
	select {
	case <-d.exited:
		return d.code
	case <-time.After(daemonDeadline):
		d.t.Fatalf("still running %s after %v\nstderr:\n%s", sig, daemonDeadline, d.stderr.String())
		return -1
	}
}

// conversationJSON is a portable-format conversation holding text.
func conversationJSON(id, title string, texts ...string) string {
	return string(convtest.Portable(id, title, texts...))
}

func writeConv(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestServeKeepsIndexInLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	home := t.TempDir()
	root := filepath.Join(home, "convs")
	a := filepath.Join(root, "a.json")
	writeConv(t, a, conversationJSON("conv-a", "Marmosets", "Should we model the marmoset colony?", "Yes: we'll use a mixed model because colonies nest."))
	d := startServe(t, home, root)
	d.searchable("marmoset", true)

	// New, changed, removed; a new folder with a file in it.
	b := filepath.Join(root, "sub", "deeper", "b.json")
	writeConv(t, b, conversationJSON("conv-b", "Ocelots", "Where do ocelots hunt?"))
	d.searchable("ocelot", true)
	writeConv(t, a, conversationJSON("conv-a", "Tamarins", "Tamarin troops instead."))
	d.searchable("tamarin", true)
	d.searchable("marmoset", false)
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	d.searchable("ocelot", false)

	// A file that cannot be read as its format is logged; the daemon goes on.
	writeConv(t, filepath.Join(root, "broken.json"), `{"id": "conv-x", "title": "Broken", "messages": [{"role": "user", "content": "cut sh`)
	writeConv(t, filepath.Join(root, "c.json"), conversationJSON("conv-c", "Kinkajous", "Kinkajou tails grip."))
	d.searchable("kinkajou", true)
	d.waitUntil("the broken file in the log", func() bool { return strings.Contains(d.stderr.String(), "broken.json") })

	// The command line asks the daemon while it runs (it holds the index).
	r := cs(t, home, "search", "-v", "tamarin")
	if r.code != 0 || !strings.Contains(r.stdout, "Tamarins") || !strings.Contains(r.stderr, "asking the daemon at "+d.url) {
		t.Errorf("search through the daemon: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// A query the index refuses reads as it does without a daemon.
	r = cs(t, home, "search", "the")
	if r.code != exitUsage || strings.Contains(r.stderr, "HTTP 400") || strings.Contains(r.stderr, "daemon:") {
		t.Errorf("a refused query through the daemon: exit %d, want %d and the index's own message\n%s", r.code, exitUsage, r.stderr)
	}
	// So does a hit's id past its conversation's messages.
	r = cs(t, home, "show", "m/conv-a/999")
	if r.code != exitFailure || !strings.Contains(r.stderr, "no message 999") || strings.Contains(r.stderr, "HTTP 404") {
		t.Errorf("show of a message past the end through the daemon: exit %d\n%s", r.code, r.stderr)
	}
	r = cs(t, home, "show", "conv-a")
	if r.code != 0 || !strings.Contains(r.stdout, "Tamarin troops") {
		t.Errorf("show through the daemon: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = cs(t, home, "stats", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"conversation"`) {
		t.Errorf("stats through the daemon: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// search --root DIR has the daemon reconcile DIR first.
	other := filepath.Join(home, "other")
	writeConv(t, filepath.Join(other, "o.json"), conversationJSON("conv-o", "Okapis", "The okapi is shy."))
	r = cs(t, home, "search", "--root", other, "okapi")
	if r.code != 0 || !strings.Contains(r.stdout, "Okapis") || !strings.Contains(r.stderr, "indexed 1 changed files") {
		t.Errorf("search --root through the daemon: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}

	// index while the daemon runs has the daemon do the pass.
	third := filepath.Join(home, "third")
	writeConv(t, filepath.Join(third, "p.json"), conversationJSON("conv-p", "Pangolins", "Pangolin scales."))
	r = cs(t, home, "index", "--no-default-roots", "--root", third)
	if r.code != 0 || !strings.Contains(r.stdout, "indexed 1 files") || !strings.Contains(r.stderr, "asking it to index") {
		t.Errorf("index through the daemon: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	d.searchable("pangolin", true)

	// A second daemon for the same data folder is refused.
	r = cs(t, home, "serve", "--addr", "127.0.0.1:0", "--no-default-roots", "--root", root)
	if r.code != 1 || !strings.Contains(r.stderr, "already") {
		t.Errorf("second serve: exit %d, stderr %s", r.code, r.stderr)
	}

	if code := d.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("SIGTERM: exit %d\n%s", code, d.stderr.String())
	}
	manifest, err := os.ReadFile(filepath.Join(d.dataDir, "index.json"))
	if err != nil || !strings.Contains(string(manifest), "conv-a") || !strings.Contains(string(manifest), "conv-c") {
		t.Errorf("index.json after stop: %v\n%s", err, manifest)
	}
	if _, err := os.Stat(filepath.Join(d.dataDir, "daemon.json")); !os.IsNotExist(err) {
		t.Errorf("daemon.json left behind: %v", err)
	}
	// With the daemon gone, commands open the index themselves.
	r = cs(t, home, "search", "-v", "kinkajou")
	if r.code != 0 || !strings.Contains(r.stdout, "Kinkajous") || strings.Contains(r.stderr, "asking the daemon") {
		t.Errorf("search after the daemon stopped: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

func TestServeAddressAndToken(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	home := t.TempDir()
	root := filepath.Join(home, "convs")
	writeConv(t, filepath.Join(root, "a.json"), conversationJSON("conv-a", "Lemurs", "Lemur tails balance."))

	// Not loopback without a token: a usage error.
	r := cs(t, home, "serve", "--addr", "0.0.0.0:0", "--no-default-roots", "--root", root)
	if r.code != 2 || !strings.Contains(r.stderr, "--token") {
		t.Errorf("serve on 0.0.0.0 without a token: exit %d, stderr %s", r.code, r.stderr)
	}
	// Nor behind a token one can guess: at least 16 characters beyond
	// loopback, and the error says how to make one.
	for _, args := range [][]string{
		{"--token", "a"},
		{"--token", "fifteen-chars-x"},
		{"--token", "日本語のトークンです"}, // 10 characters, 30 bytes
	} {
		r := cs(t, home, append([]string{"serve", "--addr", "0.0.0.0:0", "--no-default-roots", "--root", root}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "at least 16 characters") || !strings.Contains(r.stderr, "openssl rand -hex 32") {
			t.Errorf("serve on 0.0.0.0 %q: exit %d, stderr %s", args, r.code, r.stderr)
		}
		if len(args[1]) > 4 && strings.Contains(r.stderr, args[1]) {
			t.Errorf("the weak token went to stderr: %s", r.stderr)
		}
	}
	t.Setenv("CONVSEARCH_TOKEN", "abc")
	if r := cs(t, home, "serve", "--addr", "[::]:0", "--no-default-roots", "--root", root); r.code != 2 || !strings.Contains(r.stderr, "at least 16 characters") {
		t.Errorf("serve on [::] with a short $CONVSEARCH_TOKEN: exit %d, stderr %s", r.code, r.stderr)
	}
	os.Unsetenv("CONVSEARCH_TOKEN")

	if r := cs(t, home, "open"); r.code != 1 || !strings.Contains(r.stderr, "convsearch serve") {
		t.Errorf("open with no daemon: exit %d, stderr %s", r.code, r.stderr)
	}
	d := startServe(t, home, root, "--token", "let-me-in")
	login := d.url + "/?token=let-me-in"
	// stderr is a pipe here, as in a service's journal: no token on it.
	d.waitUntil("the pointer to convsearch open on stderr", func() bool {
		return strings.Contains(d.stderr.String(), "run `convsearch open` for a login link")
	})
	if strings.Contains(d.stderr.String(), "let-me-in") {
		t.Errorf("the token went to stderr, which is not a terminal:\n%s", d.stderr.String())
	}
	if r := cs(t, home, "open"); r.code != 0 || r.stdout != login+"\n" {
		t.Errorf("open: exit %d, stdout %q, want %q", r.code, r.stdout, login)
	}
	if r := cs(t, home, "open", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"url": "`+login+`"`) {
		t.Errorf("open --json: exit %d, stdout %s", r.code, r.stdout)
	}
	resp, err := http.Get(d.url + "/api/search?q=lemur")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: HTTP %d", resp.StatusCode)
	}
	// The command line finds the token in the daemon file.
	d.waitUntil("the first pass", func() bool {
		r = cs(t, home, "search", "-v", "lemur")
		return r.code == 0 && strings.Contains(r.stdout, "Lemurs")
	})
	if !strings.Contains(r.stderr, "asking the daemon") {
		t.Errorf("search with a token daemon did not ask it: %s", r.stderr)
	}
	if code := d.stop(os.Interrupt); code != 0 {
		t.Errorf("SIGINT: exit %d", code)
	}
}

func TestWatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the watcher")
	}
	home := t.TempDir()
	root := filepath.Join(home, "not-yet") // waited for
	d := startDaemon(t, home, "watch", "--no-default-roots", "--root", root)
	d.waitUntil("watching", func() bool { return strings.Contains(d.stderr.String(), "waiting for it") })
	writeConv(t, filepath.Join(root, "a.json"), conversationJSON("conv-w", "Wombats", "Wombat burrows are long."))
	d.waitUntil("a sync of the new root", func() bool {
		return strings.Contains(d.stderr.String(), "msg=sync") && strings.Contains(d.stderr.String(), "conversations=1")
	})
	// watch keeps the index to itself: a search is refused, and told so,
	// not told that commands go through it.
	r := cs(t, home, "search", "wombat")
	if r.code != 1 || !strings.Contains(r.stderr, "`convsearch watch` keeps the index to itself") || strings.Contains(r.stderr, "`watch` holds the index, other commands go through it") {
		t.Errorf("search while watch runs: exit %d\n%s", r.code, r.stderr)
	}
	if code := d.stop(os.Interrupt); code != 0 {
		t.Fatalf("SIGINT: exit %d\n%s", code, d.stderr.String())
	}
	manifest, err := os.ReadFile(filepath.Join(d.dataDir, "index.json"))
	if err != nil || !strings.Contains(string(manifest), "conv-w") {
		t.Errorf("index.json after stop: %v\n%s", err, manifest)
	}
	r = cs(t, home, "search", "wombat")
	if r.code != 0 || !strings.Contains(r.stdout, "Wombats") {
		t.Errorf("search after watch: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestIndexMissingRootThroughDaemon: with a daemon running, `index` over a
// missing root and a valid one does what it does without one: indexes the
// valid one, names the missing one as a failure, exits 1.
func TestIndexMissingRootThroughDaemon(t *testing.T) {
	home := t.TempDir()
	empty := t.TempDir()
	nope := filepath.Join(t.TempDir(), "nonexist")
	codex, err := filepath.Abs(filepath.Join(examples, "codex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, withDaemon := range []bool{false, true} {
		t.Run(fmt.Sprintf("daemon=%v", withDaemon), func(t *testing.T) {
			home := filepath.Join(home, fmt.Sprint(withDaemon))
			if withDaemon {
				startServe(t, home, empty)
			}
			r := cs(t, home, "index", "--no-default-roots", "--root", nope, "--root", codex)
			if r.code != 1 || !strings.Contains(r.stderr, nope) || !strings.Contains(r.stderr, "could not be read") {
				t.Errorf("exit %d, want 1 naming %s\nstdout %s\nstderr %s", r.code, nope, r.stdout, r.stderr)
			}
			if withDaemon && !strings.Contains(r.stderr, "asking it to index") {
				t.Errorf("not through the daemon: %s", r.stderr)
			}
			if got := stats(t, home, filepath.Join(home, "data", "convsearch"))["conversation"]; got == 0 {
				t.Errorf("the valid root is not indexed")
			}
		})
	}
}

// TestSilentDaemon: a daemon that holds the index but does not answer
// (stopped) is named, with what to do, where a command would have said
// another process holds the index and to run the daemon it is.
func TestSilentDaemon(t *testing.T) {
	home := t.TempDir()
	d := startServe(t, home, examples)
	pid := d.cmd.Process.Pid
	if err := d.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.cmd.Process.Signal(syscall.SIGCONT) })
	// The signal is delivered when the kernel gets to it: a command that
	// found the daemon answering would wait on it forever.
	d.waitUntil("the daemon stopped", func() bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true // no /proc: the signal has long been delivered
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		return len(f) > 0 && f[0] == "T"
	})
	time.Sleep(100 * time.Millisecond)
	for _, args := range [][]string{
		{"stats"},
		{"search", "wombat"},
		{"index", "--no-default-roots", "--root", examples},
		// The two that would hold the index themselves.
		{"serve", "--no-default-roots", "--root", examples, "--addr", "127.0.0.1:0"},
		{"watch", "--no-default-roots", "--root", examples},
	} {
		r := cs(t, home, args...)
		for _, want := range []string{"daemon", "did not answer", fmt.Sprintf("pid %d", pid), d.url, "kill -CONT"} {
			if r.code != 1 || !strings.Contains(r.stderr, want) {
				t.Errorf("%v: exit %d, stderr lacks %q:\n%s", args, r.code, want, r.stderr)
			}
		}
		if strings.Contains(r.stderr, "let it answer: `convsearch serve`") {
			t.Errorf("%v: asks to run the daemon that runs:\n%s", args, r.stderr)
		}
	}
}
