package zed

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/sqlitedb"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

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
			c.Project = loose.ProjectName(p)
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
	var rows []row
	err := sqlitedb.Read(ctx, path, func(tx *sql.Tx, tables map[string]bool) error {
		if !tables["threads"] {
			return parsers.Errorf(path, 0, parsers.ErrShape, "no threads table: not a Zed thread store")
		}
		err := sqlitedb.EachRow(ctx, tx, `SELECT * FROM threads ORDER BY updated_at, id`, func(col sqlitedb.Row) {
			rows = append(rows, row{
				id:          col.Text("id"),
				summary:     col.Text("summary"),
				dataType:    col.Text("data_type"),
				parentID:    col.Text("parent_id"),
				folderPaths: col.Text("folder_paths"),
				data:        col.Bytes("data"),
				// RFC 3339 text as Zed writes it, or Unix seconds in a
				// hand-made store.
				created: col.Time("created_at"),
				updated: col.Time("updated_at"),
			})
		})
		if err != nil {
			return sqlitedb.Error(path, "read threads", err)
		}
		return nil
	})
	return rows, err
}
