package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
)

// batchSizer is an Index that measures every Apply: the documents it
// writes and the bytes of message text in them, counted here from each
// Change's conversations and message range, and can fail one Apply.
type batchSizer struct {
	Index
	mu      sync.Mutex
	applies int
	docs    []int // documents written by each Apply
	text    []int // bytes of message content in each Apply
	failAt  int   // the Apply (from 1) that fails; 0 for none
}

func (b *batchSizer) Apply(ctx context.Context, changes []indexer.Change) error {
	b.mu.Lock()
	b.applies++
	n := b.applies
	docs, text := 0, 0
	for _, ch := range changes {
		for _, c := range ch.Conversations {
			// The first ch.Kept messages keep their documents; the piece
			// from there (or the whole) writes the conversation's own.
			from, to := ch.Kept, len(c.Messages)
			if !ch.Messages.Whole() {
				from, to = ch.Messages.From, ch.Messages.To
			}
			if from == ch.Kept {
				docs += 1 + len(c.Topics) + len(c.Decisions)
			}
			docs += to - from
			for _, m := range c.Messages[from:to] {
				text += len(m.Content)
			}
		}
	}
	b.docs = append(b.docs, docs)
	b.text = append(b.text, text)
	b.mu.Unlock()
	if n == b.failAt {
		return errors.New("disk on fire")
	}
	return b.Index.Apply(ctx, changes)
}

// storedDocs returns every document of ix by id, with its stored fields.
func storedDocs(t *testing.T, ix *indexer.Index) map[string]map[string]any {
	t.Helper()
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 100000, 0, false)
	req.Fields = []string{"*"}
	res, err := ix.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, h := range res.Hits {
		out[h.ID] = h.Fields
	}
	return out
}

