package ingest_test

import (
	"context"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/ingest"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
)

// TestCorpusDocumentCounts indexes the real corpus and the examples and
// checks the index holds exactly one document per conversation, message,
// distinct topic and decision that parsing and extraction yield on their
// own.
func TestCorpusDocumentCounts(t *testing.T) {
	roots := []string{"../testdata/corpus", "../examples"}
	reg := all.Registry()
	ex := extract.New(extract.DefaultBackground(), extract.Options{})
	ctx := context.Background()

	want := map[string]uint64{}
	files := 0
	for _, root := range roots {
		err := reg.Walk(ctx, root, func(path string, p parsers.Parser, err error) error {
			if err != nil {
				return err
			}
			_, res, err := reg.ParseFile(ctx, path, p)
			if err != nil {
				t.Errorf("%v", err)
				return nil
			}
			files++
			for _, c := range res.Conversations {
				ex.Apply(c)
				want[indexer.KindConversation]++
				want[indexer.KindMessage] += uint64(len(c.Messages))
				want[indexer.KindDecision] += uint64(len(c.Decisions))
				slugs := map[string]bool{}
				for _, tp := range c.Topics {
					if s := conversation.Slug(tp.Name); s != "" {
						slugs[s] = true
					}
				}
				want[indexer.KindTopic] += uint64(len(slugs))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	sum, err := ingest.New(reg, ix, ex, ingest.Options{}).Reconcile(ctx, roots)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Parsed != files {
		t.Errorf("parsed %d files, %d failed; want %d and 0: %v", sum.Parsed, sum.Failed, files, sum.Errors)
	}
	st, err := ix.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range indexer.Kinds {
		if st.ByKind[k] != want[k] {
			t.Errorf("%s documents: %d, want %d", k, st.ByKind[k], want[k])
		}
	}
	if want[indexer.KindMessage] < 900 {
		t.Errorf("only %d messages: the corpus and examples hold more", want[indexer.KindMessage])
	}
}
