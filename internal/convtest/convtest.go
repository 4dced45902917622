// Package convtest writes conversation files for the tests of the daemon,
// the commands and the benchmarks, and indexes them for a test's engine.
package convtest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/internal/atomicfile"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
)

// Portable returns a conversation in the portable format: its id, title
// and a fixed date, and messages taking turns between the user and the
// assistant, the user first.
func Portable(id, title string, messages ...string) []byte {
	type msg struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	c := struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Date     string `json:"date"`
		Messages []msg  `json:"messages"`
	}{ID: id, Title: title, Date: "2025-06-01T10:00:00Z"}
	for i, m := range messages {
		c.Messages = append(c.Messages, msg{Role: []string{"user", "assistant"}[i%2], Content: m})
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return b
}

// WriteAtomic writes a file as editors do, a temporary file renamed over,
// making its folder first.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

// Engine indexes the conversation files under roots into a fresh index, as
// the indexer reads them (the default extractor, every parser), and returns
// a query engine over it with what the pass found. The index is closed at
// the end of the test.
func Engine(tb testing.TB, roots ...string) (*query.Engine, *ingest.Summary) {
	tb.Helper()
	ix, err := indexer.Open(indexer.Options{Dir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ix.Close() })
	reg := all.Registry()
	ing := ingest.New(reg, ix, extract.New(extract.DefaultBackground(), extract.Options{}), ingest.Options{})
	sum, err := ing.Reconcile(context.Background(), roots)
	if err != nil {
		tb.Fatal(err)
	}
	e, err := query.New(ix, query.Options{Source: reg})
	if err != nil {
		tb.Fatal(err)
	}
	return e, sum
}