// indexedTerms returns, for the fields indexed but not stored (a message's
// concepts and its neighbours' context) and the content, every term with
// the documents holding it, read from the closed index at dir. (A field
// dictionary's counts are not exact over several segments: the documents
// are searched for.)
func indexedTerms(t *testing.T, dir string) map[string][]string {
	t.Helper()
	idx, err := bleve.Open(indexer.IndexPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	out := map[string][]string{}
	for _, field := range []string{indexer.FieldContext, indexer.FieldConcepts, indexer.FieldContent} {
		d, err := idx.FieldDict(field)
		if err != nil {
			t.Fatal(err)
		}
		var terms []string
		for e, err := d.Next(); e != nil && err == nil; e, err = d.Next() {
			terms = append(terms, e.Term)
		}
		d.Close()
		for _, term := range terms {
			out[field+":"+term] = termIDs(t, idx.Search, field, term)
		}
	}
	return out
}

// termIDs returns, sorted, the documents that search finds holding term
// in field.
func termIDs(t *testing.T, search func(*bleve.SearchRequest) (*bleve.SearchResult, error), field, term string) []string {
	t.Helper()
	q := bleve.NewTermQuery(term)
	q.SetField(field)
	res, err := search(bleve.NewSearchRequestOptions(q, 100000, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	sort.Strings(ids)
	return ids
}

// fullIndex indexes root whole, in batches no file overruns, and returns
// the index's folder and its documents.
func fullIndex(t *testing.T, root string) (string, *indexer.Index) {
	return fullIndexWith(t, root, parsers.NewRegistry(manyParser{}), nil)
}

// fullIndexWith is fullIndex with a registry and an extractor.
func fullIndexWith(t *testing.T, root string, reg *parsers.Registry, ex Extractor) (string, *indexer.Index) {
	t.Helper()
	dir := t.TempDir()
	ix, err := indexer.Open(indexer.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	in := New(reg, ix, ex, Options{BatchDocs: 1 << 20, BatchBytes: 1 << 30, Workers: 1, Writers: 1})
	if _, err := in.Reconcile(context.Background(), []string{root}); err != nil {
		t.Fatal(err)
	}
	return dir, ix
}

// sameDocs checks that got holds the documents of want, with the same
// stored fields (but the file's path).
func sameDocs(t *testing.T, ix, want *indexer.Index) {
	t.Helper()
	got, exp := storedDocs(t, ix), storedDocs(t, want)
	for id := range got {
		delete(got[id], indexer.FieldFile) // the two files' paths differ
	}
	for id := range exp {
		delete(exp[id], indexer.FieldFile)
	}
	if len(got) != len(exp) {
		t.Errorf("%d documents, want %d", len(got), len(exp))
	}
	for id, w := range exp {
		if g, ok := got[id]; !ok {
			t.Errorf("document %s missing", id)
		} else if !reflect.DeepEqual(g, w) {
			t.Errorf("document %s:\n got %v\nwant %v", id, g, w)
		}
	}
	for id := range got {
		if _, ok := exp[id]; !ok {
			t.Errorf("stale document %s", id)
		}
	}
}

// One conversation longer than a batch goes in several batches, each
// within BatchDocs and BatchBytes, and the index holds what one batch
// would have written: the same documents, stored fields and indexed terms
// (a message's context field reads its neighbours across the cut). Read
// again after a change, the file keeps no stale documents; a write that
// fails part-way leaves the file to be read again, and the next pass
// repairs it.
func TestLongConversationSplitAcrossBatches(t *testing.T) {
	type step struct {
		content string // the file, "MANY conversations messages"
		failAt  int    // the Apply that fails, 0 for none
	}
	tests := []struct {
		name       string
		batchDocs  int
		batchBytes int
		steps      []step
		minApplies int // of the first step, to be sure it was cut
	}{
		{"one conversation, by documents", 25, 1 << 20, []step{{"MANY 1 100", 0}}, 4},
		{"one conversation, by bytes", 1000, 300, []step{{"MANY 1 100", 0}}, 4},
		{"long conversations among others", 25, 1 << 20, []step{{"MANY 3 40", 0}}, 5},
		{"a long conversation shrinks", 25, 1 << 20, []step{{"MANY 1 100", 0}, {"MANY 1 30", 0}}, 4},
		{"a long conversation grows", 25, 1 << 20, []step{{"MANY 1 30", 0}, {"MANY 1 100", 0}}, 2},
		{"several become one", 25, 1 << 20, []step{{"MANY 3 40", 0}, {"MANY 1 60", 0}}, 5},
		{"a piece fails, the next pass repairs", 25, 1 << 20, []step{{"MANY 1 100", 2}, {"", 0}}, 2},
		{"a re-read fails part-way, the next pass repairs", 25, 1 << 20, []step{{"MANY 2 30", 0}, {"MANY 1 100", 3}, {"", 0}}, 3},
		{"a grown conversation fails part-way, the next pass repairs", 25, 1 << 20, []step{{"MANY 1 60", 0}, {"MANY 1 200", 2}, {"", 0}}, 3},
		{"the first piece fails: the old documents stay", 25, 1 << 20, []step{{"MANY 1 60", 0}, {"MANY 1 100", 1}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "long.many")
			dir := t.TempDir()
			ix, err := indexer.Open(indexer.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			mtime := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			content, written := "", ""
			for i, s := range tt.steps {
				if s.content != "" {
					content = s.content
					if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
					mtime = mtime.Add(time.Minute)
					os.Chtimes(path, mtime, mtime)
				}
				bs := &batchSizer{Index: ix, failAt: s.failAt}
				in := New(parsers.NewRegistry(manyParser{}), bs, nil, Options{BatchDocs: tt.batchDocs, BatchBytes: tt.batchBytes, Workers: 1, Writers: 1})
				_, err := in.Reconcile(context.Background(), []string{root})
				if (err != nil) != (s.failAt > 0) {
					t.Fatalf("step %d: err %v, want one: %v", i, err, s.failAt > 0)
				}
				if i == 0 && bs.applies < tt.minApplies {
					t.Errorf("step %d: %d batches, want at least %d", i, bs.applies, tt.minApplies)
				}
				for n := range bs.docs {
					if bs.docs[n] > tt.batchDocs || bs.text[n] > tt.batchBytes {
						t.Errorf("step %d: batch %d holds %d documents and %d bytes, want at most %d and %d",
							i, n+1, bs.docs[n], bs.text[n], tt.batchDocs, tt.batchBytes)
					}
				}
				st, _ := ix.File(path)
				switch {
				case s.failAt == 1:
					// Nothing of the new content landed: the previous
					// record and documents stand.
				case s.failAt > 1:
					if st.Size != -1 || st.Hash != "" {
						t.Errorf("step %d: stopped part-way, the record has size %d, hash %q; want -1 and none, to be read again", i, st.Size, st.Hash)
					}
				default:
					written = content
					if st.Size != int64(len(content)) || st.Hash == "" {
						t.Errorf("step %d: record size %d, hash %q; want %d and a hash", i, st.Size, st.Hash, len(content))
					}
				}
			}

			// The index equals a fresh one of what was last written whole.
			wantRoot := t.TempDir()
			if err := os.WriteFile(filepath.Join(wantRoot, "long.many"), []byte(written), 0o644); err != nil {
				t.Fatal(err)
			}
			wantDir, want := fullIndex(t, wantRoot)
			sameDocs(t, ix, want)
			if err := want.Close(); err != nil {
				t.Fatal(err)
			}
			if len(tt.steps) == 1 { // no deletions: the term counts are exact
				if err := ix.Close(); err != nil {
					t.Fatal(err)
				}
				g, w := indexedTerms(t, dir), indexedTerms(t, wantDir)
				if len(g) != len(w) {
					t.Errorf("%d terms indexed, want %d", len(g), len(w))
				}
				for term, ids := range w {
					if !reflect.DeepEqual(g[term], ids) {
						t.Errorf("term %s in %v, want %v", term, g[term], ids)
					}
				}
			}
		})
	}
}

// A conversation cut into pieces still records one entry, and its record
// names every document it wrote.
func TestLongConversationRecord(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "long.many")
	if err := os.WriteFile(path, []byte("MANY 2 50"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	in := New(parsers.NewRegistry(manyParser{}), ix, nil, Options{BatchDocs: 20, Workers: 1, Writers: 1})
	if _, err := in.Reconcile(context.Background(), []string{root}); err != nil {
		t.Fatal(err)
	}
	st, _ := ix.File(path)
	var ids []string
	for _, c := range st.Conversations {
		ids = append(ids, fmt.Sprintf("%s:%d", c.ID, c.Messages))
	}
	if want := []string{"conv-0:50", "conv-1:50"}; !reflect.DeepEqual(ids, want) || st.Messages != 100 {
		t.Errorf("record: %v, %d messages; want %v, 100", ids, st.Messages, want)
	}
	docs := storedDocs(t, ix)
	recorded := st.DocIDs()
	if len(recorded) != len(docs) {
		t.Errorf("the record names %d documents, the index holds %d", len(recorded), len(docs))
	}
	for _, id := range recorded {
		if _, ok := docs[id]; !ok {
			t.Errorf("recorded %s, not in the index", id)
		}
	}
}
