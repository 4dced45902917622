package indexer

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/conversation"
)

// A Change that keeps a conversation's first messages keeps their
// documents only if the file's record gives the same Prefix, hash and key;
// else the whole conversation is written. Documents the conversation no
// longer has are deleted either way.
func TestKeptOnlyIfTheRecordAgrees(t *testing.T) {
	msgs := func(n int, word string) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%s message %d", word, i))
		}
		return out
	}
	tests := []struct {
		name     string
		id       string // of the conversation read again
		hash     func(p Prefix) string
		wantKept bool
	}{
		{"the record agrees", "c1", func(p Prefix) string { return p.Hash }, true},
		{"another hash", "c1", func(Prefix) string { return "0123" }, false},
		{"another conversation", "c2", func(p Prefix) string { return p.Hash }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := open(t, t.TempDir())
			defer ix.Close()
			const path = "/s.jsonl"
			first := conv("c1", msgs(20, "old")...)
			pre, _ := PrefixOf(first, 0)
			if pre.N != 20-contextReach || pre.Hash == "" {
				t.Fatalf("prefix %+v, want %d messages and a hash", pre, 20-contextReach)
			}
			if err := ix.Apply(context.Background(), []Change{{State: FileState{Path: path, Size: 1}, Conversations: []*conversation.Conversation{first}, Prefix: pre}}); err != nil {
				t.Fatal(err)
			}
			// Read again: every message says "new", 15 of them. Kept
			// claims the first pre.N are as before: if the record agrees,
			// their documents stay ("old"), which no real read would
			// claim, to tell kept from written.
			again := conv(tt.id, msgs(15, "new")...)
			again2, _ := PrefixOf(again, 0)
			ch := Change{State: FileState{Path: path, Size: 2}, Conversations: []*conversation.Conversation{again}, Prefix: again2, Kept: pre.N, KeptHash: tt.hash(pre)}
			if err := ix.Apply(context.Background(), []Change{ch}); err != nil {
				t.Fatal(err)
			}
			content := func(id string) string {
				req := bleve.NewSearchRequest(bleve.NewDocIDQuery([]string{id}))
				req.Fields = []string{FieldContent}
				res, err := ix.Search(context.Background(), req)
				if err != nil || len(res.Hits) == 0 {
					return ""
				}
				s, _ := res.Hits[0].Fields[FieldContent].(string)
				return s
			}
			kept := content(MessageDocID(tt.id, 0)) == "old message 0"
			if kept != tt.wantKept {
				t.Errorf("message 0 reads %q; kept %v, want %v", content(MessageDocID(tt.id, 0)), kept, tt.wantKept)
			}
			if got := content(MessageDocID(tt.id, 14)); got != "new message 14" {
				t.Errorf("message 14 reads %q, want the new text", got)
			}
			for _, id := range []string{MessageDocID("c1", 15), MessageDocID("c1", 19)} {
				if got := content(id); got != "" {
					t.Errorf("%s is gone from the file, still reads %q", id, got)
				}
			}
			if tt.id != "c1" && content(MessageDocID("c1", 0)) != "" {
				t.Errorf("the old conversation's kept documents stayed behind")
			}
			st, _ := ix.File(path)
			if len(st.Conversations) != 1 || st.Conversations[0].Prefix != again2.N || st.Conversations[0].PrefixHash != again2.Hash {
				t.Errorf("record %+v, want the new prefix %+v", st.Conversations, again2)
			}
		})
	}
}

