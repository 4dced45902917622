// Package daemon owns the write path and the choice of backend: it opens the
// index with what feeds it (Store), keeps it in line with the files under
// the roots (Keeper, Watch: the watcher's batches handed to ingest), runs
// the daemon (Start: that plus the HTTP API, the page and /mcp on loopback,
// and daemon.json so commands find it), talks to a running daemon (Client,
// Dial), and is the one place that decides whether a command reads through
// a running daemon or opens the index itself (Connect, Live).
package daemon

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
)

// StoreOptions say how to open a Store.
type StoreOptions struct {
	// Dir is the data folder.
	Dir string
	// Rebuild builds a new index beside the old one; Store.Commit puts it
	// in place.
	Rebuild bool
	// ReadOnly opens an existing index to read it: nothing is created,
	// removed or written, and a missing or damaged index is an error.
	ReadOnly bool
	// NoRedaction keeps secrets in the index (the config file's
	// "redact": false). Changing it rebuilds the index.
	NoRedaction bool
	// Progress, if set, is called as a pass goes.
	Progress func(ingest.Progress)
	// Sized, if set, is told the bytes a pass will read before it reads
	// them (ingest.Options.Sized).
	Sized func(bytes int64) (writers int)
	// ManifestEvery, for long-running processes, writes index.json at most
	// this often instead of after every pass.
	ManifestEvery time.Duration
	// Holder names the command that opens the index as a writer ("index",
	// "watch", "serve", "mcp", "search"): the lock file records it, so
	// that a process refused the index names the holder and what to do.
	Holder string
	// Logger receives the components' logs, each tagged with its name
	// (default: discarded).
	Logger *slog.Logger
	// IngestLogger, if set, replaces Logger for ingest: a command that
	// lists the files it could not read once the pass is over passes one
	// that logs errors only, so that each file is told once.
	IngestLogger *slog.Logger
}

// Store is an open index with what feeds it: the formats' registry and the
// ingester that parses, extracts and writes.
type Store struct {
	Dir string
	// Rules are the redaction rules it indexes under: "off", or the rule
	// set's version.
	Rules    string
	Registry *parsers.Registry
	Index    *indexer.Index
	Ingester *ingest.Ingester

	query query.Options // how the query engine reads conversations again
	// swaps counts the rebuilt indexes put in place by Commit: what was
	// read from the old one is not kept past it.
	swaps atomic.Uint64
}

// OpenStore opens the index in o.Dir, creating it unless o.ReadOnly.
func OpenStore(o StoreOptions) (*Store, error) {
	log := logger(o.Logger)
	red, rules := redaction(o)
	ix, err := indexer.Open(indexer.Options{Dir: o.Dir, Rebuild: o.Rebuild, ReadOnly: o.ReadOnly, Redaction: rules, Holder: o.Holder, Logger: log.With("component", "indexer")})
	if err != nil {
		return nil, err
	}
	ingLog := o.IngestLogger
	if ingLog == nil {
		ingLog = log.With("component", "ingest")
	}
	reg := all.Registry()
	ex := extract.New(nil, extract.Options{}) // the built-in background, made when first needed
	iopts := ingest.Options{Logger: ingLog, Progress: o.Progress, ManifestEvery: o.ManifestEvery, Sized: o.Sized}
	qopts := query.Options{Source: reg}
	if red != nil {
		iopts.Redactor = red
		// A conversation read again from its file has its secrets taken
		// out, as it was indexed: what a reader shows of a conversation
		// (show, the context around a hit, MCP) never holds what the index
		// does not.
		qopts.Finish = func(c *conversation.Conversation) { red.Conversation(c) }
	}
	ing := ingest.New(reg, ix, ex, iopts)
	return &Store{Dir: o.Dir, Registry: reg, Index: ix, Ingester: ing, Rules: rules, query: qopts}, nil
}

// Engine returns a query engine on the store's index that reads
// conversations again from their files through the registry.
func (s *Store) Engine() (*query.Engine, error) {
	return query.New(s.Index, s.query)
}

// CachingEngine returns the engine of Engine whose Load keeps the last
// conversations it read until their file or the index changes (see
// Engine): the daemon's and the MCP server's.
func (s *Store) CachingEngine() (*Engine, error) {
	e, err := s.Engine()
	if err != nil {
		return nil, err
	}
	lc := newLoadCache(e, s.swaps.Load)
	lc.indexed = func(path string) time.Time {
		f, _ := s.Index.File(path)
		return f.Indexed
	}
	return &Engine{Engine: e, loads: lc}, nil
}

// Commit ends a rebuild: the new index takes the old one's place (see
// indexer.Index.Commit). The manifest is written for it. Without a rebuild
// under way it does nothing.
func (s *Store) Commit() error {
	if s.Index.Rebuilding() == "" {
		return nil
	}
	err := s.Index.Commit()
	s.swaps.Add(1) // even on an error: the index may have changed
	if err != nil {
		return err
	}
	return s.Index.WriteManifest()
}

// Close flushes a pending index.json write and closes the index.
func (s *Store) Close() error {
	ierr := s.Ingester.Close()
	if err := s.Index.Close(); err != nil {
		return err
	}
	return ierr
}
