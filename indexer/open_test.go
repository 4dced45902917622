package indexer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/conversation"
)

// apply writes one file holding c.
func apply(t *testing.T, ix *Index, path string, c ...*conversation.Conversation) {
	t.Helper()
	if err := ix.Apply(context.Background(), []Change{{State: FileState{Path: path, Parser: "test"}, Conversations: c}}); err != nil {
		t.Fatal(err)
	}
}

func messages(t *testing.T, ix *Index) uint64 { return counts(t, ix)[KindMessage] }

// listing names everything in dir, so a test can tell that nothing was
// created or removed.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, path)
			names = append(names, rel)
		}
		return nil
	})
	return strings.Join(names, "\n")
}

func TestReaderNeverCreatesOrRemoves(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		want    string // in the error
	}{
		{"no data folder", func(t *testing.T, dir string) { os.Remove(dir) }, "run `convsearch index`"},
		{"empty data folder", func(t *testing.T, dir string) {}, "run `convsearch index`"},
		{"index_meta.json missing", func(t *testing.T, dir string) {
			ix := open(t, dir)
			apply(t, ix, "/a.json", conv("c1", "hello", "world"))
			ix.Close()
			if err := os.Remove(filepath.Join(IndexPath(dir), "index_meta.json")); err != nil {
				t.Fatal(err)
			}
		}, "--rebuild"},
		{"root.bolt garbage", func(t *testing.T, dir string) {
			ix := open(t, dir)
			apply(t, ix, "/a.json", conv("c1", "hello", "world"))
			ix.Close()
			if err := os.WriteFile(filepath.Join(IndexPath(dir), "store", "root.bolt"), []byte(strings.Repeat("garbage!", 1000)), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "--rebuild"},
		{"half made", func(t *testing.T, dir string) {
			if err := os.MkdirAll(IndexPath(dir), 0o700); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(IndexPath(dir)+".creating", nil, 0o600)
		}, "run `convsearch index`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			os.Mkdir(dir, 0o700)
			tc.prepare(t, dir)
			before := listing(t, dir)
			ix, err := Open(Options{Dir: dir, ReadOnly: true})
			if err == nil {
				ix.Close()
				t.Fatal("a reader opened an index that is not there or not whole")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if after := listing(t, dir); after != before {
				t.Errorf("a reader changed the data folder:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

func TestWriterKeepsADamagedIndex(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	apply(t, ix, "/a.json", conv("c1", "hello", "world"))
	ix.Close()
	meta := filepath.Join(IndexPath(dir), "index_meta.json")
	os.Remove(meta)
	before := listing(t, dir)
	if _, err := Open(Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "--rebuild") {
		t.Fatalf("a writer opened a damaged index (err %v); it must say to rebuild", err)
	}
	if after := listing(t, dir); after != before {
		t.Errorf("a writer changed a damaged index:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	ix, err := Open(Options{Dir: dir, Rebuild: true})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, "/a.json", conv("c1", "hello", "world"))
	if err := ix.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := messages(t, ix); got != 2 {
		t.Errorf("rebuilt index has %d messages, want 2", got)
	}
	ix.Close()
}

// rebuilding makes an index in dir of 3 messages, then opens a rebuild of
// it that holds 1.
func rebuilding(t *testing.T, dir string) *Index {
	t.Helper()
	ix := open(t, dir)
	apply(t, ix, "/old.json", conv("old", "one", "two", "three"))
	ix.Close()
	rb, err := Open(Options{Dir: dir, Rebuild: true})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, rb, "/new.json", conv("new", "four"))
	return rb
}

func TestRebuildBesideTheOld(t *testing.T) {
	dir := t.TempDir()
	// A rebuild that ends without Commit (killed, cancelled, failed)
	// leaves the old index whole.
	rb := rebuilding(t, dir)
	if got := fmt.Sprint(rb.Carried()); got != "[/old.json]" || rb.Rebuilding() == "" {
		t.Errorf("--rebuild: carried %s (want [/old.json]), rebuilding %q", got, rb.Rebuilding())
	}
	// Readers open the old index meanwhile.
	r, err := Open(Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatalf("reader during a rebuild: %v", err)
	}
	if got := messages(t, r); got != 3 {
		t.Errorf("reader during a rebuild sees %d messages, want the old 3", got)
	}
	if err := rb.Close(); err != nil {
		t.Fatal(err)
	}
	if got := messages(t, r); got != 3 {
		t.Errorf("reader after an abandoned rebuild sees %d messages, want 3", got)
	}
	r.Close()
	if _, err := os.Stat(rebuildPath(IndexPath(dir))); !os.IsNotExist(err) {
		t.Errorf("an abandoned rebuild was left behind: %v", err)
	}
	ix := open(t, dir)
	if got := messages(t, ix); got != 3 {
		t.Errorf("after an abandoned rebuild: %d messages, want 3", got)
	}
	ix.Close()

	// A committed rebuild replaces it, while a reader that had the old
	// one open keeps reading it.
	r, err = Open(Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rb, err = Open(Options{Dir: dir, Rebuild: true})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, rb, "/new.json", conv("new", "four"))
	if err := rb.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := messages(t, rb); got != 1 {
		t.Errorf("committed rebuild: %d messages, want 1", got)
	}
	apply(t, rb, "/more.json", conv("more", "five"))
	if err := rb.Close(); err != nil {
		t.Fatal(err)
	}
	if got := messages(t, r); got != 3 {
		t.Errorf("a reader open before the swap sees %d messages, want the old 3", got)
	}
	ix = open(t, dir)
	defer ix.Close()
	if got := messages(t, ix); got != 2 {
		t.Errorf("after the committed rebuild and one more write: %d messages, want 2", got)
	}
	if _, ok := ix.File("/old.json"); ok {
		t.Error("the rebuilt index still records the old file")
	}
}

func TestSwapRecovery(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	apply(t, ix, "/a.json", conv("a", "one", "two"))
	ix.Close()
	path := IndexPath(dir)
	// Killed between the two renames of a swap, after a rebuild was made.
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(rebuildPath(path), 0o700)
	ix = open(t, dir)
	defer ix.Close()
	if got := messages(t, ix); got != 2 {
		t.Errorf("after recovery: %d messages, want the old 2", got)
	}
	for _, p := range []string{path + ".old", rebuildPath(path)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind", p)
		}
	}
}

func TestWriterLockTakenFirst(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	defer ix.Close()
	// A rebuild beside a writer fails before it removes or makes anything.
	before := listing(t, dir)
	_, err := Open(Options{Dir: dir, Rebuild: true, LockTimeout: 100e6})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("rebuild beside a writer: %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "process ") {
		t.Errorf("the error does not name the process holding the lock: %v", err)
	}
	if after := listing(t, dir); after != before {
		t.Errorf("a refused rebuild changed the data folder:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func TestDataFolderPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ix := open(t, dir)
	apply(t, ix, "/a.json", conv("a", "secret text"))
	ix.Close()
	check := func() {
		t.Helper()
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, _ := d.Info()
			if info.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s is %v: others can read it", path, info.Mode().Perm())
			}
			return nil
		})
	}
	check()
	// Loosened by hand (a restore, an old version): fixed on open. A file
	// that is not convsearch's stays as it is.
	os.Chmod(dir, 0o755)
	os.Chmod(ManifestPath(dir), 0o644)
	os.Chmod(filepath.Join(IndexPath(dir), "index_meta.json"), 0o666)
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, nil, 0o644)
	ix = open(t, dir)
	ix.Close()
	os.Remove(other)
	check()
	// A reader, which creates nothing, fixes them too.
	os.Chmod(dir, 0o755)
	os.Chmod(ManifestPath(dir), 0o644)
	os.Chmod(filepath.Join(IndexPath(dir), "index_meta.json"), 0o666)
	ro, err := Open(Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	check()
}

// TestCommitWhileSearching: searches, stats and reads of the record of
// passes that run while a rebuild takes the old index's place see one
// index or the other, whole, never a closed or missing one; after Close
// they get an error, not a panic. Run with -race to see the old unguarded
// swap.
func TestCommitWhileSearching(t *testing.T) {
	rb := rebuilding(t, t.TempDir())
	if err := rb.MarkReconciled([]string{"/r"}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stop := make(chan struct{})
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				q := bleve.NewTermQuery(KindMessage)
				q.SetField(FieldType)
				res, err := rb.Search(ctx, bleve.NewSearchRequestOptions(q, 0, 0, false))
				if err != nil {
					errs <- fmt.Errorf("search during the swap: %w", err)
					return
				}
				// The rebuilt index before and after the write that follows
				// the swap; never the old one's 3.
				if res.Total != 1 && res.Total != 4 {
					errs <- fmt.Errorf("search during the swap found %d messages, want the rebuilt index's 1 or 4", res.Total)
					return
				}
				if _, err := rb.Stats(ctx); err != nil {
					errs <- fmt.Errorf("stats during the swap: %w", err)
					return
				}
				// The mark went into the rebuilt index, which keeps it.
				if got := rb.Reconciled(); len(got) != 1 || got[0] != "/r" {
					errs <- fmt.Errorf("reconciled roots during the swap: %q, want /r", got)
					return
				}
			}
		}()
	}
	if err := rb.Commit(); err != nil {
		t.Fatal(err)
	}
	apply(t, rb, "/more.json", conv("more", "five", "six", "seven"))
	close(stop)
	for range 3 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if err := rb.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Search(ctx, bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)); !errors.Is(err, errClosed) {
		t.Errorf("search after Close: err %v, want errClosed", err)
	}
	if _, err := rb.Stats(ctx); !errors.Is(err, errClosed) {
		t.Errorf("stats after Close: err %v, want errClosed", err)
	}
	if got := rb.Reconciled(); got != nil {
		t.Errorf("reconciled after Close: %v", got)
	}
	err := rb.Apply(ctx, []Change{{State: FileState{Path: "/late.json", Parser: "test"}, Conversations: []*conversation.Conversation{conv("late", "seven")}}})
	if !errors.Is(err, errClosed) {
		t.Errorf("apply after Close: err %v, want errClosed", err)
	}
	// A reader closed before it read its file records has none, and says so
	// without a panic.
	dir := t.TempDir()
	w := open(t, dir)
	apply(t, w, "/a.json", conv("a", "one"))
	w.Close()
	r, err := Open(Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if files := r.Files(); len(files) != 0 {
		t.Errorf("files of a closed reader: %v", files)
	}
}

// blockingCloser never finishes closing, as Bleve does when its merger is
// stuck in a damaged segment.
type blockingCloser struct{ release chan struct{} }

func (b blockingCloser) Close() error { <-b.release; return nil }

func TestCloseWithinGivesUp(t *testing.T) {
	b := blockingCloser{make(chan struct{})}
	defer close(b.release)
	if err := closeWithin(b, 10*time.Millisecond); !errors.Is(err, errCloseTimeout) {
		t.Errorf("closing a closer that never returns: %v, want errCloseTimeout", err)
	}
	if err := closeWithin(io.NopCloser(nil), time.Minute); err != nil {
		t.Errorf("closing a closer that returns at once: %v", err)
	}
}

// TestAutomaticRebuildBeside: a writer that finds the index made under other
// redaction rules, or by another format version, rebuilds it beside the old
// one, as --rebuild does: the old index stays whole and readable until
// Commit, survives a rebuild abandoned half-way, and names the files it held
// so that the rebuild reads them all again.
func TestAutomaticRebuildBeside(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(Options{Dir: dir, Redaction: "rules-1"})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, "/old.json", conv("old", "one", "two", "three"))
	apply(t, ix, "/elsewhere/other.json", conv("other", "four"))
	ix.Close()

	rb, err := Open(Options{Dir: dir, Redaction: "rules-2"})
	if err != nil {
		t.Fatal(err)
	}
	if why := rb.Rebuilding(); !strings.Contains(why, "redaction") {
		t.Errorf("Rebuilding() = %q, want why (the redaction rules changed)", why)
	}
	if got, want := fmt.Sprint(rb.Carried()), "[/elsewhere/other.json /old.json]"; got != want {
		t.Errorf("Carried() = %s, want %s", got, want)
	}
	apply(t, rb, "/new.json", conv("new", "five"))
	// The old index is readable, whole, while the rebuild goes on.
	r, err := Open(Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatalf("reader during the rebuild: %v", err)
	}
	if got := messages(t, r); got != 4 {
		t.Errorf("reader during the rebuild sees %d messages, want the old 4", got)
	}
	r.Close()
	// Abandoned (killed, cancelled): closed without Commit.
	if err := rb.Close(); err != nil {
		t.Fatal(err)
	}
	old, err := Open(Options{Dir: dir, Redaction: "rules-1"})
	if err != nil {
		t.Fatal(err)
	}
	if old.Rebuilding() != "" || messages(t, old) != 4 {
		t.Errorf("after an abandoned rebuild: rebuilding %q, %d messages; want the old index, 4", old.Rebuilding(), messages(t, old))
	}
	old.Close()

	// The next writer under the new rules starts the rebuild again, and its
	// Commit puts the new index in place.
	rb, err = Open(Options{Dir: dir, Redaction: "rules-2"})
	if err != nil {
		t.Fatal(err)
	}
	if rb.Rebuilding() == "" || len(rb.Carried()) != 2 {
		t.Fatalf("the rebuild did not start again: %q, %v", rb.Rebuilding(), rb.Carried())
	}
	apply(t, rb, "/new.json", conv("new", "five"))
	if err := rb.Commit(); err != nil {
		t.Fatal(err)
	}
	if rb.Rebuilding() != "" || rb.Carried() != nil {
		t.Errorf("after Commit: rebuilding %q, carried %v", rb.Rebuilding(), rb.Carried())
	}
	rb.Close()
	ix, err = Open(Options{Dir: dir, Redaction: "rules-2"})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Rebuilding() != "" || messages(t, ix) != 1 {
		t.Errorf("after the committed rebuild: rebuilding %q, %d messages; want the new index, 1", ix.Rebuilding(), messages(t, ix))
	}
}

func TestOldFormatRebuildBeside(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	apply(t, ix, "/old.json", conv("old", "one", "two"))
	ix.idx.SetInternal(metaKey, []byte(`{"format_version":0}`))
	ix.Close()
	for range 2 {
		// Closed without Commit each time: the old index is kept, and the
		// next writer finds it old again.
		rb := open(t, dir)
		if why := rb.Rebuilding(); !strings.Contains(why, "version") {
			t.Errorf("Rebuilding() = %q, want another version", why)
		}
		if got := fmt.Sprint(rb.Carried()); got != "[/old.json]" {
			t.Errorf("Carried() = %s, want [/old.json]", got)
		}
		rb.Close()
		if _, err := os.Stat(filepath.Join(IndexPath(dir), "index_meta.json")); err != nil {
			t.Fatalf("the old index is gone: %v", err)
		}
	}
}

// TestRedactionRulesOnOpen: a writer that names other rules than the index
// was made under starts it again; one that names none (an open that forgot
// them) is refused and the index left whole; a reader needs none.
func TestRedactionRulesOnOpen(t *testing.T) {
	cases := []struct {
		name     string
		opts     Options // Dir filled in
		wantErr  string  // "" for no error
		wantMsgs uint64  // messages the index holds once opened
	}{
		{"writer, same rules", Options{Redaction: "r1"}, "", 1},
		{"writer, other rules", Options{Redaction: "r2"}, "", 0},
		{"writer, rules off", Options{Redaction: "off"}, "", 0},
		{"writer, no rules named", Options{}, `redaction rules "r1"`, 1},
		{"reader, no rules named", Options{ReadOnly: true}, "", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ix, err := Open(Options{Dir: dir, Redaction: "r1"})
			if err != nil {
				t.Fatal(err)
			}
			apply(t, ix, "/a.json", conv("c1", "hello"))
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			o := tc.opts
			o.Dir = dir
			ix, err = Open(o)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Open: %v, want an error saying %q", err, tc.wantErr)
				}
				ix, err = Open(Options{Dir: dir, ReadOnly: true})
			}
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if n := messages(t, ix); n != tc.wantMsgs {
				t.Errorf("%d messages, want %d", n, tc.wantMsgs)
			}
		})
	}
}
