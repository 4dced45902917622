package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
)

// A file that failed is read again on the next pass even when its size and
// mtime did not change: permissions fixed (only the ctime moves), or bytes
// fixed with the mtime put back.
func TestFailedFileRetried(t *testing.T) {
	e := newEnv(t)
	path := e.write("a.conv", "TESTCONV A\nBROKEN\n")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	mtime := info.ModTime()
	sameStamp := func(content string) func() {
		return func() {
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
	}
	chmod := func(mode os.FileMode) func() {
		return func() {
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	root := os.Geteuid() == 0 // permission bits do not stop root
	tests := []struct {
		name     string
		before   func()
		skip     bool
		failed   int // failed this pass: for the first time, or again
		still    int // failed again, unchanged
		messages int // of conversation A, -1 for not indexed
	}{
		{"first pass fails", nil, false, 1, 0, -1},
		{"unchanged: tried again, still failing", nil, false, 1, 1, -1},
		{"fixed, same size and mtime", sameStamp("TESTCONV A\nFIXED!\n"), false, 0, 0, 1},
		{"unreadable", chmod(0), root, 1, 0, 1},
		{"readable again: only the ctime moved", chmod(0o644), root, 0, 0, 1},
	}
	for _, tt := range tests {
		if tt.skip {
			t.Logf("%s: skipped (running as root)", tt.name)
			continue
		}
		if tt.before != nil {
			tt.before()
		}
		s := e.reconcile()
		if s.Failed != tt.failed || len(s.StillFailing) != tt.still || s.Failed != len(s.Errors)+len(s.StillFailing) || s.Unchanged != 0 {
			t.Errorf("%s: %d failed, %d still failing, %d unchanged; want %d and %d, none unchanged (errors %v, still %v)", tt.name, s.Failed, len(s.StillFailing), s.Unchanged, tt.failed, tt.still, s.Errors, s.StillFailing)
		}
		if s.Seen != s.Parsed+s.Unchanged+s.Failed+s.Skipped {
			t.Errorf("%s: %d seen, but %d parsed + %d unchanged + %d failed + %d skipped", tt.name, s.Seen, s.Parsed, s.Unchanged, s.Failed, s.Skipped)
		}
		got, ok := e.messages()["A"]
		if !ok {
			got = -1
		}
		if got != tt.messages {
			t.Errorf("%s: A has %d messages indexed, want %d", tt.name, got, tt.messages)
		}
		st, _ := e.ix.File(path)
		if failing := tt.failed+tt.still > 0; (st.Error != "") != failing {
			t.Errorf("%s: recorded error %q, want one: %v", tt.name, st.Error, failing)
		}
	}
}

// manyParser reads "MANY <conversations> <messages>": that many
// conversations of that many messages each, to make a file bigger than a
// batch.
type manyParser struct{}

func (manyParser) Info() parsers.Info {
	return parsers.Info{Name: "many", Version: 1, Description: "test", Detection: "MANY header"}
}

func (manyParser) Detect(path string, head []byte) bool {
	return strings.HasPrefix(string(head), "MANY ")
}

func (manyParser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var nc, nm int
	if _, err := fmt.Sscanf(string(b), "MANY %d %d", &nc, &nm); err != nil {
		return nil, parsers.Errorf(path, 1, parsers.ErrSyntax, "%v", err)
	}
	res := &parsers.Result{}
	for i := range nc {
		c := &conversation.Conversation{ID: "conv-" + strconv.Itoa(i), Title: "t", Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
		for j := range nm {
			c.Messages = append(c.Messages, conversation.Message{Role: conversation.RoleUser, Content: fmt.Sprintf("message %d of %d", j, i)})
		}
		c.Renumber()
		res.Conversations = append(res.Conversations, c)
	}
	return res, nil
}

// applyCounter is an Index that counts and sizes Applies, and can fail one.
type applyCounter struct {
	Index
	mu      sync.Mutex
	applies int
	maxDocs int
	failAt  int // the Apply (from 1) that fails; 0 for none
	files   int // calls of Files
}

func (a *applyCounter) Apply(ctx context.Context, changes []indexer.Change) error {
	a.mu.Lock()
	a.applies++
	n := a.applies
	docs := 0
	for _, ch := range changes {
		docs++
		for _, c := range ch.Conversations {
			docs += docsOf(c)
		}
	}
	a.maxDocs = max(a.maxDocs, docs)
	a.mu.Unlock()
	if n == a.failAt {
		return errors.New("disk on fire")
	}
	return a.Index.Apply(ctx, changes)
}

func (a *applyCounter) Files() []indexer.FileState {
	a.mu.Lock()
	a.files++
	a.mu.Unlock()
	return a.Index.Files()
}

// A file whose documents overrun a batch goes in several, each within
// BatchDocs; a pass stopped between them leaves the file to be read again,
// and the next pass indexes it whole.
func TestBigFileSplitAcrossBatches(t *testing.T) {
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	root := t.TempDir()
	path := filepath.Join(root, "big.many")
	if err := os.WriteFile(path, []byte("MANY 40 9"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := parsers.NewRegistry(manyParser{})
	const batch = 50 // 10 documents a conversation: 5 a batch

	tests := []struct {
		name        string
		failAt      int
		wantErr     bool
		wantApplies int
		wantConvs   int // recorded for the file
		wantSize    int64
	}{
		{"second batch fails", 2, true, 2, 5, -1},
		{"next pass reads it again", 0, false, 8, 40, 9},
		{"then it is unchanged", 0, false, 0, 40, 9},
	}
	for _, tt := range tests {
		ac := &applyCounter{Index: ix, failAt: tt.failAt}
		in := New(reg, ac, nil, Options{BatchDocs: batch, Workers: 1, Writers: 1})
		_, err := in.Reconcile(context.Background(), []string{root})
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err %v, want one: %v", tt.name, err, tt.wantErr)
		}
		st, _ := ix.File(path)
		if ac.applies != tt.wantApplies || len(st.Conversations) != tt.wantConvs || st.Size != tt.wantSize {
			t.Errorf("%s: %d applies, %d conversations recorded, size %d; want %d, %d, %d",
				tt.name, ac.applies, len(st.Conversations), st.Size, tt.wantApplies, tt.wantConvs, tt.wantSize)
		}
		if ac.maxDocs > batch+1 {
			t.Errorf("%s: a batch of %d documents, want at most %d", tt.name, ac.maxDocs, batch+1)
		}
	}
	st, _ := ix.File(path)
	if st.Messages != 40*9 || st.Hash == "" || st.Error != "" {
		t.Errorf("final record: %d messages, hash %q, error %q; want 360, a hash, none", st.Messages, st.Hash, st.Error)
	}
}

// A text over MaxTextBytes is indexed cut, with a warning naming the file.
func TestLongTextCapped(t *testing.T) {
	e := newEnv(t)
	e.in = New(parsers.NewRegistry(e.p), e.ix, nil, Options{MaxTextBytes: 100})
	e.write("a.conv", "TESTCONV A\n"+strings.Repeat("x", 300)+"\nshort\n")
	s := e.reconcile()
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].String(), "a.conv") || !strings.Contains(s.Warnings[0].Err, "1 texts longer than 100 bytes") {
		t.Errorf("warnings %v, want one naming a.conv and 1 text", s.Warnings)
	}
	if got := e.messages()["A"]; got != 2 {
		t.Errorf("A has %d messages, want 2", got)
	}
}

// Removing many files reads the index's records once, not once a path.
func TestSyncRemovalsReadRecordsOnce(t *testing.T) {
	e := newEnv(t)
	var paths []string
	for i := range 30 {
		paths = append(paths, e.write(fmt.Sprintf("d%d/f.conv", i), "TESTCONV F"+strconv.Itoa(i)+"\nx\n"))
	}
	e.reconcile()
	ac := &applyCounter{Index: e.ix}
	in := New(parsers.NewRegistry(e.p), ac, nil, Options{})
	var gone []string
	for i, p := range paths {
		os.RemoveAll(filepath.Dir(p))
		gone = append(gone, p)
		if i%2 == 0 {
			gone = append(gone, filepath.Dir(p)) // the folder's event too
		}
	}
	s, err := in.Sync(context.Background(), gone)
	if err != nil {
		t.Fatal(err)
	}
	if s.Removed != 30 || len(e.ix.Files()) != 0 {
		t.Errorf("removed %d, %d records left; want 30 and 0", s.Removed, len(e.ix.Files()))
	}
	if ac.files > 2 {
		t.Errorf("Files called %d times for %d removed paths, want at most 2", ac.files, len(gone))
	}
}

// memIndex is an in-memory Index whose Files copies and sorts, as the
// indexer's does.
type memIndex struct {
	mu    sync.Mutex
	files map[string]indexer.FileState
}

func (m *memIndex) File(path string) (indexer.FileState, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.files[path]
	return f, ok
}

func (m *memIndex) Files() []indexer.FileState {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]indexer.FileState, 0, len(m.files))
	for _, f := range m.files {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func (m *memIndex) Apply(_ context.Context, changes []indexer.Change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ch := range changes {
		if ch.Remove {
			delete(m.files, ch.State.Path)
		} else {
			m.files[ch.State.Path] = ch.State
		}
	}
	return nil
}

func (m *memIndex) WriteManifest() error { return nil }

// BenchmarkRemoveMany syncs the removal of 2,000 files (and their folders)
// from an index of 20,000.
func BenchmarkRemoveMany(b *testing.B) {
	const total, removed = 20000, 2000
	root := b.TempDir()
	var gone []string
	base := map[string]indexer.FileState{}
	for i := range total {
		p := filepath.Join(root, fmt.Sprintf("p%03d", i%200), fmt.Sprintf("s%05d.jsonl", i))
		base[p] = indexer.FileState{Path: p, Parser: "lines", Size: 1}
		if i < removed {
			gone = append(gone, p)
		}
	}
	reg := parsers.NewRegistry(&lineParser{})
	for b.Loop() {
		b.StopTimer()
		m := &memIndex{files: make(map[string]indexer.FileState, total)}
		for k, v := range base {
			m.files[k] = v
		}
		in := New(reg, m, nil, Options{})
		b.StartTimer()
		s, err := in.Sync(context.Background(), gone)
		if err != nil || s.Removed != removed {
			b.Fatalf("removed %d, err %v", s.Removed, err)
		}
	}
}
