package indexer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/conversation"
)

func conv(id string, msgs ...string) *conversation.Conversation {
	c := &conversation.Conversation{ID: id, Source: "test", Title: "title of " + id, Date: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC), Project: "proj"}
	for i, m := range msgs {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		c.Messages = append(c.Messages, conversation.Message{Index: i, Role: role, Content: m})
	}
	c.Topics = []conversation.Topic{{Name: "bootstrap intervals", Origin: conversation.OriginExtracted}}
	c.Decisions = []conversation.Decision{{Decision: "use BCa", Rationale: "skewed data", MessageIndex: 1, Origin: conversation.OriginExtracted}}
	return c
}

func open(t *testing.T, dir string) *Index {
	t.Helper()
	ix, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// counts returns the number of documents of each kind, found by searching
// each kind: a mapping that silently indexes nothing fails here.
func counts(t *testing.T, ix *Index) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, k := range Kinds {
		q := bleve.NewTermQuery(k)
		q.SetField(FieldType)
		res, err := ix.Search(context.Background(), bleve.NewSearchRequestOptions(q, 0, 0, false))
		if err != nil {
			t.Fatal(err)
		}
		out[k] = res.Total
	}
	return out
}

func search(t *testing.T, ix *Index, field, term string) uint64 {
	t.Helper()
	q := bleve.NewMatchQuery(term)
	q.SetField(field)
	res, err := ix.Search(context.Background(), bleve.NewSearchRequestOptions(q, 0, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}

func TestApplyReplaceRemove(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	ctx := context.Background()
	a := FileState{Path: "/x/a.json", Parser: "test", ParserVersion: 1, Size: 10}
	b := FileState{Path: "/x/b.json", Parser: "test", ParserVersion: 1, Size: 20}
	err := ix.Apply(ctx, []Change{
		{State: a, Conversations: []*conversation.Conversation{conv("A", "how should we compute intervals", "we'll use BCa because the data is skewed")}},
		{State: b, Conversations: []*conversation.Conversation{conv("B", "retry policy", "exponential backoff", "with jitter")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{KindConversation: 2, KindMessage: 5, KindTopic: 2, KindDecision: 2}
	if got := counts(t, ix); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after add: %v, want %v", got, want)
	}
	// "skewed" (stemmed from "skewed") is in one message and in both
	// decisions' rationale, which decision documents carry in content too.
	if n := search(t, ix, FieldContent, "skewed"); n != 3 {
		t.Errorf("content search 'skewed': %d hits, want 3", n)
	}
	if n := search(t, ix, FieldTitle, "title"); n != 2 {
		t.Errorf("title search: %d hits, want 2", n)
	}

	// A changed file replaces its documents: fewer messages now.
	err = ix.Apply(ctx, []Change{{State: b, Conversations: []*conversation.Conversation{conv("B", "retry policy")}}})
	if err != nil {
		t.Fatal(err)
	}
	want[KindMessage] = 3
	if got := counts(t, ix); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after replace: %v, want %v", got, want)
	}
	if n := search(t, ix, FieldContent, "jitter"); n != 0 {
		t.Errorf("old message still found after replace: %d hits", n)
	}

	// A failed parse keeps the old documents and records the error.
	bad := b
	bad.Error = "b.json:3: syntax error"
	if err := ix.Apply(ctx, []Change{{State: bad, KeepDocs: true}}); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, ix); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after failed parse: %v, want %v", got, want)
	}
	if st, _ := ix.File(b.Path); st.Error == "" || len(st.DocIDs()) == 0 {
		t.Errorf("failed file's record: %+v, want its error and its old docs", st)
	}

	// A removed file loses everything.
	if err := ix.Apply(ctx, []Change{{State: FileState{Path: a.Path}, Remove: true}}); err != nil {
		t.Fatal(err)
	}
	want = map[string]uint64{KindConversation: 1, KindMessage: 1, KindTopic: 1, KindDecision: 1}
	if got := counts(t, ix); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after remove: %v, want %v", got, want)
	}
	if _, ok := ix.File(a.Path); ok {
		t.Error("removed file still has a record")
	}

	// Records and documents survive a reopen.
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = open(t, dir)
	defer ix.Close()
	if got := counts(t, ix); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after reopen: %v, want %v", got, want)
	}
	if st, ok := ix.File(b.Path); !ok || len(st.Conversations) != 1 || st.Conversations[0].ID != "B" {
		t.Errorf("record of %s after reopen: %+v", b.Path, st)
	}
	if _, err := os.Stat(ManifestPath(dir)); err != nil {
		t.Errorf("no manifest after close: %v", err)
	}
}

