// Package sqlitedb reads the SQLite databases other tools keep their
// conversations in (Kiro and Amazon Q CLI, Cursor, Goose, Zed, OpenCode)
// the one way that is safe while the tool runs: read-only, in one short
// read transaction, never writing, never creating side files beside a
// store at rest, and never holding the tool's writer back for long. A store
// that is locked or mid-write gives an error naming the file; the ingester
// tries again on its next pass.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Magic starts every SQLite 3 database file.
const Magic = "SQLite format 3\x00"

// BusyTimeout is how long a read waits for a writer that holds the database
// exclusively before giving up.
const BusyTimeout = 3 * time.Second

// IsSQLite reports whether head starts with the SQLite magic.
func IsSQLite(head []byte) bool {
	return strings.HasPrefix(string(head[:min(len(head), len(Magic))]), Magic)
}

// Read opens the database at path read-only, runs fn in one read
// transaction (one snapshot) with the names of its tables, and closes it
// before returning. fn should copy the rows out and leave decoding for
// after, so that the tool's writer waits as little as SQLite allows.
func Read(ctx context.Context, path string, fn func(tx *sql.Tx, tables map[string]bool) error) error {
	if _, err := os.Stat(path); err != nil {
		return parsers.Wrap(path, 0, err) // never let SQLite create a missing file
	}
	db, err := sql.Open("sqlite", dsn(path, quietWAL(path)))
	if err != nil {
		return parsers.Wrap(path, 0, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Error(path, "open", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep or lose
	tables := map[string]bool{}
	err = EachRow(ctx, tx, `SELECT name FROM sqlite_master WHERE type = 'table'`, func(col Row) {
		tables[col.Text("name")] = true
	})
	if err != nil {
		return Error(path, "list tables", err)
	}
	return fn(tx, tables)
}

// Row is one row's columns by name. A column an older schema lacks reads
// as nil, so a reader copes with every version of a tool's schema.
type Row map[string]any

// Text reads column name, which SQLite may hand back as TEXT, BLOB or a
// number ("" when absent or NULL).
func (r Row) Text(name string) string { return Text(r[name]) }

// Bytes reads column name as bytes: a BLOB as it is, TEXT or a number as
// its text (empty when absent or NULL).
func (r Row) Bytes(name string) []byte { return Bytes(r[name]) }

// Time reads column name as a time: Unix seconds or milliseconds, or text
// in any layout loose.ParseTime knows (RFC 3339, SQLite's
// "YYYY-MM-DD HH:MM:SS"). The zero time when absent or unreadable.
func (r Row) Time(name string) time.Time {
	switch x := r[name].(type) {
	case int64:
		return loose.Epoch(float64(x))
	case float64:
		return loose.Epoch(x)
	case time.Time:
		return x.UTC()
	case string, []byte:
		t, _ := loose.ParseTime(Text(x))
		return t.UTC()
	}
	return time.Time{}
}

// EachRow runs q (with args) in tx and calls fn with each row.
func EachRow(ctx context.Context, tx *sql.Tx, q string, fn func(Row), args ...any) error {
	rs, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rs.Close()
	names, err := rs.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return err
		}
		col := make(Row, len(names))
		for i, n := range names {
			col[n] = vals[i]
		}
		fn(col)
	}
	return rs.Err()
}

// Text reads a value SQLite may hand back as TEXT, BLOB or a number.
func Text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// Bytes reads a value SQLite may hand back as BLOB, TEXT or a number: a
// BLOB as it is (database/sql hands each scan its own copy), anything else
// as its text (empty for NULL).
func Bytes(v any) []byte {
	if b, ok := v.([]byte); ok {
		return b
	}
	return []byte(Text(v))
}

// Error names the file and what was being done. A file that is not a
// database, or is damaged, is a syntax error; one without the tables
// asked for is of the wrong shape; a busy or locked one keeps SQLite's
// words, so the caller sees why and retries later. Cancellation still
// says whose read it cut short, and stays context.Canceled for errors.Is.
func Error(path, doing string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return parsers.Wrap(path, 0, err)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed"):
		return parsers.Errorf(path, 0, parsers.ErrSyntax, "%s: %v", doing, err)
	case strings.Contains(msg, "no such table"):
		return parsers.Errorf(path, 0, parsers.ErrShape, "%s: %v", doing, err)
	}
	return &parsers.Error{Path: path, Err: fmt.Errorf("%s: %w", doing, err)}
}

// dsn is the read-only URI for the database at path. mode=ro keeps SQLite
// from writing (no hot-journal rollback, no checkpoint on close);
// query_only refuses any statement that would write; busy_timeout bounds
// the wait for a writer.
//
// immutable=1 (no locks, no -wal or -shm) is used only when quiet says the
// store is in WAL mode with no -wal file: then every committed row is in the
// main file, and a plain read-only open would create an empty -wal and -shm
// beside the tool's store (or fail where the folder is not writable). Should
// the tool start writing during that short read, it creates the -wal, a
// companion, so the store is read again.
func dsn(path string, quiet bool) string {
	p := filepath.ToSlash(path)
	if v := filepath.VolumeName(path); v != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x, as SQLite URIs want
	}
	var b strings.Builder
	if strings.HasPrefix(p, "/") {
		b.WriteString("file://") // empty authority, then the absolute path
	} else {
		b.WriteString("file:")
	}
	for _, r := range p {
		switch r {
		case '%', '?', '#':
			fmt.Fprintf(&b, "%%%02X", r)
		default:
			b.WriteRune(r)
		}
	}
	fmt.Fprintf(&b, "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(%d)", BusyTimeout.Milliseconds())
	if quiet {
		b.WriteString("&immutable=1")
	}
	return b.String()
}

// quietWAL reports whether the store at path is in WAL mode (file format
// versions at offsets 18 and 19 are 2) and has no -wal file beside it.
func quietWAL(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [20]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:len(Magic)]) != Magic || (h[18] != 2 && h[19] != 2) {
		return false
	}
	_, err = os.Stat(path + "-wal")
	return errors.Is(err, fs.ErrNotExist)
}
