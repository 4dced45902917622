package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
)

// sessionLine is line i of a session in lineParser's format: what a person
// and an assistant say, with now and then a decision, so that the
// conversation has topics and decisions derived from all of it.
func sessionLine(i int) string {
	switch i % 5 {
	case 0:
		return fmt.Sprintf("how should the retry queue %d handle a postgres failover?", i)
	case 1:
		return fmt.Sprintf("we decided to use exponential backoff for queue %d because the pool saturates", i)
	case 2:
		return fmt.Sprintf("the connection pool of worker %d holds twelve connections", i)
	case 3:
		return fmt.Sprintf("let's go with a circuit breaker around replica %d", i)
	}
	return fmt.Sprintf("latency on shard %d stays under forty milliseconds", i)
}

func session(id string, lines []string) string {
	return "TESTCONV " + id + "\n" + strings.Join(lines, "\n") + "\n"
}

func sessionLines(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, sessionLine(i))
	}
	return out
}

// A file whose one conversation only grew (a session appended to after
// every turn) is written in proportion to what was added: the new
// messages, the last few before them (their context fields see the new
// ones), the conversation's own, topic and decision documents. After every
// step the index equals a fresh full index of the file: every document,
// stored field and indexed term. An edit before the end, a conversation
// that changes its ID, or a record of a read that failed part-way is
// written whole.
func TestGrownConversationWritesWhatChanged(t *testing.T) {
	const base = 60
	type step struct {
		id      string
		lines   []string
		failAt  int  // the Apply that fails, 0 for none
		partial bool // written from the Prefix on, not whole
	}
	edited := sessionLines(0, base+3)
	edited[10] = "this line was edited afterwards"
	tests := []struct {
		name      string
		batchDocs int
		steps     []step
	}{
		{"one line at a time", 0, []step{
			{"S", sessionLines(0, base), 0, false},
			{"S", sessionLines(0, base+1), 0, true},
			{"S", sessionLines(0, base+2), 0, true},
			{"S", sessionLines(0, base+3), 0, true},
		}},
		{"many lines at once, in pieces", 40, []step{
			{"S", sessionLines(0, base), 0, false},
			{"S", sessionLines(0, base+45), 0, true},
			{"S", sessionLines(0, base+46), 0, true},
		}},
		{"the last lines removed", 0, []step{
			{"S", sessionLines(0, base), 0, false},
			{"S", sessionLines(0, base-5), 0, true},
		}},
		{"a line edited before the end", 0, []step{
			{"S", sessionLines(0, base), 0, false},
			{"S", sessionLines(0, base+2), 0, true},
			{"S", edited, 0, false},
			{"S", append(edited, "and one more"), 0, true},
		}},
		{"the conversation changes its ID", 0, []step{
			{"S", sessionLines(0, base), 0, false},
			{"T", sessionLines(0, base+1), 0, false},
		}},
		{"a grown file fails part-way, then is written whole", 40, []step{
			{"S", sessionLines(0, base), 0, false},
			{"S", sessionLines(0, base+45), 2, true},
			{"S", sessionLines(0, base+45), 0, false},
			{"S", sessionLines(0, base+46), 0, true},
		}},
		{"too short to keep anything", 0, []step{
			{"S", sessionLines(0, 5), 0, false},
			{"S", sessionLines(0, 6), 0, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "s.conv")
			ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			ex := extract.New(nil, extract.Options{})
			reg := parsers.NewRegistry(&lineParser{})
			mtime := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			var lastTerms map[string][]string
			for i, s := range tt.steps {
				content := session(s.id, s.lines)
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				mtime = mtime.Add(time.Minute)
				os.Chtimes(path, mtime, mtime)
				before, _ := ix.File(path)
				bs := &batchSizer{Index: ix, failAt: s.failAt}
				in := New(reg, bs, ex, Options{BatchDocs: tt.batchDocs, Workers: 1, Writers: 1})
				if _, err := in.Reconcile(context.Background(), []string{root}); (err != nil) != (s.failAt > 0) {
					t.Fatalf("step %d: err %v, want one: %v", i, err, s.failAt > 0)
				}
				st, _ := ix.File(path)
				head := headOf(ix, path)
				written := 0
				for _, d := range bs.docs {
					written += d
					// The first piece holds the conversation's own, topic
					// and decision documents, and a message at least.
					if tt.batchDocs > 0 && d > max(tt.batchDocs, head+1) {
						t.Errorf("step %d: a batch of %d documents, want at most %d", i, d, tt.batchDocs)
					}
				}
				all := head + len(s.lines)
				if s.failAt > 0 {
					// Counted up to the failure: no figure to check.
				} else if s.partial {
					prefix := before.Conversations[0].Prefix
					if want := head + len(s.lines) - prefix; prefix == 0 || written != want {
						t.Errorf("step %d: %d documents written, want %d (%d messages of %d kept)", i, written, want, prefix, len(s.lines))
					}
				} else if written != all {
					t.Errorf("step %d: %d documents written, want all %d", i, written, all)
				}
				if s.failAt > 0 {
					if st.Size != -1 {
						t.Errorf("step %d: stopped part-way, the record has size %d, want -1", i, st.Size)
					}
					continue
				}
				if len(s.lines) > 8 && st.Conversations[0].Prefix != len(s.lines)-8 {
					t.Errorf("step %d: prefix %d recorded, want %d", i, st.Conversations[0].Prefix, len(s.lines)-8)
				}

				// The index equals a fresh full one of the same file.
				wantRoot := t.TempDir()
				if err := os.WriteFile(filepath.Join(wantRoot, "s.conv"), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				wantDir, want := fullIndexWith(t, wantRoot, reg, ex)
				sameDocs(t, ix, want)
				wst, _ := want.File(filepath.Join(wantRoot, "s.conv"))
				if g, w := st.Conversations, wst.Conversations; !reflect.DeepEqual(g, w) {
					t.Errorf("step %d: record %+v, want %+v", i, g, w)
				}
				want.Close()
				// Every term of the fresh index, unstored fields too, in
				// the same documents.
				terms := indexedTerms(t, wantDir)
				for term, ids := range terms {
					if got := termHits(t, ix, term); !reflect.DeepEqual(got, ids) {
						t.Errorf("step %d: term %s in %v, want %v", i, term, got, ids)
					}
				}
				lastTerms = terms
			}
			// And no term more: the index's own dictionary, once closed.
			dir := ix.Dir()
			ix.Close()
			if got := indexedTerms(t, dir); len(got) != len(lastTerms) {
				t.Errorf("%d terms indexed, want %d", len(got), len(lastTerms))
			}
		})
	}
}

// termHits returns the documents of ix holding term, "field:term".
func termHits(t *testing.T, ix *indexer.Index, term string) []string {
	t.Helper()
	field, word, _ := strings.Cut(term, ":")
	return termIDs(t, func(req *bleve.SearchRequest) (*bleve.SearchResult, error) {
		return ix.Search(context.Background(), req)
	}, field, word)
}

// headOf is how many documents the one conversation of path has besides
// its messages' (its own, its topics', its decisions').
func headOf(ix *indexer.Index, path string) int {
	st, _ := ix.File(path)
	if len(st.Conversations) == 0 {
		return 0
	}
	return 1 + len(st.Conversations[0].Topics) + st.Conversations[0].Decisions
}
