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
	"path/filepath"
	"runtime"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/qcli"
	"github.com/convsearch/convsearch/parsers/sqlitedb"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Name is the family name, used as Conversation.Source.
const Name = "qcli-store"

// FileName is the store's file name in every location.
const FileName = "data.sqlite3"

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
		Version: 4, // 4: a torn conversation value keeps its complete history entries
	}
}

// Detect reports whether path is a store: its name and the SQLite magic.
// Whether the tables exist is left to Parse, which must open the database.
func (*Parser) Detect(path string, head []byte) bool {
	return filepath.Base(path) == FileName && sqlitedb.IsSQLite(head)
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
	base := parsers.LocalDataDir(goos, home, getenv)
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
	if p := loose.ProjectName(r.key); p != "" {
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

// readRows copies every conversation row out of the store in one read
// transaction (one snapshot of both tables) and closes the database.
func readRows(ctx context.Context, path string) ([]row, error) {
	var rows []row
	err := sqlitedb.Read(ctx, path, func(tx *sql.Tx, tables map[string]bool) error {
		for _, t := range []struct{ table, query string }{
			{tableV2, `SELECT key, conversation_id, value, created_at, updated_at FROM conversations_v2 ORDER BY key, created_at, conversation_id`},
			{tableV1, `SELECT key, NULL AS conversation_id, value, NULL AS created_at, NULL AS updated_at FROM conversations ORDER BY key`},
		} {
			if !tables[t.table] {
				continue
			}
			err := sqlitedb.EachRow(ctx, tx, t.query, func(col sqlitedb.Row) {
				rows = append(rows, row{
					table:   t.table,
					key:     col.Text("key"),
					id:      col.Text("conversation_id"),
					value:   col.Bytes("value"),
					created: col.Time("created_at"),
					updated: col.Time("updated_at"),
				})
			})
			if err != nil {
				return sqlitedb.Error(path, "read "+t.table, err)
			}
		}
		return nil
	})
	return rows, err
}
