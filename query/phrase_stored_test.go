package query

import (
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/convsearch/convsearch/indexer"
)

// TestExactPhraseStoredPaths runs an exact phrase over Bleve's two index
// kinds: scorch, whose stored fields are read by document number, and the
// in-memory one, read through Document: both must keep the same hits.
func TestExactPhraseStoredPaths(t *testing.T) {
	b := &builder{e: analyzersOnly(t)}
	docs := map[string]string{
		"a": "the worker ran out of memory at noon",
		"b": "memory ran out of the box",
		"c": "out of the memory of it",
		"d": "Out Of Memory again, out of memory",
	}
	newMapping := func() mapping.IndexMapping {
		m := bleve.NewIndexMapping()
		f := bleve.NewTextFieldMapping()
		f.Analyzer = indexer.AnalyzerName
		f.Store = true
		f.IncludeTermVectors = true
		m.DefaultMapping.AddFieldMappingsAt("content", f)
		return m
	}
	scorchIdx, err := bleve.New(t.TempDir()+"/i", newMapping())
	if err != nil {
		t.Fatal(err)
	}
	defer scorchIdx.Close()
	memIdx, err := bleve.NewMemOnly(newMapping())
	if err != nil {
		t.Fatal(err)
	}
	defer memIdx.Close()
	for name, idx := range map[string]bleve.Index{"scorch": scorchIdx, "in memory": memIdx} {
		// Two batches: two segments in scorch, so numbering crosses them.
		for _, ids := range [][]string{{"a", "b"}, {"c", "d"}} {
			batch := idx.NewBatch()
			for _, id := range ids {
				if err := batch.Index(id, map[string]any{"content": docs[id]}); err != nil {
					t.Fatal(err)
				}
			}
			if err := idx.Batch(batch); err != nil {
				t.Fatal(err)
			}
		}
		res, err := idx.Search(bleve.NewSearchRequest(b.matchPhrase("out of memory", "content", 1)))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, h := range res.Hits {
			got[h.ID] = true
		}
		if len(got) != 2 || !got["a"] || !got["d"] {
			t.Errorf("%s: hits %v, want a and d", name, got)
		}
	}
}
