// Package sqlitetest plays the tool beside a reader of its SQLite store in
// tests: a writer holding its transaction open, the store's checksum before
// and after, and the side files a reader must not leave.
package sqlitetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/sqlitedb"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Create writes a new database at path as a tool would leave it at rest:
// in journal mode journal (DELETE or WAL), with the statements of schema
// run, and fill (when not nil) adding the rows; it is closed on return, so
// a WAL store has been checkpointed and its -wal removed.
func Create(t testing.TB, path, journal string, schema []string, fill func(db *sql.DB)) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode("+journal+")")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range schema {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if fill != nil {
		fill(db)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// Writer is a connection of the tool's holding a write transaction open.
type Writer struct {
	conn *sql.Conn
	path string
}

// Begin opens a connection to path and begins a write transaction on it:
// "IMMEDIATE" (the tool mid-write, readers still allowed) or "EXCLUSIVE"
// (a commit under way in rollback-journal mode: readers locked out). The
// connection is closed when the test ends.
func Begin(t testing.TB, path, mode string) *Writer {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // nothing may be left open
		conn.Close()
		db.Close()
	})
	w := &Writer{conn: conn, path: path}
	w.Exec(t, "BEGIN "+mode)
	return w
}

// Exec runs q in the open transaction.
func (w *Writer) Exec(t testing.TB, q string, args ...any) {
	t.Helper()
	if _, err := w.conn.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// Read runs read, a reader's pass over the store, while the transaction is
// open, and fails the test if it waited for the writer (half of
// sqlitedb.BusyTimeout or more) or changed a byte of the store.
func (w *Writer) Read(t testing.TB, read func()) {
	t.Helper()
	before := Sum(t, w.path)
	start := time.Now()
	read()
	if d := time.Since(start); d >= sqlitedb.BusyTimeout/2 {
		t.Errorf("the read took %v while a writer was open", d)
	}
	if Sum(t, w.path) != before {
		t.Error("the store changed while it was read")
	}
}

// Conn is the writer's connection, for a test's own insert helpers.
func (w *Writer) Conn() *sql.Conn { return w.conn }

// Commit commits, failing the test if the writer is still blocked 2 s
// later: a reader that has returned must not hold the tool back.
func (w *Writer) Commit(t testing.TB) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := w.conn.ExecContext(context.Background(), "COMMIT")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the writer could not commit after the read: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the writer still blocked 2s after the read returned")
	}
}

// Sum is the checksum of the file at path, to show a read changed no byte.
func Sum(t testing.TB, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

// NotAStore parses, with p, two files named name that are no store: one
// that starts with the SQLite magic and goes on with garbage, and a missing
// one. Each must give an error naming the file, and the missing one must
// not be created. What a valid database without the tool's tables reads
// as differs by tool, and is left to the caller.
func NotAStore(t testing.TB, p parsers.Parser, name string) {
	t.Helper()
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage", name)
	if err := os.MkdirAll(filepath.Dir(garbage), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(garbage, []byte(sqlitedb.Magic+strings.Repeat("x", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing", name)
	for _, path := range []string{garbage, missing} {
		if _, err := p.Parse(context.Background(), path, nil); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file", path, err)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("parsing a missing store created it")
	}
}

// ReadAtRest runs read, a reader's pass over the store at path while no
// tool has it open, and fails the test if read changed a byte of it or
// left a side file beside it. A store that is not at rest to begin with
// (a side file already there) stops the test.
func ReadAtRest(t testing.TB, path string, read func()) {
	t.Helper()
	for _, side := range sideFiles {
		if _, err := os.Stat(path + side); err == nil {
			t.Fatalf("test setup: %s is there before the read", path+side)
		}
	}
	before := Sum(t, path)
	read()
	if Sum(t, path) != before {
		t.Errorf("reading changed %s", path)
	}
	NoSideFiles(t, path)
}

// sideFiles are the suffixes of the files SQLite keeps beside a database.
var sideFiles = []string{"-wal", "-shm", "-journal"}

// NoSideFiles fails the test for each SQLite side file (-wal, -shm,
// -journal) beside path: reading a store at rest must create none.
func NoSideFiles(t testing.TB, path string) {
	t.Helper()
	for _, side := range sideFiles {
		if _, err := os.Stat(path + side); err == nil {
			t.Errorf("reading left %s behind", path+side)
		}
	}
}
