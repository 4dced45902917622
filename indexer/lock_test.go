package indexer

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLockErrorNamesTheFileOnce: a lock file that cannot be opened was
// "lock X: open X: is a directory".
func TestLockErrorNamesTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(LockPath(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := lockDir(dir, time.Millisecond, "index")
	if err == nil {
		l.f.Close()
	}
	if err == nil || strings.Count(err.Error(), LockPath(dir)) != 1 {
		t.Errorf("lockDir = %v, want an error naming %s once", err, LockPath(dir))
	}
}

// TestLockedNamesHolder: a reader or a writer refused the index names the
// process that holds it and the command it runs, with advice that fits
// that command; a lock file of an older writer holds only the pid.
func TestLockedNamesHolder(t *testing.T) {
	pid := strconv.Itoa(os.Getpid())
	cases := []struct {
		holder string
		want   []string
	}{
		{"mcp", []string{"process " + pid + " (`convsearch mcp`, an agent's MCP server)", "run `convsearch serve` so that agents and commands share it"}},
		{"watch", []string{"process " + pid + " (`convsearch watch`)", "`convsearch watch` keeps the index to itself"}},
		{"serve", []string{"process " + pid + " (`convsearch serve`, the daemon)", "kill " + pid}},
		{"index", []string{"process " + pid + " (`convsearch index`)", "wait for it to finish"}},
		{"", []string{"process " + pid + ": the index is in use", lockedAdvice}},
	}
	for _, c := range cases {
		for _, readOnly := range []bool{true, false} {
			dir := t.TempDir()
			w, err := Open(Options{Dir: dir, Holder: c.holder})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Open(Options{Dir: dir, ReadOnly: readOnly, LockTimeout: 100 * time.Millisecond})
			var le *LockedError
			if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.Holder.PID != os.Getpid() || le.Holder.Command != c.holder {
				t.Errorf("holder %q, read-only %v: %v, want a *LockedError naming it", c.holder, readOnly, err)
			}
			for _, want := range c.want {
				if err != nil && !strings.Contains(err.Error(), want) {
					t.Errorf("holder %q, read-only %v: %v, want %q", c.holder, readOnly, err, want)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLockHolderOldFile: a lock file with only a pid (older writers), or
// nothing, still reads.
func TestLockHolderOldFile(t *testing.T) {
	for content, want := range map[string]Holder{
		"123\n":                                  {PID: 123},
		"123\nmcp\n":                             {PID: 123, Command: "mcp"},
		"123                            \nmcp\n": {PID: 123, Command: "mcp"},
		"":                                       {},
		"junk\nmcp\n":                            {},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(LockPath(dir), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := LockHolder(dir); got != want {
			t.Errorf("LockHolder of %q = %+v, want %+v", content, got, want)
		}
	}
}

// oldLockHolder is lockHolder of 5d74388, verbatim: builds up to it read
// the lock file so.
func oldLockHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf("process %d: ", pid)
}

// TestLockFileReadByOldBuilds: the lock file names the holder's pid to
// builds up to 5d74388 (an agent's older mcp beside a newer serve), and
// the pid and the command to this one. The pid and command on two lines
// read as no pid at all to the older builds.
func TestLockFileReadByOldBuilds(t *testing.T) {
	pid := os.Getpid()
	for _, holder := range []string{"", "serve", "mcp", "index", strings.Repeat("x", 200)} {
		dir := t.TempDir()
		l, err := lockDir(dir, time.Second, holder)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(LockPath(dir))
		if err != nil {
			t.Fatal(err)
		}
		old := oldLockHolder(f)
		f.Close()
		got := LockHolder(dir)
		l.unlock()
		if want := fmt.Sprintf("process %d: ", pid); old != want {
			t.Errorf("holder %q: an older build reads %q, want %q", holder, old, want)
		}
		want := Holder{PID: pid, Command: holder}
		if len(holder) > 90 {
			want.Command = "" // too long to fit what is read: left out
		}
		if got != want {
			t.Errorf("holder %q: LockHolder = %+v, want %+v", holder, got, want)
		}
	}
}
