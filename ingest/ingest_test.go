package ingest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
)

// lineParser reads a toy format: a first line "TESTCONV <id>", then one
// message per line, and a companion "<file>.title" holding the title. It
// counts its parses so tests can prove unchanged files are not read.
type lineParser struct{ parses atomic.Int64 }

func (*lineParser) Info() parsers.Info {
	return parsers.Info{Name: "lines", Version: 1, Description: "test", Detection: "TESTCONV header"}
}

func (*lineParser) Detect(path string, head []byte) bool {
	return bytes.HasPrefix(head, []byte("TESTCONV "))
}

func (*lineParser) Companions(path string) []string { return []string{path + ".title"} }

func (p *lineParser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	p.parses.Add(1)
	sc := bufio.NewScanner(r)
	if !sc.Scan() {
		return nil, parsers.Errorf(path, 1, parsers.ErrSyntax, "empty")
	}
	id, ok := strings.CutPrefix(sc.Text(), "TESTCONV ")
	if !ok || id == "" {
		return nil, parsers.Errorf(path, 1, parsers.ErrSyntax, "no header")
	}
	c := &conversation.Conversation{ID: id, Title: id, Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	if t, err := os.ReadFile(path + ".title"); err == nil {
		c.Title = strings.TrimSpace(string(t))
	}
	for sc.Scan() {
		if sc.Text() == "BROKEN" {
			return nil, parsers.Errorf(path, 0, parsers.ErrSyntax, "broken on purpose")
		}
		c.Messages = append(c.Messages, conversation.Message{Role: conversation.RoleUser, Content: sc.Text()})
	}
	c.Renumber()
	return &parsers.Result{Conversations: []*conversation.Conversation{c}}, nil
}

type env struct {
	t    *testing.T
	root string
	p    *lineParser
	ix   *indexer.Index
	in   *Ingester
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	p := &lineParser{}
	return &env{t: t, root: t.TempDir(), p: p, ix: ix, in: New(parsers.NewRegistry(p), ix, nil, Options{})}
}

func (e *env) write(name, content string) string {
	e.t.Helper()
	path := filepath.Join(e.root, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// touch moves a file's mtime forward without changing its bytes.
func (e *env) touch(path string) {
	e.t.Helper()
	later := time.Now().Add(time.Duration(e.p.parses.Load()+1) * time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) reconcile() *Summary {
	e.t.Helper()
	s, err := e.in.Reconcile(context.Background(), []string{e.root})
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// messages returns the number of messages indexed per conversation.
func (e *env) messages() map[string]int {
	out := map[string]int{}
	for _, f := range e.ix.Files() {
		for _, c := range f.Conversations {
			out[c.ID] = c.Messages
		}
	}
	return out
}

func TestReconcile(t *testing.T) {
	e := newEnv(t)
	a := e.write("a.conv", "TESTCONV A\nhello\nworld\n")
	e.write("sub/b.conv", "TESTCONV B\none\n")
	e.write("notes.txt", "not a conversation")

	s := e.reconcile()
	if s.Parsed != 2 || s.Conversations != 2 || s.Messages != 3 {
		t.Errorf("first pass: %+v, want 2 files, 2 conversations, 3 messages", s.Progress)
	}
	if got := e.messages(); got["A"] != 2 || got["B"] != 1 {
		t.Errorf("indexed %v", got)
	}

	// Nothing changed: nothing is parsed.
	before := e.p.parses.Load()
	s = e.reconcile()
	if e.p.parses.Load() != before || s.Parsed != 0 || s.Unchanged != 2 || s.Skipped != 1 {
		t.Errorf("no-change pass parsed %d files (summary %+v)", e.p.parses.Load()-before, s.Progress)
	}

	// Touched but identical bytes: hashed, not parsed.
	e.touch(a)
	s = e.reconcile()
	if e.p.parses.Load() != before {
		t.Errorf("a touched file with the same bytes was parsed again")
	}

	// A changed file replaces its documents.
	e.write("a.conv", "TESTCONV A\nhello\n")
	e.reconcile()
	if got := e.messages(); got["A"] != 1 {
		t.Errorf("after change: A has %d messages, want 1", got["A"])
	}

	// A changed companion re-reads its primary.
	e.write("a.conv.title", "Greeting")
	e.reconcile()
	if st, _ := e.ix.File(a); len(st.Conversations) != 1 || st.Conversations[0].Title != "Greeting" {
		t.Errorf("after companion change: %+v, want title Greeting", st.Conversations)
	}

	// A file that no longer parses keeps its documents and records why.
	e.write("a.conv", "TESTCONV A\nBROKEN\n")
	s = e.reconcile()
	if s.Failed != 1 || len(s.Errors) != 1 || !strings.Contains(s.Errors[0].Err, "a.conv") {
		t.Errorf("broken file: %+v, want one error naming a.conv", s)
	}
	if got := e.messages(); got["A"] != 1 {
		t.Errorf("a broken file lost its documents: %v", got)
	}
	if st, _ := e.ix.File(a); st.Error == "" {
		t.Error("the broken file's error is not recorded")
	}

	// A removed file loses its documents.
	os.RemoveAll(filepath.Join(e.root, "sub"))
	s = e.reconcile()
	if s.Removed != 1 {
		t.Errorf("removed = %d, want 1", s.Removed)
	}
	if _, ok := e.messages()["B"]; ok {
		t.Error("B is still indexed after its file was removed")
	}
}

func TestReconcileLeavesOtherRoots(t *testing.T) {
	e := newEnv(t)
	e.write("a.conv", "TESTCONV A\nx\n")
	e.reconcile()
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "c.conv"), []byte("TESTCONV C\ny\n"), 0o644)
	if _, err := e.in.Reconcile(context.Background(), []string{other}); err != nil {
		t.Fatal(err)
	}
	if got := e.messages(); got["A"] != 1 || got["C"] != 1 {
		t.Errorf("reconciling another root changed this one: %v", got)
	}
}

func TestSync(t *testing.T) {
	e := newEnv(t)
	a := e.write("a.conv", "TESTCONV A\nx\n")
	e.reconcile()
	ctx := context.Background()

	b := e.write("b.conv", "TESTCONV B\ny\nz\n")
	if _, err := e.in.Sync(ctx, []string{b}); err != nil {
		t.Fatal(err)
	}
	if got := e.messages(); got["B"] != 2 {
		t.Errorf("Sync of a new file: %v", got)
	}

	// A companion's change re-reads its primary.
	title := e.write("a.conv.title", "Renamed")
	if _, err := e.in.Sync(ctx, []string{title}); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.ix.File(a); st.Conversations[0].Title != "Renamed" {
		t.Errorf("title after companion sync: %q", st.Conversations[0].Title)
	}

	os.Remove(b)
	if _, err := e.in.Sync(ctx, []string{b}); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.messages()["B"]; ok {
		t.Error("B still indexed after Sync of its removal")
	}

	// A new folder is walked whole; a removed folder takes its files along.
	e.write("d/e/f.conv", "TESTCONV F\n1\n")
	if _, err := e.in.Sync(ctx, []string{filepath.Join(e.root, "d")}); err != nil {
		t.Fatal(err)
	}
	if got := e.messages(); got["F"] != 1 {
		t.Errorf("Sync of a new folder: %v", got)
	}
	os.RemoveAll(filepath.Join(e.root, "d"))
	if _, err := e.in.Sync(ctx, []string{filepath.Join(e.root, "d")}); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.messages()["F"]; ok {
		t.Error("F still indexed after its folder was removed")
	}
}

func TestReconcileCancelled(t *testing.T) {
	e := newEnv(t)
	for i := range 20 {
		e.write(filepath.Join("many", strings.Repeat("x", i+1)+".conv"), "TESTCONV "+strings.Repeat("x", i+1)+"\nm\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.in.Reconcile(ctx, []string{e.root}); err == nil {
		t.Error("a cancelled Reconcile returned no error")
	}
	// The next pass completes the work.
	s := e.reconcile()
	if got := len(e.messages()); got != 20 {
		t.Errorf("after a cancelled pass and a full one: %d conversations, want 20 (%+v)", got, s.Progress)
	}
}

// manifestCounter is an Index whose index.json writes are counted.
type manifestCounter struct {
	Index
	writes atomic.Int64
}

func (m *manifestCounter) WriteManifest() error {
	m.writes.Add(1)
	return m.Index.WriteManifest()
}

// TestCloseFlushesTimedManifest: with ManifestEvery, a pass leaves the
// index.json write pending; Close writes it once, and the timer never fires
// after (it would write to a closed index).
func TestCloseFlushesTimedManifest(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pass       bool
		wantWrites int64
	}{
		{"a pass pending", true, 1},
		{"nothing pending", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			mc := &manifestCounter{Index: e.ix}
			in := New(parsers.NewRegistry(e.p), mc, nil, Options{ManifestEvery: 50 * time.Millisecond})
			if tc.pass {
				e.write("a.conv", "TESTCONV a\nhello\n")
				if _, err := in.Reconcile(context.Background(), []string{e.root}); err != nil {
					t.Fatal(err)
				}
				if n := mc.writes.Load(); n != 0 {
					t.Fatalf("index.json written %d times during the pass, want it left to the timer", n)
				}
			}
			if err := in.Close(); err != nil {
				t.Fatal(err)
			}
			if n := mc.writes.Load(); n != tc.wantWrites {
				t.Errorf("after Close: %d writes, want %d", n, tc.wantWrites)
			}
			// Past the timer's interval nothing more may be written.
			time.Sleep(150 * time.Millisecond)
			if n := mc.writes.Load(); n != tc.wantWrites {
				t.Errorf("the timer wrote after Close: %d writes, want %d", n, tc.wantWrites)
			}
			if err := in.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

func TestFileErrorNamesTheFileOnce(t *testing.T) {
	for _, tc := range []struct {
		e    FileError
		want string
	}{
		{FileError{Path: "/a/b.json", Err: "/a/b.json:3: syntax error"}, "/a/b.json:3: syntax error"},
		{FileError{Path: "/a/b.json", Err: "permission denied"}, "/a/b.json: permission denied"},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}

// TestSizedPass checks that a pass tells Sized its work before reading, and
// that the lanes it asks for index the same as the default.
func TestSizedPass(t *testing.T) {
	for _, lanes := range []int{0, 1, 3} {
		t.Run(fmt.Sprint(lanes), func(t *testing.T) {
			e := newEnv(t)
			var calls []int64
			e.in.opts.Sized = func(bytes int64) int {
				calls = append(calls, bytes)
				return lanes
			}
			var convs int64
			for i := range 7 {
				content := fmt.Sprintf("TESTCONV C%d\n%s\n", i, strings.Repeat("word ", i+1))
				e.write(fmt.Sprintf("d%d/c.conv", i), content)
				convs += int64(len(content))
			}
			s := e.reconcile()
			if len(calls) != 1 || calls[0] != convs {
				t.Errorf("Sized called with %v, want once with %d bytes", calls, convs)
			}
			if s.Parsed != 7 || len(e.messages()) != 7 {
				t.Errorf("with %d lanes: %+v, %d conversations indexed, want 7", lanes, s.Progress, len(e.messages()))
			}
			e.reconcile()
			if len(calls) != 1 {
				t.Errorf("a pass with nothing to read called Sized: %v", calls)
			}
		})
	}
}

// laterParser claims what lineParser does not: files starting "LATER ",
// unless blind, as its version 1 was.
type laterParser struct{ blind bool }

func (p laterParser) Info() parsers.Info {
	v := 2
	if p.blind {
		v = 1
	}
	return parsers.Info{Name: "later", Version: v, Description: "test", Detection: "LATER header"}
}

func (p laterParser) Detect(path string, head []byte) bool {
	return !p.blind && bytes.HasPrefix(head, []byte("LATER "))
}

func (laterParser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	c := &conversation.Conversation{ID: "later", Title: "later", Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "found at last"}}}
	c.Renumber()
	return &parsers.Result{Conversations: []*conversation.Conversation{c}}, nil
}

// A file no family claimed is sniffed again when the families change (an
// upgrade that reads what it could not), without the file being touched; with
// the same families it is not.
func TestUnclaimedFileSniffedAgainAfterUpgrade(t *testing.T) {
	e := newEnv(t)
	e.write("a.conv", "TESTCONV A\nhello\n")
	e.write("x.later", "LATER one\n")
	if s := e.reconcile(); s.Parsed != 1 || s.Conversations != 1 {
		t.Fatalf("first pass: %+v, want the one file lineParser reads", s.Progress)
	}
	for _, tt := range []struct {
		name          string
		reg           *parsers.Registry
		wantUnchanged int
		wantSkipped   int
		wantLater     bool
	}{
		{"same families", parsers.NewRegistry(e.p), 1, 1, false},
		// Another family, still blind to it: looked at again, not claimed.
		{"a family more", parsers.NewRegistry(e.p, laterParser{blind: true}), 1, 1, false},
		{"the same again", parsers.NewRegistry(e.p, laterParser{blind: true}), 1, 1, false},
		{"a family that reads it", parsers.NewRegistry(e.p, laterParser{}), 1, 0, true},
		{"read, unchanged", parsers.NewRegistry(e.p, laterParser{}), 2, 0, true},
	} {
		e.in = New(tt.reg, e.ix, nil, Options{})
		s := e.reconcile()
		if s.Unchanged != tt.wantUnchanged || s.Skipped != tt.wantSkipped {
			t.Errorf("%s: %d files unchanged, %d skipped; want %d, %d", tt.name, s.Unchanged, s.Skipped, tt.wantUnchanged, tt.wantSkipped)
		}
		if _, got := e.messages()["later"]; got != tt.wantLater {
			t.Errorf("%s: later conversation indexed = %v, want %v", tt.name, got, tt.wantLater)
		}
	}
}

// TestRebuildCarriesOtherRoots: a rebuild (here the redaction rules
// changed) over one root reads again every file the old index held under
// other roots, so that nothing indexed from them is lost; a file gone since
// is not carried over. Explicit --rebuild does the same.
func TestRebuildCarriesOtherRoots(t *testing.T) {
	for _, explicit := range []bool{false, true} {
		t.Run(fmt.Sprintf("explicit=%v", explicit), func(t *testing.T) {
			dir := t.TempDir()
			p := &lineParser{}
			reg := parsers.NewRegistry(p)
			rootA, rootB := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(rootA, "a.conv"), []byte("TESTCONV A\nx\ny\n"), 0o644)
			os.WriteFile(filepath.Join(rootA, "gone.conv"), []byte("TESTCONV G\nx\n"), 0o644)
			// Read again too, but no conversation: not counted as carried.
			os.WriteFile(filepath.Join(rootA, "notes.txt"), []byte("just notes\n"), 0o644)
			os.WriteFile(filepath.Join(rootB, "b.conv"), []byte("TESTCONV B\nz\n"), 0o644)

			ix, err := indexer.Open(indexer.Options{Dir: dir, Redaction: "rules-1"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := New(reg, ix, nil, Options{}).Reconcile(context.Background(), []string{rootA}); err != nil {
				t.Fatal(err)
			}
			ix.Close()
			os.Remove(filepath.Join(rootA, "gone.conv"))

			opts := indexer.Options{Dir: dir, Redaction: "rules-2"}
			if explicit {
				opts = indexer.Options{Dir: dir, Redaction: "rules-1", Rebuild: true}
			}
			ix, err = indexer.Open(opts)
			if err != nil {
				t.Fatal(err)
			}
			in := New(reg, ix, nil, Options{})
			s, err := in.Reconcile(context.Background(), []string{rootB})
			if err != nil {
				t.Fatal(err)
			}
			if s.Rebuild == "" || s.Carried != 1 || s.Parsed != 2 {
				t.Errorf("rebuild pass: rebuild %q, carried %d, parsed %d; want a reason, 1 carried, 2 parsed", s.Rebuild, s.Carried, s.Parsed)
			}
			if err := ix.Commit(); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, f := range ix.Files() {
				for _, c := range f.Conversations {
					got[c.ID] = c.Messages
				}
			}
			if fmt.Sprint(got) != "map[A:2 B:1]" {
				t.Errorf("after the rebuild the index holds %v, want map[A:2 B:1] (A from the other root kept, G gone)", got)
			}
			// The next pass is no rebuild: it neither says so nor carries.
			s, err = in.Reconcile(context.Background(), []string{rootB})
			if err != nil {
				t.Fatal(err)
			}
			if s.Rebuild != "" || s.Carried != 0 || s.Parsed != 0 {
				t.Errorf("pass after the rebuild: %+v", s)
			}
			ix.Close()
		})
	}
}

// Roots inside another, however given, are walked once: each file is seen,
// parsed and counted once.
func TestReconcileNestedRoots(t *testing.T) {
	e := newEnv(t)
	e.write("a.conv", "TESTCONV A\nhello\n")
	b := e.write("sub/b.conv", "TESTCONV B\none\n")
	e.write("notes.txt", "not a conversation")
	sub := filepath.Join(e.root, "sub")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(e.root, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		roots []string
	}{
		{"inner after outer", []string{e.root, sub}},
		{"inner first, with slashes", []string{sub + "/", b, e.root + "/"}},
		{"outer through a link", []string{link, sub}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.in = New(parsers.NewRegistry(e.p), e.ix, nil, Options{}) // same index
			if err := e.ix.Apply(context.Background(), removeAll(e.ix)); err != nil {
				t.Fatal(err)
			}
			before := e.p.parses.Load()
			s, err := e.in.Reconcile(context.Background(), tc.roots)
			if err != nil {
				t.Fatal(err)
			}
			if s.Seen != 3 || s.Parsed != 2 || s.Conversations != 2 || e.p.parses.Load()-before != 2 {
				t.Errorf("%+v, %d parses; want 3 seen, 2 parsed, 2 conversations", s.Progress, e.p.parses.Load()-before)
			}
		})
	}
}

// removeAll is the change that empties ix.
func removeAll(ix *indexer.Index) []indexer.Change {
	var out []indexer.Change
	for _, f := range ix.Files() {
		out = append(out, indexer.Change{State: indexer.FileState{Path: f.Path}, Remove: true})
	}
	return out
}

// Every file a pass sees is parsed, unchanged, failed or skipped (no
// conversation in it), on the first pass and every one after, whatever
// happened to the files in between.
func TestSummaryAddsUp(t *testing.T) {
	e := newEnv(t)
	a := e.write("a.conv", "TESTCONV A\nhello\n")
	e.write("sub/b.conv", "TESTCONV B\none\n")
	e.write("notes.txt", "not a conversation")
	e.write("data.csv", "a,b\n1,2\n")
	e.write("bad.conv", "TESTCONV C\nBROKEN\n")
	for _, tc := range []struct {
		name   string
		before func()
		want   Progress // the counts that matter; Seen is checked as the sum
	}{
		{"first", nil, Progress{Parsed: 3 - 1, Failed: 1, Skipped: 2}},
		// bad.conv, unchanged since it failed, is read again: failed, not unchanged.
		{"again", nil, Progress{Unchanged: 2, Failed: 1, Skipped: 2}},
		{"touched", func() { e.touch(a) }, Progress{Unchanged: 2, Failed: 1, Skipped: 2}},
		{"changed", func() { e.write("a.conv", "TESTCONV A\nbye\n") }, Progress{Parsed: 1, Unchanged: 1, Failed: 1, Skipped: 2}},
		{"a file more", func() { e.write("more.txt", "prose") }, Progress{Unchanged: 2, Failed: 1, Skipped: 3}},
	} {
		if tc.before != nil {
			tc.before()
		}
		s := e.reconcile()
		p := s.Progress
		if sum := p.Parsed + p.Unchanged + p.Failed + p.Skipped; sum != p.Seen {
			t.Errorf("%s: %d seen, but %d parsed + %d unchanged + %d failed + %d skipped = %d", tc.name, p.Seen, p.Parsed, p.Unchanged, p.Failed, p.Skipped, sum)
		}
		if p.Parsed != tc.want.Parsed || p.Unchanged != tc.want.Unchanged || p.Failed != tc.want.Failed || p.Skipped != tc.want.Skipped {
			t.Errorf("%s: %+v, want parsed %d, unchanged %d, failed %d, skipped %d", tc.name, p, tc.want.Parsed, tc.want.Unchanged, tc.want.Failed, tc.want.Skipped)
		}
	}
	// Sync counts the same way.
	e.write("other.txt", "prose")
	s, err := e.in.Sync(context.Background(), []string{filepath.Join(e.root, "other.txt"), a})
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Progress; p.Seen != 2 || p.Skipped != 1 || p.Unchanged != 1 {
		t.Errorf("sync: %+v, want 2 seen, 1 skipped, 1 unchanged", p)
	}
}
