// Package query turns a Request in convsearch's own query language into Bleve
// queries and returns one Result shape that the command line, the HTTP API
// and the MCP tools all share. It never writes to the index.
package query

import (
	"context"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// Searcher runs Bleve searches: the indexer's Index satisfies it.
type Searcher interface {
	Search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error)
}

// Limits on what one request may ask for.
const (
	DefaultLimit = 20
	MaxLimit     = 1000
	MaxOffset    = 10000
	// DefaultTimeout bounds one search: a phrase matching most of a large
	// index can take long, and no answer is worth a hung caller.
	DefaultTimeout = 10 * time.Second
)

// Sort orders.
const (
	SortRelevance = "relevance"
	SortNewest    = "newest"
	SortOldest    = "oldest"
)

// Engine answers requests over one index.
type Engine struct {
	s        Searcher
	source   Source // nil: conversations are rebuilt from the index alone
	finish   func(*conversation.Conversation)
	analyzer analysis.Analyzer
	verbatim *analysis.DefaultAnalyzer // the analyzer without its stop words, for exact phrases
	timeout  time.Duration
	convs    convCache
	filler   map[string]bool // question words, analysed (see rank.go)
}

// Options give an Engine what the index alone does not hold.
type Options struct {
	// Source reads conversations again from their files for Load; nil:
	// Load rebuilds them from the index's stored text.
	Source Source
	// Finish, if set, is done to the conversation Load read again from its
	// file, as it was done at ingest (the daemon's redaction), before Load
	// returns it: to that one only, not to every conversation of the file.
	Finish func(*conversation.Conversation)
}

// New returns an Engine over s.
func New(s Searcher, opts Options) (*Engine, error) {
	an, err := registry.NewCache().AnalyzerNamed(indexer.AnalyzerName)
	if err != nil {
		return nil, fmt.Errorf("query: analyzer: %w", err)
	}
	return &Engine{s: s, source: opts.Source, finish: opts.Finish, analyzer: an, verbatim: verbatimAnalyzer(an), timeout: DefaultTimeout, filler: analyzedSet(an, fillerWords)}, nil
}
