package goose

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/sqlitedb"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

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
	// One entry per session, in the sessions' order, then per orphan
	// session id in the messages' order.
	type entry struct {
		s  session
		c  *conversation.Conversation
		cv *converter
	}
	byID := map[string]*entry{}
	var order []*entry
	add := func(s session, c *conversation.Conversation) *entry {
		e := &entry{s: s, c: c, cv: newConverter()}
		byID[s.id] = e
		order = append(order, e)
		return e
	}
	for _, s := range sessions {
		add(s, &conversation.Conversation{
			ID:      s.id,
			Source:  Name,
			File:    path,
			Title:   loose.Shorten(loose.FirstText(s.name, s.description), 200),
			Date:    s.created,
			Updated: s.updated,
			Model:   modelName(s.modelConfig),
		})
	}
	res := &parsers.Result{}
	for i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := &rows[i]
		e := byID[r.sessionID]
		if e == nil {
			// A message whose session row is gone: still a message.
			e = add(session{id: r.sessionID}, &conversation.Conversation{ID: r.sessionID, Source: Name, File: path})
		}
		m, err := e.cv.convert(r.role, r.content, r.metadata)
		r.content = nil
		if err != nil {
			res.Warn(&parsers.Error{Path: path, Err: fmt.Errorf("%w: messages row %d (session %q): %v", parsers.ErrShape, r.rowID, r.sessionID, err)})
			continue
		}
		m.ID = r.messageID
		m.Timestamp = r.created
		e.c.Messages = append(e.c.Messages, m)
	}
	for _, e := range order {
		c, s := e.c, e.s
		if len(c.Messages) == 0 {
			continue // goose lists no session without messages either
		}
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
	var sessions []session
	var rows []messageRow
	err := sqlitedb.Read(ctx, path, func(tx *sql.Tx, tables map[string]bool) error {
		if !tables["messages"] {
			return parsers.Errorf(path, 0, parsers.ErrShape, "no messages table: not a goose session store")
		}
		if tables["sessions"] {
			err := sqlitedb.EachRow(ctx, tx, `SELECT * FROM sessions ORDER BY rowid`, func(col sqlitedb.Row) {
				sessions = append(sessions, session{
					id:          col.Text("id"),
					name:        col.Text("name"),
					description: col.Text("description"),
					workingDir:  col.Text("working_dir"),
					sessionType: col.Text("session_type"),
					scheduleID:  col.Text("schedule_id"),
					modelConfig: col.Text("model_config_json"),
					// SQLite's "YYYY-MM-DD HH:MM:SS" (UTC) or chrono's RFC 3339.
					created: col.Time("created_at"),
					updated: col.Time("updated_at"),
				})
			})
			if err != nil {
				return sqlitedb.Error(path, "read sessions", err)
			}
		}
		// id is the insertion order: goose appends messages and rewrites a
		// whole conversation in order when it replaces one.
		err := sqlitedb.EachRow(ctx, tx, `SELECT * FROM messages ORDER BY session_id, id`, func(col sqlitedb.Row) {
			id, _ := col["id"].(int64)
			rows = append(rows, messageRow{
				rowID:     id,
				sessionID: col.Text("session_id"),
				messageID: col.Text("message_id"),
				role:      col.Text("role"),
				content:   col.Bytes("content_json"),
				created:   col.Time("created_timestamp"), // Unix seconds
				metadata:  col.Bytes("metadata_json"),
			})
		})
		if err != nil {
			return sqlitedb.Error(path, "read messages", err)
		}
		return nil
	})
	return sessions, rows, err
}
