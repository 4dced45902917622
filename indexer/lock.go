package indexer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockPath is the writer lock of data folder dir. Every process that may
// create, remove, rebuild or write the index holds it from before it touches
// anything until it closes the index: Bleve's own lock is taken only once an
// index exists, too late to keep two processes from removing or creating one
// under each other.
func LockPath(dir string) string { return filepath.Join(dir, "lock") }

// dirLock is a held writer lock.
type dirLock struct{ f *os.File }

// lockDir takes dir's writer lock, waiting up to timeout for another
// process to let it go; then it fails with a *LockedError (ErrLocked),
// naming the holder. holder is the command taking it ("index", "mcp"…),
// written to the lock file beside the pid for the message another process
// gives.
func lockDir(dir string, timeout time.Duration, holder string) (*dirLock, error) {
	path := LockPath(dir)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("take the writer lock: %w", err) // an *fs.PathError: it names the file
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			h := readHolder(f)
			f.Close()
			return nil, &LockedError{Holder: h}
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The holder's pid and command, for the message another process gives.
	if err := f.Truncate(0); err == nil {
		f.WriteAt(holderFile(os.Getpid(), holder), 0)
	}
	return &dirLock{f: f}, nil
}

// oldHolderBytes is how much of the lock file builds up to 5d74388 read:
// they take it whole, trimmed of spaces, as the pid.
const oldHolderBytes = 32

// holderFile is the lock file of process pid running command holder: the
// pid padded with spaces to a line of oldHolderBytes, which older builds
// read as the pid alone, then the command on a line of its own, past what
// they read. Without a command it is the pid's line, as they wrote it.
func holderFile(pid int, holder string) []byte {
	line := strconv.Itoa(pid)
	if holder = strings.TrimSpace(holder); holder == "" || strings.ContainsAny(holder, "\n\r") || len(holder) > holderBytes-oldHolderBytes-1 {
		return []byte(line + "\n")
	}
	return []byte(fmt.Sprintf("%-*s\n%s\n", oldHolderBytes-1, line, holder))
}

// Holder is the process that holds a data folder's writer lock, as its
// lock file says: the pid, and the command ("index", "watch", "serve",
// "mcp", "search") when the writer recorded it (older ones wrote only the
// pid). The zero Holder is one the file does not name.
type Holder struct {
	PID     int
	Command string
}

// LockHolder reads who holds dir's writer lock from its lock file. It
// does not check that the lock is held: a caller refused the index asks.
func LockHolder(dir string) Holder {
	f, err := os.Open(LockPath(dir))
	if err != nil {
		return Holder{}
	}
	defer f.Close()
	return readHolder(f)
}

// holderBytes is as much of a lock file as readHolder reads.
const holderBytes = 128

// readHolder parses a lock file: "PID\n" (older builds), "PID\nCOMMAND\n"
// (from f9cdc2e), or "PID<spaces>\nCOMMAND\n" (holderFile): the pid's line
// trimmed of spaces, then the command's.
func readHolder(f *os.File) Holder {
	b := make([]byte, holderBytes)
	n, _ := f.ReadAt(b, 0)
	lines := strings.SplitN(string(b[:n]), "\n", 3)
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || pid <= 0 {
		return Holder{}
	}
	h := Holder{PID: pid}
	if len(lines) > 1 {
		h.Command = strings.TrimSpace(lines[1])
	}
	return h
}

// String names the holder: "process 123 (`convsearch mcp`, an agent's MCP
// server)", "process 123" when the command is not known, "" when the pid
// is not either.
func (h Holder) String() string {
	if h.PID <= 0 {
		return ""
	}
	switch h.Command {
	case "":
		return fmt.Sprintf("process %d", h.PID)
	case "mcp":
		return fmt.Sprintf("process %d (`convsearch mcp`, an agent's MCP server)", h.PID)
	case "serve":
		return fmt.Sprintf("process %d (`convsearch serve`, the daemon)", h.PID)
	}
	return fmt.Sprintf("process %d (`convsearch %s`)", h.PID, h.Command)
}

// advice is what a process refused the index by h can do.
func (h Holder) advice() string {
	switch h.Command {
	case "mcp":
		return "it keeps the index for as long as the agent's session lasts: run `convsearch serve` so that agents and commands share it"
	case "watch":
		return "a `convsearch watch` keeps the index to itself: stop it, or run `convsearch serve` instead, which keeps the index in line too and lets other commands go through it"
	case "serve":
		return fmt.Sprintf("other commands go through it once it answers: if it is starting, try again; if it does not answer, restart it (`kill %d`, then `convsearch serve`)", h.PID)
	case "":
		return lockedAdvice
	}
	// index, or a command's pass over --root folders: it finishes.
	return "a pass over the files: wait for it to finish, then try again; a `convsearch serve` would let commands go through it meanwhile"
}

// LockedError is the index held by another process: errors.Is(err,
// ErrLocked). Its message names the holder, when known, and what to do.
type LockedError struct{ Holder Holder }

func (e *LockedError) Error() string {
	prefix := e.Holder.String()
	if prefix != "" {
		prefix += ": "
	}
	return fmt.Sprintf("%s%v (%s)", prefix, ErrLocked, e.Holder.advice())
}

func (e *LockedError) Unwrap() error { return ErrLocked }

func (l *dirLock) unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := errors.Join(unlockFile(l.f), l.f.Close())
	l.f = nil
	return err
}
