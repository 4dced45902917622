package query

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

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
//
// id may also be the id of one of the conversation's hits (m/ID/N, t/…,
// d/…, c/ID): the conversation is the hit's.
//
// Topics and decisions are the index's: those written in the file and
// those extract derived at ingest (after redaction), the same ones search
// finds. They are read from the index rather than derived again, so that a
// conversation shows what its hits say even when the extractor has changed
// since, and a long conversation costs no second extraction.
func (e *Engine) Load(ctx context.Context, id string) (c *conversation.Conversation, fromIndex bool, err error) {
	info, err := e.Conversation(ctx, id)
	if err != nil {
		return nil, false, err
	}
	return e.LoadFound(ctx, info)
}

// LoadFound is Load for a conversation Conversation has found already: a
// caller that looked it up (the daemon's load cache, keyed by what it
// found) does not search for it twice.
func (e *Engine) LoadFound(ctx context.Context, info *ConversationInfo) (c *conversation.Conversation, fromIndex bool, err error) {
	id := info.ID
	topics, decisions, err := e.derived(ctx, info)
	if err != nil {
		return nil, false, err
	}
	if e.source != nil {
		if c, err := e.readAgain(ctx, info, id); err == nil {
			c.Topics, c.Decisions = topics, decisions
			return c, false, nil
		} else if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, false, err
		}
	}
	msgs, err := e.Messages(ctx, id, 0, max(info.Messages-1, 0))
	if err != nil {
		return nil, false, err
	}
	c = &conversation.Conversation{ID: info.ID, Source: info.Source, File: info.File, Title: info.Title, Date: info.Date,
		Project: info.Project, Tags: info.Tags, Topics: topics, Decisions: decisions}
	for _, m := range msgs {
		c.Messages = append(c.Messages, conversation.Message{Index: m.Index, Role: conversation.Role(m.Role), Content: m.Content, Timestamp: m.Timestamp, Hidden: m.Hidden})
	}
	return c, true, nil
}

// maxDerived bounds the topic and decision documents read for one
// conversation.
const maxDerived = 1000

// derived returns the topics and decisions the index holds for the
// conversation: topics in the conversation document's order, decisions in
// the order they were taken.
func (e *Engine) derived(ctx context.Context, info *ConversationInfo) ([]conversation.Topic, []conversation.Decision, error) {
	conv := bleve.NewTermQuery(info.ID)
	conv.SetField(indexer.FieldConversationID)
	var kinds []bq.Query
	for _, k := range []string{indexer.KindTopic, indexer.KindDecision} {
		q := bleve.NewTermQuery(k)
		q.SetField(indexer.FieldType)
		kinds = append(kinds, q)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(conv, bleve.NewDisjunctionQuery(kinds...)), maxDerived, 0, false)
	req.Fields = []string{indexer.FieldType, indexer.FieldName, indexer.FieldOrigin, indexer.FieldDecision, indexer.FieldRationale,
		indexer.FieldMessageIndex, indexer.FieldDate}
	req.SortBy([]string{"_id"})
	sr, err := e.search(ctx, req)
	if err != nil {
		return nil, nil, fmt.Errorf("topics and decisions of %s: %w", info.ID, err)
	}
	origins := map[string]conversation.Origin{}
	type numbered struct {
		n int
		d conversation.Decision
	}
	var ds []numbered
	for _, dm := range sr.Hits {
		origin := conversation.Origin(str(dm.Fields[indexer.FieldOrigin]))
		switch str(dm.Fields[indexer.FieldType]) {
		case indexer.KindTopic:
			origins[str(dm.Fields[indexer.FieldName])] = origin
		case indexer.KindDecision:
			d := conversation.Decision{Decision: str(dm.Fields[indexer.FieldDecision]), Rationale: str(dm.Fields[indexer.FieldRationale]), Origin: origin}
			if f, ok := dm.Fields[indexer.FieldMessageIndex].(float64); ok {
				d.MessageIndex = int(f)
			}
			d.Timestamp, _ = timeOf(dm.Fields[indexer.FieldDate])
			n, _ := strconv.Atoi(dm.ID[strings.LastIndexByte(dm.ID, '/')+1:])
			ds = append(ds, numbered{n, d})
		}
	}
	var topics []conversation.Topic
	for _, name := range info.Topics {
		topics = append(topics, conversation.Topic{Name: name, Origin: origins[name]})
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].n < ds[j].n })
	var decisions []conversation.Decision
	for _, d := range ds {
		decisions = append(decisions, d.d)
	}
	return topics, decisions, nil
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
			if e.finish != nil {
				e.finish(c)
			}
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
