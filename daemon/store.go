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
	"time"

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
	// Rebuild discards the index and starts an empty one.
	Rebuild bool
	// Progress, if set, is called as a pass goes.
	Progress func(ingest.Progress)
	// ManifestEvery, for long-running processes, writes index.json at most
	// this often instead of after every pass.
	ManifestEvery time.Duration
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
	Dir      string
	Registry *parsers.Registry
	Index    *indexer.Index
	Ingester *ingest.Ingester
}

// OpenStore opens (or creates) the index in o.Dir.
func OpenStore(o StoreOptions) (*Store, error) {
	log := logger(o.Logger)
	ix, err := indexer.Open(indexer.Options{Dir: o.Dir, Rebuild: o.Rebuild, Logger: log.With("component", "indexer")})
	if err != nil {
		return nil, err
	}
	ingLog := o.IngestLogger
	if ingLog == nil {
		ingLog = log.With("component", "ingest")
	}
	reg := all.Registry()
	ex := extract.New(extract.DefaultBackground(), extract.Options{})
	ing := ingest.New(reg, ix, ex, ingest.Options{Logger: ingLog, Progress: o.Progress, ManifestEvery: o.ManifestEvery})
	return &Store{Dir: o.Dir, Registry: reg, Index: ix, Ingester: ing}, nil
}

// Engine returns a query engine on the store's index that reads
// conversations again from their files through the registry.
func (s *Store) Engine() (*query.Engine, error) {
	return query.New(s.Index, query.Options{Source: s.Registry})
}

// Close flushes a pending index.json write and closes the index.
func (s *Store) Close() error {
	ierr := s.Ingester.Close()
	if err := s.Index.Close(); err != nil {
		return err
	}
	return ierr
}
