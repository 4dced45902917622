// Package server serves the index over HTTP: a read-only JSON API and the
// embedded search page. It is a thin adapter over a Backend and never writes
// to the index; keeping the index fresh is the daemon package's work, handed
// in as HandlerOptions.Sync.
package server

import (
	"context"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// Backend answers queries: a query.Engine on an open index, or the daemon
// package's client of a running daemon.
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

var _ Backend = (*query.Engine)(nil)
