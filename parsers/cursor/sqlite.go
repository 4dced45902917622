package cursor

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

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// magic starts every SQLite 3 database file.
const magic = "SQLite format 3\x00"

// busyTimeout is how long a read waits for a writer that holds the database
// exclusively before giving up; the ingester retries on its next pass.
const busyTimeout = 3 * time.Second

func isSQLite(head []byte) bool {
	return strings.HasPrefix(string(head[:min(len(head), len(magic))]), magic)
}

// dsn is the read-only URI for the database at path, as parsers/qclistore
// builds it: mode=ro keeps SQLite from writing (no hot-journal rollback, no
// checkpoint on close), query_only refuses any statement that would write,
// busy_timeout bounds the wait for a writer. immutable=1 (no locks, no -wal
// or -shm) only when quiet says every committed row is in the main file, so
// reading never creates side files beside the IDE's database.
func dsn(path string, quiet bool) string {
	p := filepath.ToSlash(path)
	if v := filepath.VolumeName(path); v != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	var b strings.Builder
	if strings.HasPrefix(p, "/") {
		b.WriteString("file://")
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
	fmt.Fprintf(&b, "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(%d)", busyTimeout.Milliseconds())
	if quiet {
		b.WriteString("&immutable=1")
	}
	return b.String()
}

// quietWAL reports whether the database at path is in WAL mode and has no
// -wal file beside it.
func quietWAL(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [20]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:len(magic)]) != magic || (h[18] != 2 && h[19] != 2) {
		return false
	}
	_, err = os.Stat(path + "-wal")
	return errors.Is(err, fs.ErrNotExist)
}

// readTx runs fn in one read transaction (one snapshot) on the database at
// path, opened read-only, and closes it before returning: rows are copied
// out in fn and decoded afterwards, so the tool's writer waits as little as
// SQLite allows.
func readTx(ctx context.Context, path string, fn func(tx *sql.Tx, tables map[string]bool) error) error {
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
		return storeError(path, "open", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep or lose
	rs, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return storeError(path, "list tables", err)
	}
	tables := map[string]bool{}
	for rs.Next() {
		var n string
		if err := rs.Scan(&n); err != nil {
			rs.Close()
			return storeError(path, "list tables", err)
		}
		tables[n] = true
	}
	if err := rs.Close(); err != nil {
		return storeError(path, "list tables", err)
	}
	if err := rs.Err(); err != nil {
		return storeError(path, "list tables", err)
	}
	return fn(tx, tables)
}

// kv is one key/value row copied out of a table.
type kv struct {
	key   string
	value []byte
}

// queryKV copies the rows of a two-column query.
func queryKV(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]kv, error) {
	rs, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []kv
	for rs.Next() {
		var k, v any
		if err := rs.Scan(&k, &v); err != nil {
			return nil, err
		}
		out = append(out, kv{key: text(k), value: []byte(text(v))})
	}
	return out, rs.Err()
}

// text reads a column SQLite may hand back as TEXT, BLOB or a number.
func text(v any) string {
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

// storeError names the file and what was being done. A file that is not a
// database is a syntax error; a busy or locked one keeps SQLite's words, so
// the caller sees why and retries later.
func storeError(path, doing string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	msg := err.Error()
	if strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") {
		return parsers.Errorf(path, 0, parsers.ErrSyntax, "%s: %v", doing, err)
	}
	return &parsers.Error{Path: path, Err: fmt.Errorf("%s: %w", doing, err)}
}
