package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
)

// startRealDaemon starts the daemon as serve does, on a free loopback port
// with no token given, over root; data is its data folder.
func startRealDaemon(t *testing.T, data, root string) *Daemon {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := Start(ctx, Options{Store: StoreOptions{Dir: data}, Roots: []string{root}, Addr: "127.0.0.1:0", Version: "test"})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := d.Stop(); err != nil {
			t.Error(err)
		}
	})
	return d
}

func TestDaemonAlwaysHasToken(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	convtest.WriteAtomic(filepath.Join(root, "a.json"), convtest.Portable("conv-a", "Okapis", "Okapis have long tongues."))
	d := startRealDaemon(t, data, root)
	info, err := ReadInfo(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Token) != 43 || info.Token != d.Info().Token {
		t.Errorf("token %q in daemon.json, want 32 random bytes in base64url (and the daemon's)", info.Token)
	}
	if fi, err := os.Stat(InfoFile(data)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("daemon.json: %v, mode %v, want 0600", err, fi.Mode())
	}
	for _, tc := range []struct {
		path, auth string
		want       int
	}{
		{"/api/stats", "", http.StatusUnauthorized},
		{"/api/stats", "Bearer " + info.Token, http.StatusOK},
		{"/api/status", "", http.StatusUnauthorized},
		{"/mcp", "", http.StatusUnauthorized},
		{"/", "", http.StatusOK},
	} {
		req, _ := http.NewRequest("GET", d.URL()+tc.path, nil)
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("GET %s (auth %v): HTTP %d, want %d", tc.path, tc.auth != "", resp.StatusCode, tc.want)
		}
	}
	// Clients find the token in daemon.json.
	c, _, err := Dial(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Stats(context.Background()); err != nil {
		t.Errorf("stats through Dial's client: %v", err)
	}
	// The login link serves the page and sets no cookie: the page keeps
	// the token, per origin, and sends it as a bearer token.
	resp, err := http.Get(info.LoginURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(resp.Cookies()) > 0 {
		t.Errorf("the login link: HTTP %d, cookies %v; want the page and no cookie", resp.StatusCode, resp.Cookies())
	}
}

// TestDialStaleDaemonFile: a daemon.json left by a daemon that died names
// a port another program may hold now. Dial proves the token before it
// sends it: an impostor that knows the pid and the data folder (ps tells
// both) gets neither the token nor a search, and Dial finds no daemon.
func TestDialStaleDaemonFile(t *testing.T) {
	data := t.TempDir()
	const token = "the-real-token"
	var mu sync.Mutex
	var seen []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"status": "ok", "ready": true, "pid": 4242, "data_dir": data, "proof": "00"})
	}))
	defer fake.Close()
	if err := WriteInfo(data, Info{Addr: strings.TrimPrefix(fake.URL, "http://"), PID: 4242, Token: token, DataDir: data}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Dial(context.Background(), data)
	if !errors.Is(err, ErrNoDaemon) {
		t.Errorf("Dial to an impostor: %v, want ErrNoDaemon", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		if strings.Contains(s, token) {
			t.Errorf("the impostor was sent the token: %s", s)
		}
		if !strings.HasPrefix(s, "GET /healthz") {
			t.Errorf("the impostor was asked more than its proof: %s", s)
		}
	}
	if len(seen) == 0 {
		t.Error("Dial asked the impostor nothing: the test proves nothing")
	}
}

func TestReadInfoMode(t *testing.T) {
	dir := t.TempDir()
	if err := WriteInfo(dir, Info{Addr: "127.0.0.1:1", PID: 1, Token: "t", DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	// A file others may read (an older version, a careless copy) is made
	// private again.
	if err := os.Chmod(InfoFile(dir), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadInfo(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(InfoFile(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("daemon.json after reading: %v, mode %v, want 0600", err, fi.Mode())
	}
}

// probeUser is the second account TestOtherUser creates.
const probeUser = "convsearch-probe"

// otherUser returns the uid and gid of a second account, creating it when
// the test runs as root; it skips otherwise (CI runs as root).
func otherUser(t *testing.T) (uid, gid uint32) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to create a second account and act as it")
	}
	u, err := user.Lookup(probeUser)
	if err != nil {
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", probeUser).CombinedOutput()
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("useradd %s: %v: %s", probeUser, err, out)
			}
			t.Skipf("useradd %s: %v: %s", probeUser, err, out)
		}
		t.Cleanup(func() { _ = exec.Command("userdel", probeUser).Run() })
		if u, err = user.Lookup(probeUser); err != nil {
			t.Fatal(err)
		}
	}
	id, _ := strconv.ParseUint(u.Uid, 10, 32)
	g, _ := strconv.ParseUint(u.Gid, 10, 32)
	return uint32(id), uint32(g)
}

// Probes of the second account, keyed by what was tried; each value is an
// HTTP status or "error: …".
type probes map[string]string

// TestOtherUser runs a daemon as this account, and an attacker as a second
// account: this test binary again, under that account's uid, running
// TestOtherUserChild. It must learn nothing and make the daemon read
// nothing.
func TestOtherUser(t *testing.T) {
	uid, gid := otherUser(t)
	// Folders the second account may enter, so that only the rights of
	// the files themselves keep it out (the data folder of an older
	// version was 0755).
	base, err := os.MkdirTemp("", "convsearch-auth-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	data, root, private := filepath.Join(base, "data"), filepath.Join(base, "convs"), filepath.Join(base, "private")
	for _, dir := range []string{base, data, root} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, 0o755)
	}
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	convtest.WriteAtomic(filepath.Join(root, "a.json"), convtest.Portable("conv-a", "Okapis", "Okapis have long tongues; the key is hunter2."))
	convtest.WriteAtomic(filepath.Join(private, "p.json"), convtest.Portable("conv-p", "Private", "The vault word is zanzibarite."))
	d := startRealDaemon(t, data, root)
	os.Chmod(data, 0o755)
	if err := d.Keeper().WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}

	// The test binary, where the second account can run it.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := filepath.Join(base, "daemon.test")
	if err := copyFile(exe, child, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(child, "-test.run=^TestOtherUserChild$", "-test.count=1")
	cmd.Dir = base
	cmd.Env = []string{"CONVSEARCH_PROBE_URL=" + d.URL(), "CONVSEARCH_PROBE_DATA=" + data, "CONVSEARCH_PROBE_PRIVATE=" + private, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the second account's probe: %v\n%s", err, out)
	}
	var got probes
	for line := range strings.SplitSeq(string(out), "\n") {
		if js, ok := strings.CutPrefix(line, "PROBES "); ok {
			if err := json.Unmarshal([]byte(js), &got); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got == nil {
		t.Fatalf("no probes in the child's output:\n%s", out)
	}
	for _, tc := range []struct{ probe, want string }{
		{"read daemon.json", "permission denied"},
		{"dial", "permission denied"},
		{"GET /api/search", "401"},
		{"GET /api/conversations/conv-a", "401"},
		{"GET /api/decisions", "401"},
		{"GET /api/status", "401"},
		{"POST /api/sync", "401"},
		{"POST /mcp initialize", "401"},
		{"GET /?token=guess sets a cookie", "false"},
		{"GET /healthz tells who", "false"},
	} {
		if g := got[tc.probe]; !strings.Contains(g, tc.want) {
			t.Errorf("second account, %s: %q, want %q", tc.probe, g, tc.want)
		}
	}
	t.Logf("second account (uid %d): %v", uid, got)
	// The private folder was never read.
	res, err := d.Client().Search(context.Background(), query.Request{Query: "zanzibarite"})
	if err != nil || res.Total != 0 {
		t.Errorf("the private folder got indexed: %v, %+v", err, res)
	}
	// The owner, who holds the token, may have it read.
	if _, err := d.Client().Sync(context.Background(), []string{private}); err != nil {
		t.Fatal(err)
	}
	if res, err := d.Client().Search(context.Background(), query.Request{Query: "zanzibarite"}); err != nil || res.Total == 0 {
		t.Errorf("the owner's sync of the private folder: %v, %+v", err, res)
	}

	// A daemon file of another account is not trusted.
	if err := os.Chown(InfoFile(data), int(uid), int(gid)); err != nil {
		t.Fatal(err)
	}
	var fe *ForeignFileError
	if _, err := ReadInfo(data); !errors.As(err, &fe) || fe.Owner != int(uid) {
		t.Errorf("read a daemon.json of uid %d: %v, want a ForeignFileError", uid, err)
	}
}

// TestOtherUserChild is the second account's side of TestOtherUser.
func TestOtherUserChild(t *testing.T) {
	base := os.Getenv("CONVSEARCH_PROBE_URL")
	if base == "" {
		t.Skip("run by TestOtherUser as a second account")
	}
	data, private := os.Getenv("CONVSEARCH_PROBE_DATA"), os.Getenv("CONVSEARCH_PROBE_PRIVATE")
	got := probes{}
	errText := func(err error) string { return "error: " + err.Error() }
	if _, err := os.ReadFile(InfoFile(data)); err != nil {
		got["read daemon.json"] = errText(err)
	} else {
		got["read daemon.json"] = "read it"
	}
	if c, _, err := Dial(context.Background(), data); err != nil {
		got["dial"] = errText(err)
	} else {
		c.Close()
		got["dial"] = "connected"
	}
	hc := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path, body string, header ...string) (*http.Response, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, errText(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	status := func(method, path, body string, header ...string) string {
		resp, text := do(method, path, body, header...)
		if resp == nil {
			return text
		}
		return strconv.Itoa(resp.StatusCode)
	}
	got["GET /api/search"] = status("GET", "/api/search?q=hunter2", "")
	got["GET /api/conversations/conv-a"] = status("GET", "/api/conversations/conv-a", "")
	got["GET /api/decisions"] = status("GET", "/api/decisions", "")
	got["GET /api/status"] = status("GET", "/api/status", "")
	got["POST /api/sync"] = status("POST", "/api/sync", fmt.Sprintf(`{"roots":[%q]}`, private), "Content-Type", "application/json")
	got["POST /mcp initialize"] = status("POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	if resp, _ := do("GET", "/?token=guess", ""); resp != nil {
		got["GET /?token=guess sets a cookie"] = strconv.FormatBool(len(resp.Cookies()) > 0)
	}
	if _, body := do("GET", "/healthz", ""); body != "" {
		got["GET /healthz tells who"] = strconv.FormatBool(strings.Contains(body, data) || strings.Contains(body, `"pid"`))
	}
	b, _ := json.Marshal(got)
	fmt.Printf("PROBES %s\n", b)
}

func copyFile(from, to string, perm os.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// TestReadInfoErrorNamesTheFileOnce: "read X: read X: is a directory" was
// the error of a daemon.json that cannot be read.
func TestReadInfoErrorNamesTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(InfoFile(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := ReadInfo(dir)
	if err == nil || strings.Count(err.Error(), InfoFile(dir)) != 1 {
		t.Errorf("ReadInfo = %v, want an error naming %s once", err, InfoFile(dir))
	}
}
