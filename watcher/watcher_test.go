package watcher

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// deadline is how long a test waits for a batch it expects. It is generous:
// no test asserts how fast anything happens.
const deadline = 20 * time.Second

// harness runs a Watcher and keeps every batch it sends.
type harness struct {
	t    *testing.T
	w    *Watcher
	mu   sync.Mutex
	got  []Batch
	news chan struct{}
	logs *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs a watcher of roots; hook, if set, may change it before Run.
func start(t *testing.T, roots []string, opts Options, hook func(*Watcher)) *harness {
	t.Helper()
	logs := &syncBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if opts.Debounce == 0 {
		opts.Debounce = 100 * time.Millisecond
	}
	if opts.Poll == 0 {
		opts.Poll = 20 * time.Millisecond
	}
	w, err := New(roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	if hook != nil {
		hook(w)
	}
	h := &harness{t: t, w: w, news: make(chan struct{}, 1), logs: logs}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	go func() {
		for b := range w.Batches() {
			h.mu.Lock()
			h.got = append(h.got, b)
			h.mu.Unlock()
			select {
			case h.news <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	first := h.wait("the initial batch", func(b Batch) bool { return b.Initial })
	if first != 0 {
		t.Fatalf("the initial batch came at position %d", first)
	}
	return h
}

// wait returns the position of the first batch that satisfies ok, failing
// the test after the deadline.
func (h *harness) wait(what string, ok func(Batch) bool) int {
	h.t.Helper()
	return h.waitFrom(0, what, ok)
}

func (h *harness) waitFrom(from int, what string, ok func(Batch) bool) int {
	h.t.Helper()
	timeout := time.After(deadline)
	for {
		h.mu.Lock()
		for i := from; i < len(h.got); i++ {
			if ok(h.got[i]) {
				h.mu.Unlock()
				return i
			}
		}
		h.mu.Unlock()
		select {
		case <-h.news:
		case <-timeout:
			h.mu.Lock()
			defer h.mu.Unlock()
			h.t.Fatalf("no batch with %s; got %+v\nlog:\n%s", what, h.got, h.logs.String())
			return -1
		}
	}
}

// waitPath waits for a batch listing path.
func (h *harness) waitPath(path string) int {
	h.t.Helper()
	return h.wait(path, func(b Batch) bool { return slices.Contains(b.Paths, path) })
}

// count returns how many batches list path.
func (h *harness) count(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, b := range h.got {
		if slices.Contains(b.Paths, path) {
			n++
		}
	}
	return n
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tempRoot returns a new folder with symlinks resolved, as the watcher
// reports paths.
func tempRoot(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEvents(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, root string)
		act   func(t *testing.T, root string)
		want  []string // paths (relative to root) that must be reported
	}{
		{
			name: "create",
			act:  func(t *testing.T, root string) { write(t, filepath.Join(root, "a.json"), "{}") },
			want: []string{"a.json"},
		},
		{
			name:  "write",
			setup: func(t *testing.T, root string) { write(t, filepath.Join(root, "b.json"), "{}") },
			act: func(t *testing.T, root string) {
				f, err := os.OpenFile(filepath.Join(root, "b.json"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("\n")
				f.Close()
			},
			want: []string{"b.json"},
		},
		{
			name:  "remove",
			setup: func(t *testing.T, root string) { write(t, filepath.Join(root, "c.json"), "{}") },
			act: func(t *testing.T, root string) {
				if err := os.Remove(filepath.Join(root, "c.json")); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"c.json"},
		},
		{
			name:  "rename",
			setup: func(t *testing.T, root string) { write(t, filepath.Join(root, "d.json"), "{}") },
			act: func(t *testing.T, root string) {
				if err := os.Rename(filepath.Join(root, "d.json"), filepath.Join(root, "e.json")); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"d.json", "e.json"},
		},
		{
			name:  "atomic save",
			setup: func(t *testing.T, root string) { write(t, filepath.Join(root, "f.json"), "{}") },
			act: func(t *testing.T, root string) {
				tmp := filepath.Join(root, ".f.json.swp")
				write(t, tmp, `{"saved": true}`)
				if err := os.Rename(tmp, filepath.Join(root, "f.json")); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"f.json"},
		},
		{
			name: "mkdir -p and a file inside",
			act: func(t *testing.T, root string) {
				write(t, filepath.Join(root, "x", "y", "z", "g.json"), "{}")
			},
			// One Create of x arrives; x stands for all of it.
			want: []string{"x"},
		},
		{
			name: "folder removed",
			setup: func(t *testing.T, root string) {
				write(t, filepath.Join(root, "old", "deep", "h.json"), "{}")
			},
			act: func(t *testing.T, root string) {
				if err := os.RemoveAll(filepath.Join(root, "old")); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"old"},
		},
		{
			name:  "file replaced by a folder",
			setup: func(t *testing.T, root string) { write(t, filepath.Join(root, "k.json"), "{}") },
			act: func(t *testing.T, root string) {
				os.Remove(filepath.Join(root, "k.json"))
				write(t, filepath.Join(root, "k.json", "inner.json"), "{}")
			},
			want: []string{"k.json"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := tempRoot(t)
			if tc.setup != nil {
				tc.setup(t, root)
			}
			h := start(t, []string{root}, Options{}, nil)
			if got := h.got[0].Rescan; !slices.Equal(got, []string{root}) {
				t.Errorf("initial batch rescans %v, want [%s]", got, root)
			}
			tc.act(t, root)
			for _, rel := range tc.want {
				h.waitPath(filepath.Join(root, rel))
			}
		})
	}
}

// TestNewFoldersAreWatched checks that folders made after the start, at any
// depth, and folders renamed, are watched under their new names.
func TestNewFoldersAreWatched(t *testing.T) {
	root := tempRoot(t)
	write(t, filepath.Join(root, "r1", "sub", "a.json"), "{}")
	h := start(t, []string{root}, Options{}, nil)

	write(t, filepath.Join(root, "p", "q", "r", "first.json"), "{}")
	h.waitPath(filepath.Join(root, "p"))
	// The deepest new folder is watched: a later file there is reported.
	later := filepath.Join(root, "p", "q", "r", "later.json")
	write(t, later, "{}")
	h.waitPath(later)

	if err := os.Rename(filepath.Join(root, "r1"), filepath.Join(root, "r2")); err != nil {
		t.Fatal(err)
	}
	h.waitPath(filepath.Join(root, "r1"))
	h.waitPath(filepath.Join(root, "r2"))
	moved := filepath.Join(root, "r2", "sub", "b.json")
	write(t, moved, "{}")
	h.waitPath(moved)
}

// TestBurstIsOneBatch writes a file many times in a row: it is reported
// once. A sentinel written after that batch proves no second one followed
// (events are handled in order).
func TestBurstIsOneBatch(t *testing.T) {
	root := tempRoot(t)
	h := start(t, []string{root}, Options{Debounce: 500 * time.Millisecond}, nil)
	path := filepath.Join(root, "burst.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, err := f.WriteString(strings.Repeat("x", i) + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	h.waitPath(path)
	sentinel := filepath.Join(root, "sentinel")
	write(t, sentinel, "")
	h.waitPath(sentinel)
	if n := h.count(path); n != 1 {
		t.Errorf("%d batches list the file written 200 times, want 1", n)
	}
}

// TestSkipDir checks that skipped folders are neither watched nor reported.
func TestSkipDir(t *testing.T) {
	root := tempRoot(t)
	write(t, filepath.Join(root, ".git", "HEAD"), "ref")
	h := start(t, []string{root}, Options{SkipDir: func(n string) bool { return n == ".git" }}, nil)
	write(t, filepath.Join(root, ".git", "HEAD"), "ref2")
	write(t, filepath.Join(root, ".git", "new", "obj"), "x")
	sentinel := filepath.Join(root, "sentinel")
	write(t, sentinel, "")
	h.waitPath(sentinel)
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range h.got {
		for _, p := range b.Paths {
			if strings.Contains(p, ".git") {
				t.Errorf("reported %s, in a skipped folder", p)
			}
		}
	}
}

// TestRootAppearsLater starts with a root that does not exist: it is
// waited for, rescanned when it appears, then watched.
func TestRootAppearsLater(t *testing.T) {
	base := tempRoot(t)
	root := filepath.Join(base, "later", "convs")
	h := start(t, []string{root}, Options{}, nil)
	if b := h.got[0]; len(b.Rescan) != 0 {
		t.Errorf("initial batch rescans %v, want nothing (the root does not exist)", b.Rescan)
	}
	write(t, filepath.Join(root, "a.json"), "{}")
	i := h.wait("a rescan of the new root", func(b Batch) bool { return slices.Contains(b.Rescan, root) })
	next := filepath.Join(root, "b.json")
	write(t, next, "{}")
	h.waitFrom(i, next, func(b Batch) bool { return slices.Contains(b.Paths, next) })

	// Removed, it is reported (its files leave the index); back, rescanned.
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	j := h.waitFrom(i, "the removed root", func(b Batch) bool { return slices.Contains(b.Paths, root) })
	write(t, filepath.Join(root, "c.json"), "{}")
	h.waitFrom(j+1, "a rescan of the root back", func(b Batch) bool { return slices.Contains(b.Rescan, root) })
	if !strings.Contains(h.logs.String(), "root removed") {
		t.Errorf("log does not tell the root was removed:\n%s", h.logs.String())
	}
}

// TestFileRoot watches a single file: its saves are reported, its
// neighbours are not.
func TestFileRoot(t *testing.T) {
	dir := tempRoot(t)
	file := filepath.Join(dir, "conv.jsonl")
	write(t, file, "{}\n")
	h := start(t, []string{file}, Options{}, nil)
	if b := h.got[0]; !slices.Equal(b.Rescan, []string{file}) {
		t.Errorf("initial batch rescans %v, want [%s]", b.Rescan, file)
	}
	other := filepath.Join(dir, "other.json")
	write(t, other, "{}")
	tmp := filepath.Join(dir, "tmp123")
	write(t, tmp, "{}\n{}\n")
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	h.waitPath(file)
	if n := h.count(other); n != 0 {
		t.Errorf("a neighbour of the watched file was reported %d times", n)
	}
}

// TestOverflow feeds the error fsnotify sends when the kernel's queue
// overflowed: every root is rescanned, and the log says why.
func TestOverflow(t *testing.T) {
	root := tempRoot(t)
	h := start(t, []string{root}, Options{}, nil)
	h.w.q.inject(fsnotify.ErrEventOverflow)
	h.waitFrom(1, "a rescan after the overflow", func(b Batch) bool { return slices.Contains(b.Rescan, root) })
	if !strings.Contains(h.logs.String(), "events were lost") {
		t.Errorf("log does not tell events were lost:\n%s", h.logs.String())
	}
}

// TestWatchLimit makes adding a watch fail as inotify does at its limit:
// the root is rescanned then and again later, and the log says why.
func TestWatchLimit(t *testing.T) {
	root := tempRoot(t)
	for _, d := range []string{"a", "b", "c"} {
		write(t, filepath.Join(root, d, "x.json"), "{}")
	}
	limited := filepath.Join(root, "b")
	h := start(t, []string{root}, Options{Rescan: 50 * time.Millisecond}, func(w *Watcher) {
		w.add = func(path string) error {
			if path == limited {
				return syscall.ENOSPC
			}
			return w.fsw.Add(path)
		}
	})
	if !slices.Equal(h.got[0].Rescan, []string{root}) {
		t.Errorf("initial batch rescans %v, want [%s]", h.got[0].Rescan, root)
	}
	h.waitFrom(1, "a periodic rescan of the limited root", func(b Batch) bool { return slices.Contains(b.Rescan, root) })
	if !strings.Contains(h.logs.String(), "watch limit reached") {
		t.Errorf("log does not tell the watch limit was reached:\n%s", h.logs.String())
	}
}

// A root inside another, however given, is not watched once more: the
// initial batch rescans the outer one alone, and a change under both is
// reported once.
func TestNestedRoots(t *testing.T) {
	root := tempRoot(t)
	sub := filepath.Join(root, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	h := start(t, []string{sub + "/", root, filepath.Join(root, "sub", "..", "sub")}, Options{}, nil)
	if b := h.got[0]; !slices.Equal(b.Rescan, []string{root}) {
		t.Errorf("initial batch rescans %v, want [%s]", b.Rescan, root)
	}
	if n := h.w.Folders(); n != 2 {
		t.Errorf("%d folders watched, want 2", n)
	}
}
