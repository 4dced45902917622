// Package server serves the index over HTTP (a JSON API and a search page)
// and to AI agents over MCP. It is a thin adapter over the query package: it
// never writes to the index.
package server

import (
	"context"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/query"
)

// Backend answers queries. Local answers from an open index; Client from a
// running daemon over HTTP. The HTTP API, the MCP tools and the command line
// all work through it.
type Backend interface {
	Search(ctx context.Context, r query.Request) (*query.Result, error)
	// Load returns a whole conversation; fromIndex is true when its source
	// file could not be read again and the index's stored text was used.
	Load(ctx context.Context, id string) (c *conversation.Conversation, fromIndex bool, err error)
	Topics(ctx context.Context, r query.TopicsRequest) ([]query.TopicCount, error)
	Decisions(ctx context.Context, r query.DecisionsRequest) (*query.Result, error)
	Related(ctx context.Context, id string, limit int) (*query.Result, error)
	// AddContext fills the Context of message hits with n messages around.
	AddContext(ctx context.Context, hits []query.Hit, n int) error
	Stats(ctx context.Context) (*indexer.Stats, error)
}

// StatsFunc reports what the index holds (the indexer's Index.Stats).
type StatsFunc func(ctx context.Context) (*indexer.Stats, error)

// Local is a Backend over a query engine on an open index.
type Local struct {
	Engine   *query.Engine
	Registry *parsers.Registry // to read conversations again from their files; nil: stored text only
	StatsOf  StatsFunc
}

var _ Backend = (*Local)(nil)

func (l *Local) Search(ctx context.Context, r query.Request) (*query.Result, error) {
	return l.Engine.Search(ctx, r)
}

func (l *Local) Load(ctx context.Context, id string) (*conversation.Conversation, bool, error) {
	return l.Engine.Load(ctx, l.Registry, id)
}

func (l *Local) Topics(ctx context.Context, r query.TopicsRequest) ([]query.TopicCount, error) {
	return l.Engine.Topics(ctx, r)
}

func (l *Local) Decisions(ctx context.Context, r query.DecisionsRequest) (*query.Result, error) {
	return l.Engine.Decisions(ctx, r)
}

func (l *Local) Related(ctx context.Context, id string, limit int) (*query.Result, error) {
	return l.Engine.Related(ctx, id, limit)
}

func (l *Local) AddContext(ctx context.Context, hits []query.Hit, n int) error {
	return l.Engine.AddContext(ctx, hits, n)
}

func (l *Local) Stats(ctx context.Context) (*indexer.Stats, error) {
	return l.StatsOf(ctx)
}