// A copy indexed under ID~hash whose owner went keeps its key, and what it
// kept, when read again with a kept prefix (see
// TestKeptKeyStaysWhenThePlainIDIsFreed); read again whole (ingest's
// forced read of an orphaned file), it takes the plain ID: the documents
// under the old key go, and all are written under the new one.
func TestKeptUnderAKeyThatChanges(t *testing.T) {
	ix := open(t, t.TempDir())
	defer ix.Close()
	var texts []string
	for i := range 20 {
		texts = append(texts, fmt.Sprintf("message %d", i))
	}
	c := conv("c1", texts...)
	pre, _ := PrefixOf(c, 0)
	apply := func(ch Change) {
		t.Helper()
		if err := ix.Apply(context.Background(), []Change{ch}); err != nil {
			t.Fatal(err)
		}
	}
	apply(Change{State: FileState{Path: "/a.jsonl", Size: 1}, Conversations: []*conversation.Conversation{c}, Prefix: pre})
	apply(Change{State: FileState{Path: "/b.jsonl", Size: 1}, Conversations: []*conversation.Conversation{c}, Prefix: pre})
	st, _ := ix.File("/b.jsonl")
	oldKey := st.Conversations[0].ID
	if oldKey == "c1" {
		t.Fatalf("the copy took the plain ID")
	}
	apply(Change{State: FileState{Path: "/a.jsonl"}, Remove: true})
	count := func() (plain, old int) {
		t.Helper()
		req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 1000, 0, false)
		res, err := ix.Search(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			switch conv, _, _ := ParseDocID(h.ID); conv {
			case "c1":
				plain++
			case oldKey:
				old++
			}
		}
		return plain, old
	}
	const want = 1 + 20 + 1 + 1
	apply(Change{State: FileState{Path: "/b.jsonl", Size: 2}, Conversations: []*conversation.Conversation{c}, Prefix: pre, Kept: pre.N, KeptHash: pre.Hash})
	if plain, old := count(); plain != 0 || old != want || !slices.Contains(ix.Orphaned(), "/b.jsonl") {
		t.Errorf("read with a kept prefix: %d documents under c1, %d under %s, orphaned %q; want 0 and %d, orphaned", plain, old, oldKey, ix.Orphaned(), want)
	}
	apply(Change{State: FileState{Path: "/b.jsonl", Size: 3}, Conversations: []*conversation.Conversation{c}, Prefix: pre})
	if plain, old := count(); plain != want || old != 0 {
		t.Errorf("read whole: %d documents under c1, %d under %s; want %d and 0", plain, old, oldKey, want)
	}
}

// TestKeptKeyStaysWhenThePlainIDIsFreed: a file holding a conversation
// under ID~hash grows while the file that held the plain ID goes in the same
// batch. Ingest sized the first piece without the kept messages: the index
// keeps them under ID~hash, rather than take the plain ID and write every
// message from the first in this one batch (810 operations for a piece of
// 9 messages), and names the file orphaned, for the pass to read it again
// whole, in bounded pieces, under the plain ID.
func TestKeptKeyStaysWhenThePlainIDIsFreed(t *testing.T) {
	msgs := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("line %d", i))
		}
		return out
	}
	for _, tt := range []struct {
		name     string
		removeA  bool
		wantKey  string // b's after the batch
		orphaned bool
	}{
		{"plain ID held", false, copyKey("S", "/b"), false},
		{"plain ID freed in the batch", true, copyKey("S", "/b"), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ix := open(t, t.TempDir())
			defer ix.Close()
			ctx := context.Background()
			if err := ix.Apply(ctx, []Change{{State: FileState{Path: "/a", Size: 1, Hash: "h"}, Conversations: []*conversation.Conversation{conv("S", "hello", "there")}}}); err != nil {
				t.Fatal(err)
			}
			b := conv("S", msgs(400)...)
			pre, _ := PrefixOf(b, 0)
			if err := ix.Apply(ctx, []Change{{State: FileState{Path: "/b", Size: 1, Hash: "h"}, Conversations: []*conversation.Conversation{b}, Prefix: pre}}); err != nil {
				t.Fatal(err)
			}
			grown := conv("S", msgs(401)...)
			pre2, h := PrefixOf(grown, pre.N)
			// What ingest sends: the removal, then the first piece, from
			// Kept on.
			var changes []Change
			if tt.removeA {
				changes = append(changes, Change{State: FileState{Path: "/a"}, Remove: true})
			}
			changes = append(changes, Change{State: FileState{Path: "/b", Size: -1}, Conversations: []*conversation.Conversation{grown},
				Kept: pre.N, KeptHash: h, Prefix: pre2, Messages: Range{From: pre.N, To: 401}})
			ix.mu.Lock()
			p, err := ix.prepare(changes)
			n := p.batch.Size()
			p.undoOwners(ix)
			ix.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			// The piece's messages and head documents, the kept prefix's
			// context documents, a's documents, the records: well under a
			// hundred.
			if n > 100 {
				t.Errorf("a piece of %d messages makes %d batch operations: the kept messages were written again", 401-pre.N, n)
			}
			if err := ix.Apply(ctx, changes); err != nil {
				t.Fatal(err)
			}
			if st, _ := ix.File("/b"); len(st.Conversations) != 1 || st.Conversations[0].ID != tt.wantKey {
				t.Errorf("b keyed %+v, want %s", st.Conversations, tt.wantKey)
			}
			if got := slices.Contains(ix.Orphaned(), "/b"); got != tt.orphaned {
				t.Errorf("b orphaned: %v, want %v", got, tt.orphaned)
			}
		})
	}
}
