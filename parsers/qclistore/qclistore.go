// Package qclistore reads the SQLite store in which Amazon Q Developer CLI and
// Kiro CLI keep their conversations, data.sqlite3 in the platform data
// folder. Two tables hold them: `conversations` (key = working directory,
// value = the conversation JSON; one per directory, Q CLI before 1.13) and
// `conversations_v2` (key, conversation_id, value, created_at and updated_at
// in Unix milliseconds; several per directory). The migration to v2 copied
// every old row, so a conversation can be in both: it is read once, from v2.
// Each value is decoded by parsers/qcli.
//
// The store belongs to a running tool. It is opened read-only with
// query_only set, rows are copied out in one short read transaction and the
// connection is closed before any JSON is decoded, so a writer is held up for
// as little time as SQLite allows and the file is never changed.
package qclistore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/qcli"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Name is the family name, used as Conversation.Source.
const Name = "qcli-store"

// FileName is the store's file name in every location.
const FileName = "data.sqlite3"

// magic starts every SQLite 3 database file.
const magic = "SQLite format 3\x00"

// busyTimeout is how long a read waits for a writer that holds the database
// exclusively (a commit in rollback-journal mode) before giving up; the next
// pass retries.
const busyTimeout = 3 * time.Second

// Parser reads the Q CLI / Kiro CLI SQLite store.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
)

// New returns a Parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Amazon Q Developer CLI / Kiro CLI conversation store (SQLite tables conversations and conversations_v2)",
		Detection:   `a file named data.sqlite3 that starts with the SQLite magic "SQLite format 3\0"`,
		Locations: []string{
			"$XDG_DATA_HOME/amazon-q/data.sqlite3 (~/.local/share/amazon-q/data.sqlite3)",
			"$XDG_DATA_HOME/kiro-cli/data.sqlite3 (~/.local/share/kiro-cli/data.sqlite3)",
			"~/Library/Application Support/amazon-q/data.sqlite3 (macOS)",
			"~/Library/Application Support/kiro-cli/data.sqlite3 (macOS)",
			`%LOCALAPPDATA%\amazon-q\data.sqlite3, %LOCALAPPDATA%\kiro-cli\data.sqlite3 (Windows)`,
		},
		Version: 2,
	}
}

// Detect reports whether path is a store: its name and the SQLite magic.
// Whether the tables exist is left to Parse, which must open the database.
func (*Parser) Detect(path string, head []byte) bool {
	return filepath.Base(path) == FileName && strings.HasPrefix(string(head[:min(len(head), len(magic))]), magic)
}

// Companions lists the write-ahead log: in WAL mode new conversations sit
// there, with the main file unchanged, until a checkpoint.
func (*Parser) Companions(path string) []string {
	return []string{path + "-wal"}
}

// DefaultRoots returns the store files of both tools for this platform.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	return roots(runtime.GOOS, home, getenv)
}

// roots is DefaultRoots for a given GOOS: the tools use the platform's local
// data folder (Rust's dirs::data_local_dir).
func roots(goos, home string, getenv func(string) string) []string {
	var base string
	switch goos {
	case "darwin", "ios":
		if home == "" {
			return nil
		}
		base = filepath.Join(home, "Library", "Application Support")
	case "windows":
		base = getenv("LOCALAPPDATA")
		if base == "" && home != "" {
			base = filepath.Join(home, "AppData", "Local")
		}
	default:
		// The XDG spec says a relative value is invalid and must be ignored.
		if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
			base = x
		} else if home != "" {
			base = filepath.Join(home, ".local", "share")
		}
	}
	if base == "" {
		return nil
	}
	return []string{
		filepath.Join(base, "amazon-q", FileName),
		filepath.Join(base, "kiro-cli", FileName),
	}
}

// row is one stored conversation, copied out of the database.
type row struct {
	table   string // conversations_v2 or conversations
	key     string // the working directory the conversation belongs to
	id      string // conversation_id column (v2 only)
	value   []byte
	created time.Time
	updated time.Time
}

func (r row) label() string {
	if r.id != "" {
		return fmt.Sprintf("%s row (key %q, conversation_id %q)", r.table, r.key, r.id)
	}
	return fmt.Sprintf("%s row (key %q)", r.table, r.key)
}

