package query

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
)

// Load returns conversation id whole. It reads the conversation's source
// file again with the parser that indexed it, so every detail is there (tool
// calls, thinking, attachments); when the file is gone or no longer parses,
// it rebuilds the conversation from the index's stored text and says so in
// fromIndex.
func (e *Engine) Load(ctx context.Context, reg *parsers.Registry, id string) (c *conversation.Conversation, fromIndex bool, err error) {
	info, err := e.Conversation(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if reg != nil {
		if c, err := parseAgain(ctx, reg, info, id); err == nil {
			return c, false, nil
		} else if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, false, err
		}
	}
	msgs, err := e.Messages(ctx, id, 0, max(info.Messages-1, 0))
	if err != nil {
		return nil, false, err
	}
	c = &conversation.Conversation{ID: info.ID, Source: info.Source, File: info.File, Title: info.Title, Date: info.Date, Project: info.Project, Tags: info.Tags}
	for _, t := range info.Topics {
		c.Topics = append(c.Topics, conversation.Topic{Name: t})
	}
	for _, m := range msgs {
		c.Messages = append(c.Messages, conversation.Message{Index: m.Index, Role: conversation.Role(m.Role), Content: m.Content, Timestamp: m.Timestamp, Hidden: m.Hidden})
	}
	return c, true, nil
}

func parseAgain(ctx context.Context, reg *parsers.Registry, info *ConversationInfo, id string) (*conversation.Conversation, error) {
	p := reg.Lookup(info.Source)
	if p == nil {
		return nil, fmt.Errorf("no parser %q", info.Source)
	}
	_, res, err := reg.ParseFile(ctx, info.File, p)
	if err != nil {
		return nil, err
	}
	// The index may hold the conversation under id~<suffix> when two files
	// carry the same conversation.
	native, _, _ := strings.Cut(id, "~")
	for _, c := range res.Conversations {
		if c.ID == native {
			c.ID = id
			return c, nil
		}
	}
	return nil, fmt.Errorf("%s no longer holds conversation %s", info.File, native)
}
