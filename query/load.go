package query

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// Source reads the conversations of a source file again, with the format
// that indexed it. The parsers' Registry is one; query itself knows no
// formats.
type Source interface {
	ReadConversations(ctx context.Context, format, path string) ([]*conversation.Conversation, error)
}

// Load returns conversation id whole. It reads the conversation's source
// file again through the engine's Source, so every detail is there (tool
// calls, thinking, attachments); when there is no Source, or the file is
// gone or no longer parses, it rebuilds the conversation from the index's
// stored text and says so in fromIndex.
func (e *Engine) Load(ctx context.Context, id string) (c *conversation.Conversation, fromIndex bool, err error) {
	info, err := e.Conversation(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if e.source != nil {
		if c, err := e.readAgain(ctx, info, id); err == nil {
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

func (e *Engine) readAgain(ctx context.Context, info *ConversationInfo, id string) (*conversation.Conversation, error) {
	convs, err := e.source.ReadConversations(ctx, info.Source, info.File)
	if err != nil {
		return nil, err
	}
	// The index may hold the conversation under id~<suffix> when two files
	// carry the same conversation.
	native, _, _ := strings.Cut(id, "~")
	for _, c := range convs {
		if c.ID == native {
			c.ID = id
			return c, nil
		}
	}
	return nil, fmt.Errorf("%s no longer holds conversation %s", info.File, native)
}

// statser is implemented by searchers that can describe their index (the
// indexer's Index).
type statser interface {
	Stats(ctx context.Context) (*indexer.Stats, error)
}

// Stats returns what the index holds.
func (e *Engine) Stats(ctx context.Context) (*indexer.Stats, error) {
	s, ok := e.s.(statser)
	if !ok {
		return nil, errors.New("query: this index cannot report statistics")
	}
	return s.Stats(ctx)
}