func TestSameConversationInTwoFiles(t *testing.T) {
	ix := open(t, t.TempDir())
	defer ix.Close()
	ctx := context.Background()
	err := ix.Apply(ctx, []Change{
		{State: FileState{Path: "/a.json", Parser: "test"}, Conversations: []*conversation.Conversation{conv("X", "one", "two")}},
		{State: FileState{Path: "/a.xml", Parser: "test"}, Conversations: []*conversation.Conversation{conv("X", "one", "two")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(t, ix)[KindConversation]; got != 2 {
		t.Fatalf("%d conversation documents, want 2 (one per file)", got)
	}
	// Removing one file leaves the other's documents whole.
	if err := ix.Apply(ctx, []Change{{State: FileState{Path: "/a.json"}, Remove: true}}); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, ix); got[KindConversation] != 1 || got[KindMessage] != 2 {
		t.Errorf("after removing one copy: %v, want 1 conversation and 2 messages", got)
	}
}

func TestFormatVersionRebuild(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	if err := ix.Apply(context.Background(), []Change{{State: FileState{Path: "/a", Parser: "test"}, Conversations: []*conversation.Conversation{conv("A", "x")}}}); err != nil {
		t.Fatal(err)
	}
	// Pretend the index was written by an older version.
	ix.idx.SetInternal(metaKey, []byte(`{"format_version":0}`))
	ix.Close()
	ix = open(t, dir)
	defer ix.Close()
	if !ix.Rebuilt() {
		t.Error("an index of another format version was not rebuilt")
	}
	if n := len(ix.Files()); n != 0 {
		t.Errorf("%d file records after rebuild, want 0", n)
	}
}

func TestSecondWriterGetsClearError(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	defer ix.Close()
	// An Open that waited forever would fail by the test's timeout.
	_, err := Open(Options{Dir: dir, LockTimeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.json")
	if err := WriteFileAtomic(path, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, map[string]int{"a": 2}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "{\n  \"a\": 2\n}\n" {
		t.Errorf("got %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

// TestConcurrentApply applies many files from several goroutines at once,
// on shared and disjoint shards: every record and document must land, and
// survive a reopen (a lost shard update would drop records).
func TestConcurrentApply(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	const files = 64
	errs := make(chan error, files)
	for i := range files {
		go func() {
			path := fmt.Sprintf("/c/%03d.json", i)
			errs <- ix.Apply(context.Background(), []Change{{
				State:         FileState{Path: path, Parser: "test"},
				Conversations: []*conversation.Conversation{conv(fmt.Sprintf("C%03d", i), "one", "two")},
			}})
		}()
	}
	for range files {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		if got := len(ix.Files()); got != files {
			t.Errorf("%s: %d file records, want %d", when, got, files)
		}
		if got := counts(t, ix); got[KindConversation] != files || got[KindMessage] != 2*files {
			t.Errorf("%s: %v, want %d conversations and %d messages", when, got, files, 2*files)
		}
	}
	check("after concurrent applies")
	ix.Close()
	ix = open(t, dir)
	defer ix.Close()
	check("after reopen")
}

func TestDamagedRecordsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	path := "/d/a.json"
	if err := ix.Apply(context.Background(), []Change{{State: FileState{Path: path, Parser: "test"}, Conversations: []*conversation.Conversation{conv("A", "x")}}}); err != nil {
		t.Fatal(err)
	}
	ix.idx.SetInternal(shardKey(shardOf(path)), []byte("{not json"))
	ix.Close()
	ix = open(t, dir)
	defer ix.Close()
	// Searching never reads the records, so it still works.
	if n := search(t, ix, FieldContent, "x"); n == 0 {
		t.Error("search failed on an index whose records are damaged")
	}
	err := ix.Apply(context.Background(), []Change{{State: FileState{Path: "/d/b.json", Parser: "test"}}})
	if err == nil || !strings.Contains(err.Error(), "--rebuild") {
		t.Errorf("Apply on damaged records: %v, want an error saying to rebuild", err)
	}
}

// TestHalfMadeIndex: an index a killed process left half-made (its marker
// still there) is made again; a damaged index without the marker is never
// removed by Open, and the error says how to start over.
func TestHalfMadeIndex(t *testing.T) {
	for _, tc := range []struct {
		name   string
		marker bool
		wantOK bool
	}{
		{"half-made", true, true},
		{"damaged", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := IndexPath(dir)
			if err := os.MkdirAll(filepath.Join(path, "store"), 0o755); err != nil {
				t.Fatal(err)
			}
			// What a kill right after Bleve wrote its meta file leaves.
			if err := os.WriteFile(filepath.Join(path, "index_meta.json"), []byte(`{"storage":"scorch","index_type":"scorch"}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.marker {
				if err := os.WriteFile(path+".creating", nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			ix, err := Open(Options{Dir: dir})
			if tc.wantOK {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				defer ix.Close()
				if _, err := os.Stat(path + ".creating"); err == nil {
					t.Error("the marker is still there")
				}
				return
			}
			if err == nil {
				ix.Close()
				t.Fatal("Open of a damaged index succeeded")
			}
			if !strings.Contains(err.Error(), "--rebuild") {
				t.Errorf("error %q does not say how to start over", err)
			}
			if _, serr := os.Stat(filepath.Join(path, "index_meta.json")); serr != nil {
				t.Errorf("Open removed the damaged index: %v", serr)
			}
		})
	}
}
