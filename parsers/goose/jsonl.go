package goose

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// metadata is the first record of a session file (SessionMetadata).
type metadata struct {
	WorkingDir   json.RawMessage `json:"working_dir"`
	Description  json.RawMessage `json:"description"`
	ScheduleID   json.RawMessage `json:"schedule_id"`
	MessageCount json.RawMessage `json:"message_count"`
}

// titleRunes bounds a title derived from the first prompt.
const titleRunes = 80

// parseJSONL reads one session file. Its name, less .jsonl, is goose's
// session id.
func parseJSONL(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	res := &parsers.Result{}
	c := &conversation.Conversation{
		ID:     strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)),
		Source: Name,
		File:   path,
	}
	var meta metadata
	cv := newConverter()
	lines := &loose.Lines{Path: path, Res: res}
	read := 0 // records read: the metadata is the first, past any damage
	err := loose.EachLine(ctx, path, r, func(n int, line []byte) {
		var msg gooseMessage
		if !lines.DecodeWith(n, line, func(rec []byte) error {
			line = rec // the record past any NUL bytes, for the metadata
			return json.Unmarshal(rec, &msg)
		}) {
			return
		}
		read++
		if len(msg.Role) == 0 {
			if read == 1 && json.Unmarshal(line, &meta) == nil && (len(meta.Description) > 0 || len(meta.MessageCount) > 0 || len(meta.WorkingDir) > 0) {
				return
			}
			res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "line skipped: neither session metadata nor a message"))
			return
		}
		m, err := cv.convert(loose.String(msg.Role), msg.Content, msg.Metadata)
		if err != nil {
			res.Warn(parsers.Errorf(path, n, parsers.ErrShape, "line skipped: %v", err))
			return
		}
		m.ID = loose.String(msg.ID)
		m.Timestamp = loose.Time(msg.Created)
		c.Messages = append(c.Messages, m)
	})
	if err != nil {
		return nil, err
	}
	if len(c.Messages) == 0 {
		return res, nil
	}
	c.Title = loose.Shorten(loose.String(meta.Description), 200)
	finish(c, loose.String(meta.WorkingDir))
	if s := loose.String(meta.ScheduleID); s != "" {
		c.Tags = append(c.Tags, "schedule:"+s)
	}
	res.Conversations = append(res.Conversations, c)
	return res, nil
}

// finish sets what every goose conversation derives from its messages and
// working folder: order, dates, project, and a title when goose gave none.
func finish(c *conversation.Conversation, workingDir string) {
	c.Renumber()
	first, last := conversation.Span(c.Messages)
	if c.Date.IsZero() {
		c.Date = first
	}
	if last.After(c.Updated) {
		c.Updated = last
	}
	if c.Updated.Before(c.Date) {
		c.Updated = c.Date
	}
	if workingDir != "" {
		if p := loose.ProjectName(workingDir); p != "" {
			c.Project = p
		}
		c.Tags = append(c.Tags, "cwd:"+workingDir)
	}
	if c.Title == "" {
		for _, m := range c.Messages {
			if m.Role == conversation.RoleUser && !m.Hidden && strings.TrimSpace(m.Content) != "" {
				c.Title = loose.Title(m.Content, titleRunes)
				break
			}
		}
	}
}
