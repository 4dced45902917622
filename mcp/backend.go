// Package mcp serves convsearch's index to AI agents over the Model Context
// Protocol: tools (search_conversations, get_conversation, list_decisions,
// list_topics, related_conversations), a resource template for whole
// conversations and id completion. The same server runs over stdio
// (`convsearch mcp`, see ServeStdio) and over streamable HTTP at the
// daemon's /mcp (see Handler). It reads through a Backend and never writes.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// Backend is what the tools read: a query.Engine on an open index, or the
// daemon package's client of a running daemon.
type Backend interface {
	Search(ctx context.Context, r query.Request) (*query.Result, error)
	// Load returns a whole conversation; fromIndex is true when its source
	// file could not be read again and the index's stored text was used.
	Load(ctx context.Context, id string) (c *conversation.Conversation, fromIndex bool, err error)
	Topics(ctx context.Context, r query.TopicsRequest) ([]query.TopicCount, error)
	Decisions(ctx context.Context, r query.DecisionsRequest) (*query.Result, error)
	Related(ctx context.Context, id string, limit int) (*query.Result, error)
	AddContext(ctx context.Context, hits []query.Hit, n int) error
	Stats(ctx context.Context) (*indexer.Stats, error)
}

var _ Backend = (*query.Engine)(nil)

// ServeStdio serves NewServer(b, opts) on r and w until the client closes
// r (its normal goodbye) or ctx is done, both a clean stop.
func ServeStdio(ctx context.Context, b Backend, opts Options, r io.Reader, w io.Writer) error {
	err := NewServer(b, opts).Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(r), Writer: nopWriteCloser{w}})
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, context.Canceled):
		return nil
	}
	return fmt.Errorf("mcp: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
