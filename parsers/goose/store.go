package goose

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

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// busyTimeout is how long a read waits for a writer that holds the
// database exclusively before giving up; the next pass retries.
const busyTimeout = 3 * time.Second

// session is one row of the sessions table. Columns come and go with
// goose's schema versions, so the row is read by column name.
type session struct {
	id, name, description, workingDir, sessionType, scheduleID, modelConfig string
	created, updated                                                        time.Time
}

// messageRow is one row of the messages table.
type messageRow struct {
	rowID     int64
	sessionID string
	messageID string
	role      string
	content   []byte
	created   time.Time
	metadata  []byte
}

// parseStore reads every session of the store at path that has messages.
func parseStore(ctx context.Context, path string) (*parsers.Result, error) {
	sessions, rows, err := readStore(ctx, path)
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	byID := map[string]*conversation.Conversation{}
	var order []string
	cvs := map[string]*converter{}
	for _, s := range sessions {
		c := &conversation.Conversation{
			ID:      s.id,
			Source:  Name,
			File:    path,
			Title:   loose.Shorten(firstOf(s.name, s.description), 200),
			Date:    s.created,
			Updated: s.updated,
			Model:   modelName(s.modelConfig),
		}
		byID[s.id] = c
		order = append(order, s.id)
	}
	for i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := &rows[i]
		c := byID[r.sessionID]
		if c == nil {
			// A message whose session row is gone: still a message.
			c = &conversation.Conversation{ID: r.sessionID, Source: Name, File: path}
			byID[r.sessionID] = c
			order = append(order, r.sessionID)
		}
		cv := cvs[r.sessionID]
		if cv == nil {
			cv = newConverter()
			cvs[r.sessionID] = cv
		}
		m, err := cv.convert(r.role, r.content, r.metadata)
		r.content = nil
		if err != nil {
			res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("%w: messages row %d (session %q): %v", parsers.ErrShape, r.rowID, r.sessionID, err)})
			continue
		}
		m.ID = r.messageID
		m.Timestamp = r.created
		c.Messages = append(c.Messages, m)
	}
	info := map[string]session{}
	for _, s := range sessions {
		info[s.id] = s
	}
	for _, id := range order {
		c := byID[id]
		if len(c.Messages) == 0 {
			continue // goose lists no session without messages either
		}
		s := info[id]
		if s.sessionType == "sub_agent" {
			for i := range c.Messages {
				c.Messages[i].Sidechain = true
			}
		}
		finish(c, s.workingDir)
		if s.sessionType != "" && s.sessionType != "user" {
			c.Tags = append(c.Tags, "session_type:"+s.sessionType)
		}
		if s.scheduleID != "" {
			c.Tags = append(c.Tags, "schedule:"+s.scheduleID)
		}
		if c.ID == "" {
			c.ID = conversation.NewID(Name+"\x00"+s.workingDir, c.Date)
		}
		res.AddUnique(c, path, 0)
	}
	return res, nil
}

func firstOf(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// modelName reads model_config_json (goose 1.12 and later): the model the
// session ran with.
func modelName(raw string) string {
	if raw == "" {
		return ""
	}
	var mc struct {
		ModelName json.RawMessage `json:"model_name"`
	}
	if json.Unmarshal([]byte(raw), &mc) != nil {
		return ""
	}
	return loose.String(mc.ModelName)
}

// readStore copies the sessions and messages out of the store in one read
// transaction and closes the database before anything is decoded.
func readStore(ctx context.Context, path string) ([]session, []messageRow, error) {
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

	tables, err := tableNames(ctx, tx)
	if err != nil {
		return nil, nil, storeError(path, "list tables", err)
	}
	if !tables["messages"] {
		return nil, nil, parsers.Errorf(path, 0, parsers.ErrShape, "no messages table: not a goose session store")
	}
	var sessions []session
	if tables["sessions"] {
		err = eachRow(ctx, tx, `SELECT * FROM sessions ORDER BY rowid`, func(col map[string]any) {
			sessions = append(sessions, session{
				id:          text(col["id"]),
				name:        text(col["name"]),
				description: text(col["description"]),
				workingDir:  text(col["working_dir"]),
				sessionType: text(col["session_type"]),
				scheduleID:  text(col["schedule_id"]),
				modelConfig: text(col["model_config_json"]),
				created:     when(col["created_at"]),
				updated:     when(col["updated_at"]),
			})
		})
		if err != nil {
			return nil, nil, storeError(path, "read sessions", err)
		}
	}
	var rows []messageRow
	// id is the insertion order: goose appends messages and rewrites a
	// whole conversation in order when it replaces one.
	err = eachRow(ctx, tx, `SELECT * FROM messages ORDER BY session_id, id`, func(col map[string]any) {
		id, _ := col["id"].(int64)
		rows = append(rows, messageRow{
			rowID:     id,
			sessionID: text(col["session_id"]),
			messageID: text(col["message_id"]),
			role:      text(col["role"]),
			content:   []byte(text(col["content_json"])),
			created:   when(col["created_timestamp"]),
			metadata:  []byte(text(col["metadata_json"])),
		})
	})
	if err != nil {
		return nil, nil, storeError(path, "read messages", err)
	}
	return sessions, rows, nil
}

func tableNames(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rs, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	tables := map[string]bool{}
	for rs.Next() {
		var n string
		if err := rs.Scan(&n); err != nil {
			return nil, err
		}
		tables[n] = true
	}
	return tables, rs.Err()
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

// when reads a time column: created_timestamp is Unix seconds; created_at
// and updated_at are SQLite's "YYYY-MM-DD HH:MM:SS" (UTC) or chrono's RFC
// 3339 text.
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
// an empty -wal and -shm beside goose's store.
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