// Parse reads every conversation of the store at path. r is not read: SQLite
// needs the file itself, and its -wal beside it.
func (*Parser) Parse(ctx context.Context, path string, _ io.Reader) (*parsers.Result, error) {
	rows, err := readRows(ctx, path)
	if err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	byID := map[string]int{} // conversation id → index in res.Conversations
	var updated []time.Time  // the row's updated_at, parallel to res.Conversations
	for i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, warnings, err := decodeRow(ctx, path, rows[i])
		rows[i].value = nil // the copy is no longer needed
		for _, w := range warnings {
			res.Warn(w)
		}
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			res.Warn(err)
			continue
		}
		if j, seen := byID[c.ID]; seen {
			// v2 rows come first and win over their v1 copy; between two v2
			// rows (one conversation under two directories) the later wins.
			if rows[i].table == tableV2 && rows[i].updated.After(updated[j]) {
				res.Conversations[j], updated[j] = c, rows[i].updated
			}
			continue
		}
		byID[c.ID] = len(res.Conversations)
		res.Conversations = append(res.Conversations, c)
		updated = append(updated, rows[i].updated)
	}
	return res, nil
}

// decodeRow reads one row's value with the qcli decoder and completes it
// with what the row knows: the directory, the id, the times.
func decodeRow(ctx context.Context, path string, r row) (*conversation.Conversation, []error, error) {
	c, warnings, err := qcli.Decode(ctx, path, r.value)
	for i, w := range warnings {
		warnings[i] = rowError(path, r, w)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, warnings, err
		}
		return nil, warnings, rowError(path, r, err)
	}
	c.Source = Name
	c.File = path
	if p := qcli.ProjectName(r.key); p != "" {
		c.Project = p
	}
	if c.ID == "" {
		c.ID = r.id
	}
	if c.Date.IsZero() {
		c.Date = r.created
	}
	if r.updated.After(c.Updated) {
		c.Updated = r.updated
	}
	if c.Updated.Before(c.Date) {
		c.Updated = c.Date
	}
	if c.ID == "" {
		// Neither the value nor the row has an id: the old table has one
		// conversation per directory, so the directory names it.
		c.ID = conversation.NewID(Name+"\x00"+r.key, c.Date)
	}
	return c, warnings, nil
}

// rowError restates a decoding problem as an error on the store file,
// naming the row; a line number inside the value is kept in the text.
func rowError(path string, r row, err error) error {
	var pe *parsers.Error
	if errors.As(err, &pe) {
		err = pe.Err
		if pe.Line > 0 {
			err = fmt.Errorf("value line %d: %w", pe.Line, pe.Err)
		}
	}
	return &parsers.Error{Path: path, Err: fmt.Errorf("%s: %w", r.label(), err)}
}

const (
	tableV2 = "conversations_v2"
	tableV1 = "conversations"
)

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
	fmt.Fprintf(&b, "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(%d)", busyTimeout.Milliseconds())
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
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:len(magic)]) != magic || (h[18] != 2 && h[19] != 2) {
		return false
	}
	_, err = os.Stat(path + "-wal")
	return errors.Is(err, fs.ErrNotExist)
}

// readRows copies every conversation row out of the store in one read
// transaction (one snapshot of both tables) and closes the database.
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

	tables := map[string]bool{}
	names, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)`, tableV2, tableV1)
	if err != nil {
		return nil, storeError(path, "list tables", err)
	}
	for names.Next() {
		var n string
		if err := names.Scan(&n); err != nil {
			names.Close()
			return nil, storeError(path, "list tables", err)
		}
		tables[n] = true
	}
	if err := names.Close(); err != nil {
		return nil, storeError(path, "list tables", err)
	}
	if err := names.Err(); err != nil {
		return nil, storeError(path, "list tables", err)
	}

	var rows []row
	if tables[tableV2] {
		rows, err = query(ctx, tx, rows, tableV2,
			`SELECT key, conversation_id, value, created_at, updated_at FROM conversations_v2 ORDER BY key, created_at, conversation_id`)
		if err != nil {
			return nil, storeError(path, "read "+tableV2, err)
		}
	}
	if tables[tableV1] {
		rows, err = query(ctx, tx, rows, tableV1,
			`SELECT key, NULL, value, NULL, NULL FROM conversations ORDER BY key`)
		if err != nil {
			return nil, storeError(path, "read "+tableV1, err)
		}
	}
	return rows, nil
}

func query(ctx context.Context, tx *sql.Tx, rows []row, table, q string) ([]row, error) {
	rs, err := tx.QueryContext(ctx, q)
	if err != nil {
		return rows, err
	}
	defer rs.Close()
	for rs.Next() {
		var key, id, created, updated any
		var value []byte
		if err := rs.Scan(&key, &id, &value, &created, &updated); err != nil {
			return rows, err
		}
		rows = append(rows, row{
			table:   table,
			key:     text(key),
			id:      text(id),
			value:   value,
			created: epochMillis(created),
			updated: epochMillis(updated),
		})
	}
	return rows, rs.Err()
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

// epochMillis reads created_at / updated_at: Unix milliseconds as written,
// or whatever else a hand-edited store holds.
func epochMillis(v any) time.Time {
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

// storeError names the file and what was being done. A file that is not a
// database at all is a syntax error; a busy or locked one keeps SQLite's
// words, so the caller sees why and retries on the next pass.
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
