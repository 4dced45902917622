package ingest

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/convsearch/convsearch/extract"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
)

// keptWatch is a batchSizer that counts the messages each Apply writes,
// from Kept on, and notes the Applies where the index did not keep what a
// change said it kept: the record's key of a change with Kept changed, so
// every message was written again, in a batch sized without them.
type keptWatch struct {
	*batchSizer
	ix       *indexer.Index
	mu       sync.Mutex
	messages []int // by Apply
	refused  []string
}

// Orphaned passes the index's on: the pass reads orphaned files again.
func (k *keptWatch) Orphaned() []string { return k.ix.Orphaned() }

func (k *keptWatch) Apply(ctx context.Context, changes []indexer.Change) error {
	before := map[string]string{}
	for _, ch := range changes {
		if st, ok := k.File(ch.State.Path); ok && ch.Kept > 0 && len(st.Conversations) == 1 {
			before[ch.State.Path] = st.Conversations[0].ID
		}
	}
	msgs := 0
	for _, ch := range changes {
		for _, c := range ch.Conversations {
			from, to := ch.Kept, len(c.Messages)
			if !ch.Messages.Whole() {
				from, to = ch.Messages.From, ch.Messages.To
			}
			msgs += to - from
		}
	}
	err := k.batchSizer.Apply(ctx, changes)
	k.mu.Lock()
	k.messages = append(k.messages, msgs)
	k.mu.Unlock()
	for path, key := range before {
		if st, _ := k.File(path); len(st.Conversations) != 1 || st.Conversations[0].ID != key {
			k.mu.Lock()
			k.refused = append(k.refused, filepath.Base(path))
			k.mu.Unlock()
		}
	}
	return err
}

// keptPasses opens an index for files in a new root and returns root,
// the index, write (file name in root holds conversation id, of lines
// lines, a minute newer than the last written) and pass (a Reconcile of
// root with BatchDocs batch, whose Applies a keptWatch notes).
func keptPasses(t *testing.T, batch int) (root string, ix *indexer.Index, write func(name, id string, lines int), pass func() *keptWatch) {
	t.Helper()
	root = t.TempDir()
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	ex := extract.New(nil, extract.Options{})
	reg := parsers.NewRegistry(&lineParser{})
	mtime := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	write = func(name, id string, lines int) {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(session(id, sessionLines(0, lines))), 0o644); err != nil {
			t.Fatal(err)
		}
		mtime = mtime.Add(time.Minute)
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	pass = func() *keptWatch {
		k := &keptWatch{batchSizer: &batchSizer{Index: ix}, ix: ix}
		in := New(reg, k, ex, Options{BatchDocs: batch, Workers: 1, Writers: 1})
		if _, err := in.Reconcile(context.Background(), []string{root}); err != nil {
			t.Fatal(err)
		}
		return k
	}
	return root, ix, write, pass
}

// withinBatch checks that no Apply k noted wrote more than batch messages.
// A first piece holds the conversation's own, topic and decision documents
// whatever their number; the messages are what the pieces bound.
func withinBatch(t *testing.T, step string, k *keptWatch, batch int) {
	t.Helper()
	for i, m := range k.messages {
		if m > batch {
			t.Errorf("%sApply %d: %d messages, over BatchDocs %d", step, i+1, m, batch)
		}
	}
}

// TestKeptPrefixWhenThePlainIDIsFreed: b.conv holds conversation S under
// S~hash (a.conv holds S). a.conv goes and b.conv grows in one pass:
// ingest plans b's change from the kept prefix on, sized without it. Every
// Apply stays within BatchDocs, and the pass ends with b.conv under the
// plain ID, consistent. The index used to refuse the keep (the key became
// S) and write all 401 messages in the first piece's batch.
func TestKeptPrefixWhenThePlainIDIsFreed(t *testing.T) {
	const n = 400
	for _, batch := range []int{40, 1000} {
		t.Run("BatchDocs "+strconv.Itoa(batch), func(t *testing.T) {
			root, ix, write, pass := keptPasses(t, batch)
			write("a.conv", "S", 10)
			pass()
			write("b.conv", "S", n)
			pass()
			b := filepath.Join(root, "b.conv")
			if st, _ := ix.File(b); len(st.Conversations) != 1 || st.Conversations[0].ID == "S" || st.Conversations[0].Prefix == 0 {
				t.Fatalf("b.conv recorded %+v, want S~hash with a prefix", st.Conversations)
			}
			if err := os.Remove(filepath.Join(root, "a.conv")); err != nil {
				t.Fatal(err)
			}
			write("b.conv", "S", n+1)
			k := pass()
			if len(k.refused) > 0 {
				t.Errorf("the index wrote every message again for a change sized from its kept prefix: %v", k.refused)
			}
			withinBatch(t, "", k, batch)
			if st, _ := ix.File(b); len(st.Conversations) != 1 || st.Conversations[0].ID != "S" || st.Conversations[0].Messages != n+1 {
				t.Errorf("b.conv recorded %+v, want S with %d messages", st.Conversations, n+1)
			}
			consistent(t, ix, "after the pass")
		})
	}
}

// consistent checks the index against its records and the files: every
// document is named by a record, every named document exists, and every
// message document holds the file's current line.
func consistent(t *testing.T, ix *indexer.Index, step string) {
	t.Helper()
	docs := storedDocs(t, ix)
	named := map[string]bool{}
	for _, st := range ix.Files() {
		for _, id := range st.DocIDs() {
			named[id] = true
			if _, ok := docs[id]; !ok {
				t.Errorf("%s: %s named by %s's record, missing", step, id, filepath.Base(st.Path))
			}
		}
		b, _ := os.ReadFile(st.Path)
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:]
		for _, c := range st.Conversations {
			for i := range c.Messages {
				d := docs[indexer.MessageDocID(c.ID, i)]
				if i < len(lines) && d != nil && d[indexer.FieldContent] != lines[i] {
					t.Errorf("%s: %s reads %q, file %q", step, indexer.MessageDocID(c.ID, i), d[indexer.FieldContent], lines[i])
				}
			}
		}
	}
	var stale []string
	for id := range docs {
		if !named[id] {
			stale = append(stale, id)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("%s: %d documents no record names: %v", step, len(stale), stale[:min(5, len(stale))])
	}
}

// TestKeptPrefixOfAnotherConversation: a file's conversation S~x (an ID
// of its own, with a tilde) becomes S, with the same messages and one
// more. The record is not S's, so nothing is kept: ingest cuts the
// change into pieces of BatchDocs from the first message, as the index
// writes it.
func TestKeptPrefixOfAnotherConversation(t *testing.T) {
	const n, batch = 400, 40
	root, ix, write, pass := keptPasses(t, batch)
	p := filepath.Join(root, "s.conv")
	for _, step := range []struct {
		id    string
		lines int
	}{{"S~x", n}, {"S", n + 1}} {
		write("s.conv", step.id, step.lines)
		k := pass()
		if len(k.refused) > 0 {
			t.Errorf("%s: the index refused a kept prefix: %v", step.id, k.refused)
		}
		withinBatch(t, step.id+": ", k, batch)
		if st, _ := ix.File(p); len(st.Conversations) != 1 || st.Conversations[0].ID != step.id || st.Conversations[0].Messages != step.lines {
			t.Errorf("%s: recorded %+v", step.id, st.Conversations)
		}
	}
	consistent(t, ix, "after the passes")
}
