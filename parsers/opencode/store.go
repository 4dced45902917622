package opencode

import (
	"context"
	"database/sql"
	"encoding/json"
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

// busyTimeout is how long a read waits for a writer that holds the store
// exclusively before giving up; the next pass retries.
const busyTimeout = 3 * time.Second

// storeSession is a session row with its messages, copied out.
type storeSession struct {
	info sessionInfo
	msgs []rawMessage
}

// parseStore reads every session of opencode.db. The rows are copied out in
// one read transaction and the database closed before anything is built.
func parseStore(ctx context.Context, path string) (*parsers.Result, error) {
	sessions, order, err := readStore(ctx, path)
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	for _, id := range order {
		s := sessions[id]
		res.AddUnique(build(path, s.info, id, s.msgs), path, 0)
	}
	return res, nil
}

func readStore(ctx context.Context, path string) (map[string]*storeSession, []string, error) {
	db, err := sql.Open("sqlite", dsn(path, quietWAL(path)))
	if err != nil {
		return nil, nil, parsers.Wrap(path, 0, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, storeError(path, "open", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep or lose

	sessions := map[string]*storeSession{}
	var order []string
	// Columns are picked by name: OpenCode adds columns between versions.
	err = eachRow(ctx, tx, `SELECT * FROM session ORDER BY time_created, id`, func(row map[string]any) {
		var s sessionInfo
		id := text(row["id"])
		s.ID = quote(id)
		s.Title = quote(text(row["title"]))
		s.ProjectID = quote(text(row["project_id"]))
		s.Directory = quote(text(row["directory"]))
		if p := text(row["parent_id"]); p != "" {
			s.ParentID = quote(p)
		}
		s.Time.Created = number(row["time_created"])
		s.Time.Updated = number(row["time_updated"])
		if _, dup := sessions[id]; !dup {
			order = append(order, id)
		}
		sessions[id] = &storeSession{info: s}
	})
	if err != nil {
		return nil, nil, storeError(path, "read sessions", err)
	}
	byMessage := map[string]*rawMessage{}
	err = eachRow(ctx, tx, `SELECT * FROM message ORDER BY session_id, time_created, id`, func(row map[string]any) {
		s := sessions[text(row["session_id"])]
		if s == nil {
			return // a message of a session being deleted
		}
		var in messageInfo
		_ = json.Unmarshal([]byte(text(row["data"])), &in) // a bad field leaves it empty
		s.msgs = append(s.msgs, rawMessage{id: text(row["id"]), info: in, created: loose.Time(number(row["time_created"]))})
	})
	if err != nil {
		return nil, nil, storeError(path, "read messages", err)
	}
	for _, s := range sessions {
		for i := range s.msgs {
			byMessage[s.msgs[i].id] = &s.msgs[i]
		}
	}
	err = eachRow(ctx, tx, `SELECT * FROM part ORDER BY message_id, id`, func(row map[string]any) {
		m := byMessage[text(row["message_id"])]
		if m == nil {
			return
		}
		var p part
		if json.Unmarshal([]byte(text(row["data"])), &p) == nil {
			m.parts = append(m.parts, p)
		}
	})
	if err != nil {
		return nil, nil, storeError(path, "read parts", err)
	}
	return sessions, order, nil
}

// eachRow calls fn with every row of q as a map from column name to value.
func eachRow(ctx context.Context, tx *sql.Tx, q string, fn func(map[string]any)) error {
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[c] = vals[i]
		}
		fn(row)
	}
	return rows.Err()
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

func quote(s string) json.RawMessage {
	out, _ := json.Marshal(s)
	return out
}

// number turns an epoch-milliseconds column into JSON for loose.Time.
func number(v any) json.RawMessage {
	switch x := v.(type) {
	case int64:
		return json.RawMessage(fmt.Sprint(x))
	case float64:
		return json.RawMessage(fmt.Sprint(x))
	case time.Time:
		return quote(x.UTC().Format(time.RFC3339Nano))
	case string, []byte:
		return quote(text(x))
	}
	return nil
}

// dsn is the read-only URI for the store at path, as parsers/qclistore
// builds it: mode=ro keeps SQLite from writing, query_only refuses any
// statement that would, busy_timeout bounds the wait for a writer, and
// immutable=1 is used only when the store is in WAL mode with no -wal file
// (then every committed row is in the main file, and a plain read-only open
// would create an empty -wal and -shm beside OpenCode's store).
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

// quietWAL reports whether the store is in WAL mode and has no -wal file.
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

// storeError names the file and what was being done. A file that is not a
// database is a syntax error; a busy or locked one keeps SQLite's words, so
// the caller sees why and retries on the next pass.
func storeError(path, doing string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return parsers.Wrap(path, 0, err)
	}
	msg := err.Error()
	if strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") {
		return parsers.Errorf(path, 0, parsers.ErrSyntax, "%s: %v", doing, err)
	}
	if strings.Contains(msg, "no such table") {
		return parsers.Errorf(path, 0, parsers.ErrShape, "%s: %v", doing, err)
	}
	return &parsers.Error{Path: path, Err: fmt.Errorf("%s: %w", doing, err)}
}
