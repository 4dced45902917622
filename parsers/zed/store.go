package zed

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

	"github.com/klauspost/compress/zstd"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// busyTimeout is how long a read waits for a writer that holds the
// database exclusively before giving up; the next pass retries.
const busyTimeout = 3 * time.Second

// row is one thread row, copied out of the database.
type row struct {
	id, summary, dataType, parentID, folderPaths string
	data                                         []byte
	created, updated                             time.Time
}

// parseStore reads every thread of the store at path.
func parseStore(ctx context.Context, path string) (*parsers.Result, error) {
	rows, err := readRows(ctx, path)
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(loose.MaxFileSize))
	if err != nil {
		return nil, parsers.Wrap(path, 0, err)
	}
	defer dec.Close()
	res := &parsers.Result{}
	for i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := &rows[i]
		c, err := decodeRow(path, r, dec)
		r.data = nil
		if err != nil {
			res.Warn(err)
			continue
		}
		if c != nil {
			res.AddUnique(c, path, 0)
		}
	}
	return res, nil
}

// decodeRow reads one thread; a thread with no message gives nil.
func decodeRow(path string, r *row, dec *zstd.Decoder) (*conversation.Conversation, error) {
	fail := func(kind error, format string, args ...any) error {
		return &parsers.Error{Path: path, Err: fmt.Errorf("%w: thread %q: %s", kind, r.id, fmt.Sprintf(format, args...))}
	}
	data := r.data
	switch strings.ToLower(r.dataType) {
	case "zstd":
		out, err := dec.DecodeAll(data, nil)
		if err != nil {
			return nil, fail(parsers.ErrSyntax, "zstd data: %v", err)
		}
		data = out
	case "json", "":
	default:
		return nil, fail(parsers.ErrShape, "unknown data_type %q", r.dataType)
	}
	c, err := decodeThread(data)
	if err != nil {
		return nil, fail(parsers.ErrSyntax, "%v", err)
	}
	if len(c.Messages) == 0 {
		return nil, nil
	}
	c.ID = r.id
	c.Source = Name
	c.File = path
	if c.Title == "" {
		c.Title = loose.Shorten(r.summary, 200)
	}
	if !r.created.IsZero() {
		c.Date = r.created
	}
	if r.updated.After(c.Updated) {
		c.Updated = r.updated
	}
	if r.parentID != "" {
		c.RelatedConversations = append(c.RelatedConversations, r.parentID)
		for i := range c.Messages {
			c.Messages[i].Sidechain = true
		}
	}
	// folder_paths is PathList's serialization: one path a line.
	for _, p := range strings.Split(r.folderPaths, "\n") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if c.Project == "" {
			if b := filepath.Base(p); b != "." && b != string(filepath.Separator) {
				c.Project = b
			}
		}
		c.Tags = append(c.Tags, "cwd:"+p)
	}
	finish(c)
	if c.ID == "" {
		c.ID = conversation.NewID(Name+"\x00"+c.Title, c.Date)
	}
	return c, nil
}

// readRows copies every thread row out of the store in one read
// transaction and closes the database before anything is decoded.
func readRows(ctx context.Context, path string) ([]row, error) {
	db, err := sql.Open("sqlite", dsn(path, quietWAL(path)))
	if err != nil {
		return nil, parsers.Wrap(path, 0, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, storeError(path, "open", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep or lose

	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'threads'`).Scan(&n); err != nil {
		return nil, storeError(path, "list tables", err)
	}
	if n == 0 {
		return nil, parsers.Errorf(path, 0, parsers.ErrShape, "no threads table: not a Zed thread store")
	}
	var rows []row
	err = eachRow(ctx, tx, `SELECT * FROM threads ORDER BY updated_at, id`, func(col map[string]any) {
		var data []byte
		switch x := col["data"].(type) {
		case []byte:
			data = x
		case string:
			data = []byte(x)
		}
		rows = append(rows, row{
			id:          text(col["id"]),
			summary:     text(col["summary"]),
			dataType:    text(col["data_type"]),
			parentID:    text(col["parent_id"]),
			folderPaths: text(col["folder_paths"]),
			data:        data,
			created:     when(col["created_at"]),
			updated:     when(col["updated_at"]),
		})
	})
	if err != nil {
		return nil, storeError(path, "read threads", err)
	}
	return rows, nil
}

// eachRow runs q and calls fn with each row's columns by name, so a
// column an older schema lacks reads as nil.
func eachRow(ctx context.Context, tx *sql.Tx, q string, fn func(map[string]any)) error {
	rs, err := tx.QueryContext(ctx, q)
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
		col := make(map[string]any, len(names))
		for i, n := range names {
			col[n] = vals[i]
		}
		fn(col)
	}
	return rs.Err()
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

// when reads a time column: RFC 3339 text as Zed writes it, or Unix seconds
// in a hand-made store.
func when(v any) time.Time {
	switch x := v.(type) {
	case int64:
		return loose.Epoch(float64(x))
	case float64:
		return loose.Epoch(x)
	case time.Time:
		return x.UTC()
	case string, []byte:
		t, _ := loose.ParseTime(text(x))
		return t.UTC()
	}
	return time.Time{}
}

// dsn is the read-only URI for the database at path, as parsers/qclistore
// opens its store: mode=ro keeps SQLite from writing (no hot-journal
// rollback, no checkpoint on close), query_only refuses any write,
// busy_timeout bounds the wait for a writer. immutable=1 is added only for
// a WAL store at rest (no -wal), where a plain read-only open would create
// an empty -wal and -shm beside Zed's store.
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

// quietWAL reports whether the store at path is in WAL mode and has no
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

// storeError names the file and what was being done. A busy or locked
// store keeps SQLite's words, so the caller sees why and retries later.
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
