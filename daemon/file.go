package daemon

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/convsearch/convsearch/internal/atomicfile"
)

// Info is what a running daemon writes to its data folder so that
// commands ask it instead of opening the index (Bleve allows one writer).
type Info struct {
	// Addr is the address it listens on (host:port, the real port).
	Addr string `json:"addr"`
	PID  int    `json:"pid"`
	// Token is required by the API and /mcp. The file is readable by its
	// owner only: holding the token is what makes a client the owner.
	Token   string    `json:"token,omitempty"`
	Started time.Time `json:"started"`
	Version string    `json:"version,omitempty"`
	// Build is BuildID(Version): what a client compares with its own.
	// Daemons older than this field wrote none.
	Build string `json:"build,omitempty"`
	// Redaction is the rules the daemon indexes under: "off", or the rule
	// set's version.
	Redaction string `json:"redaction,omitempty"`
	DataDir   string `json:"data_dir"`
}

// ErrNoDaemon means no daemon answers for a data folder.
var ErrNoDaemon = errors.New("no daemon answers")

// InfoFile is where the daemon of data folder dir describes itself.
func InfoFile(dir string) string { return filepath.Join(dir, "daemon.json") }

// URL returns the base URL to reach the daemon from this machine: an
// address listening on every interface is reached on loopback.
func (d *Info) URL() string {
	host, port, err := net.SplitHostPort(d.Addr)
	if err != nil {
		return "http://" + d.Addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// LoginURL returns the link that logs a browser in to the daemon's page:
// the page keeps the token in its own origin's storage, and it leaves the
// address bar at once.
func (d *Info) LoginURL() string {
	if d.Token == "" {
		return d.URL() + "/"
	}
	return d.URL() + "/?token=" + url.QueryEscape(d.Token)
}

// NewToken returns a random token: 32 bytes from crypto/rand, base64url.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// WriteInfo writes info to dir's daemon file atomically, readable by
// its owner only.
func WriteInfo(dir string, info Info) error {
	path := InfoFile(dir)
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o600)
}

// ReadInfo reads dir's daemon file; ErrNoDaemon when there is none. A
// file of another account is refused: its daemon would be told our
// searches and answer what it likes. One that others may read is made
// private again.
func ReadInfo(dir string) (*Info, error) {
	path := InfoFile(dir)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoDaemon
	}
	if err != nil {
		return nil, err // an *fs.PathError: it names the file
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if uid, ok := fileOwner(fi); ok && uid != os.Geteuid() {
		return nil, fmt.Errorf("read %s: %w", path, &ForeignFileError{Path: path, Owner: uid})
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return nil, fmt.Errorf("read %s: readable by others and cannot be made private: %w", path, err)
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, err
	}
	var info Info
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if info.Addr == "" {
		return nil, fmt.Errorf("read %s: no address", path)
	}
	return &info, nil
}

// ForeignFileError is a daemon file that belongs to another account.
type ForeignFileError struct {
	Path  string
	Owner int
}

func (e *ForeignFileError) Error() string {
	return fmt.Sprintf("belongs to user %d, not to you (%d): not trusting it; remove it if no daemon of yours runs", e.Owner, os.Geteuid())
}

// RemoveInfo removes dir's daemon file if it still describes process
// pid (a daemon started since must keep its own).
func RemoveInfo(dir string, pid int) error {
	info, err := ReadInfo(dir)
	if errors.Is(err, ErrNoDaemon) {
		return nil
	}
	if err == nil && info.PID != pid {
		return nil
	}
	if err := os.Remove(InfoFile(dir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// DialTimeout bounds how long Dial waits for a daemon's answer: a command
// that finds none opens the index itself, so waiting long helps nobody.
const DialTimeout = 500 * time.Millisecond

// Dial returns a client of the daemon serving data folder dir, after
// checking that it answers and is the one the daemon file names (a stale
// file may point at a port some other process took since). It fails with
// ErrNoDaemon when none answers; the daemon file's Info comes with it then,
// when there was one, to say which daemon did not answer.
func Dial(ctx context.Context, dir string) (*Client, *Info, error) {
	info, err := ReadInfo(dir)
	if err != nil {
		return nil, nil, err
	}
	c := NewClient(info.URL(), info.Token)
	hctx, cancel := context.WithTimeout(ctx, DialTimeout)
	defer cancel()
	if err := c.Verify(hctx); err != nil {
		c.Close()
		return nil, info, fmt.Errorf("%w: %v", ErrNoDaemon, err)
	}
	h, err := c.Health(hctx)
	if err != nil {
		c.Close()
		return nil, info, fmt.Errorf("%w: %s: %v", ErrNoDaemon, info.URL(), err)
	}
	if h.PID != info.PID || !sameDir(h.DataDir, dir) {
		c.Close()
		return nil, nil, fmt.Errorf("%w: %s is process %d serving %q, not the daemon of %s", ErrNoDaemon, info.URL(), h.PID, h.DataDir, dir)
	}
	return c, info, nil
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}
