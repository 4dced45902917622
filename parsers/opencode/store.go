package opencode

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/sqlitedb"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

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
	var sessions map[string]*storeSession
	var order []string
	err := sqlitedb.Read(ctx, path, func(tx *sql.Tx, _ map[string]bool) error {
		var err error
		sessions, order, err = readRows(ctx, path, tx)
		return err
	})
	return sessions, order, err
}

// readRows copies the sessions, their messages and the messages' parts.
func readRows(ctx context.Context, path string, tx *sql.Tx) (map[string]*storeSession, []string, error) {
	sessions := map[string]*storeSession{}
	var order []string
	// Columns are picked by name: OpenCode adds columns between versions.
	err := sqlitedb.EachRow(ctx, tx, `SELECT * FROM session ORDER BY time_created, id`, func(row sqlitedb.Row) {
		var s sessionInfo
		id := row.Text("id")
		s.ID = quote(id)
		s.Title = quote(row.Text("title"))
		s.ProjectID = quote(row.Text("project_id"))
		s.Directory = quote(row.Text("directory"))
		if p := row.Text("parent_id"); p != "" {
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
		return nil, nil, sqlitedb.Error(path, "read sessions", err)
	}
	byMessage := map[string]*rawMessage{}
	err = sqlitedb.EachRow(ctx, tx, `SELECT * FROM message ORDER BY session_id, time_created, id`, func(row sqlitedb.Row) {
		s := sessions[row.Text("session_id")]
		if s == nil {
			return // a message of a session being deleted
		}
		var in messageInfo
		_ = json.Unmarshal([]byte(row.Text("data")), &in) // a bad field leaves it empty
		s.msgs = append(s.msgs, rawMessage{id: row.Text("id"), info: in, created: row.Time("time_created")})
	})
	if err != nil {
		return nil, nil, sqlitedb.Error(path, "read messages", err)
	}
	for _, s := range sessions {
		for i := range s.msgs {
			byMessage[s.msgs[i].id] = &s.msgs[i]
		}
	}
	err = sqlitedb.EachRow(ctx, tx, `SELECT * FROM part ORDER BY message_id, id`, func(row sqlitedb.Row) {
		m := byMessage[row.Text("message_id")]
		if m == nil {
			return
		}
		var p part
		if json.Unmarshal([]byte(row.Text("data")), &p) == nil {
			m.parts = append(m.parts, p)
		}
	})
	if err != nil {
		return nil, nil, sqlitedb.Error(path, "read parts", err)
	}
	return sessions, order, nil
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
		return quote(sqlitedb.Text(x))
	}
	return nil
}
