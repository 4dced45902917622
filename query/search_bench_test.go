package query_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/convsearch/convsearch/bench"
	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
)

var benchEngine struct {
	once sync.Once
	e    *query.Engine
	err  error
}

// engineOverGenerated indexes a generated corpus of 20k messages once for
// all the benchmarks of a run.
func engineOverGenerated(b *testing.B) *query.Engine {
	b.Helper()
	be := &benchEngine
	be.once.Do(func() {
		dir, err := tempDir()
		if err != nil {
			be.err = err
			return
		}
		if _, be.err = bench.Generate(dir+"/corpus", bench.GenOptions{Messages: 20000}); be.err != nil {
			return
		}
		ix, err := indexer.Open(indexer.Options{Dir: dir + "/data"})
		if err != nil {
			be.err = err
			return
		}
		reg := all.Registry()
		ing := ingest.New(reg, ix, extract.New(extract.DefaultBackground(), extract.Options{}), ingest.Options{})
		if _, be.err = ing.Reconcile(context.Background(), []string{dir + "/corpus"}); be.err != nil {
			return
		}
		_ = ing.Close()
		be.e, be.err = query.New(ix, query.Options{})
	})
	if be.err != nil {
		b.Fatal(be.err)
	}
	return be.e
}

// BenchmarkSearch times the query classes of `convsearch bench query` and
// a plain question, grouped as the CLI and MCP search.
func BenchmarkSearch(b *testing.B) {
	e := engineOverGenerated(b)
	for _, c := range []struct{ name, q string }{
		{"common", "latency"},
		{"rare", bench.RareTerm},
		{"and", "retry backoff"},
		{"phrase", `"connection pool"`},
		{"question", "what did we decide about the retry backoff for the connection pool?"},
		{"dated", "what did we decide about the retry backoff for the connection pool in March?"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := query.Request{Query: c.q, Group: true, Limit: 20}
			for b.Loop() {
				if _, err := e.Search(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// tempDir is a folder for the benchmark's corpus and index; b.TempDir
// would be removed between sub-benchmarks' runs of the shared engine.
func tempDir() (string, error) { return os.MkdirTemp("", "convsearch-query-bench-") }
