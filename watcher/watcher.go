// Package watcher tells which paths changed under a set of roots. It watches
// every folder of every root with fsnotify (adding folders created later,
// dropping those removed), lets bursts of events settle (a trailing debounce
// per path), and emits batches of paths. It knows nothing of formats: an
// event is a hint that a path may have changed, and the consumer finds out
// what the path holds now. When events may have been lost (the kernel's queue
// overflowed, the watch limit was reached) it asks for a rescan of the roots
// concerned instead, and says so in the log.
package watcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	rootset "github.com/convsearch/convsearch/internal/roots"
)

// Options configure a Watcher.
type Options struct {
	// Debounce is how long a path must stay quiet before it is emitted
	// (default 50ms): a file written in several steps is read once, whole.
	Debounce time.Duration
	// MaxDelay bounds how long a path that keeps changing waits (default 2s).
	MaxDelay time.Duration
	// Poll is how often roots that do not exist (yet) are looked for, and
	// existing ones checked (default 1s).
	Poll time.Duration
	// Rescan is how often a root that could not be watched whole (the watch
	// limit was reached) is rescanned (default 1m).
	Rescan time.Duration
	// SkipDir reports folder names never to watch nor report (.git,
	// node_modules…); nil skips none.
	SkipDir func(name string) bool
	// Logger receives what the watcher does (default: discarded).
	Logger *slog.Logger
}

// SetDefaults fills the zero fields of o.
func (o *Options) SetDefaults() {
	if o.Debounce <= 0 {
		o.Debounce = 50 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 2 * time.Second
	}
	if o.MaxDelay < o.Debounce {
		o.MaxDelay = o.Debounce
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Rescan <= 0 {
		o.Rescan = time.Minute
	}
	if o.SkipDir == nil {
		o.SkipDir = func(string) bool { return false }
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Batch is what changed since the previous batch.
type Batch struct {
	// Initial is true for the first batch, which rescans every root that
	// exists at start. It is sent even when there is none.
	Initial bool
	// Rescan lists roots to walk whole: at start, when a root appears, and
	// when events may have been lost under it.
	Rescan []string
	// Paths lists files and folders that were created, written, removed or
	// renamed (from or to), sorted. They may be gone by now; a folder stands
	// for everything under it. Paths under a root in Rescan are left out.
	Paths []string
}

// Empty reports whether b asks for nothing.
func (b Batch) Empty() bool { return !b.Initial && len(b.Rescan) == 0 && len(b.Paths) == 0 }

// Watcher watches roots and emits Batches. Create it with New, run it with
// Run.
type Watcher struct {
	opts  Options
	log   *slog.Logger
	roots []*root
	out   chan Batch
	// folders is the number of folders watched, for Folders.
	folders atomic.Int64
	running atomic.Bool

	// Fields below are owned by Run's goroutine.
	fsw     *fsnotify.Watcher
	add     func(path string) error // fsw.Add; replaced in tests
	watched map[string]bool         // folders with a watch
	pending map[string]*pend        // paths waiting for quiet
	timer   *time.Timer
	armed   bool
	ready   ready // what the next batch holds
	q       *queue
}

// root is one path to watch.
type root struct {
	given  string // as given (absolute)
	path   string // resolved (symlinks), when it exists
	exists bool
	isFile bool
	// limited is true when some folders under it could not be watched; it
	// is rescanned every Options.Rescan.
	limited    bool
	nextRescan time.Time
}

// pend is a path waiting for quiet.
type pend struct{ first, last time.Time }

// ready accumulates the next batch while the consumer is busy.
type ready struct {
	initial bool
	rescan  map[string]bool
	paths   map[string]bool
	gen     int // counts changes, so the batch is built again only after one
}

func newReady(gen int) ready {
	return ready{rescan: map[string]bool{}, paths: map[string]bool{}, gen: gen}
}

func (r *ready) addRescan(path string) { r.rescan[path] = true; r.gen++ }
func (r *ready) addPath(path string)   { r.paths[path] = true; r.gen++ }

func (r *ready) empty() bool { return !r.initial && len(r.rescan) == 0 && len(r.paths) == 0 }

// New returns a Watcher of roots (folders or single files; they need not
// exist yet). Nothing is watched before Run, which must be called once: it
// releases what New took.
func New(roots []string, opts Options) (*Watcher, error) {
	opts.SetDefaults()
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{
		fsw:     fsw,
		add:     fsw.Add,
		opts:    opts,
		log:     opts.Logger,
		out:     make(chan Batch),
		watched: map[string]bool{},
		pending: map[string]*pend{},
		ready:   newReady(0),
		q:       newQueue(1 << 16),
	}
	// A root inside another is watched with it, not once more.
	for _, abs := range rootset.Normalize(roots, opts.SkipDir) {
		w.roots = append(w.roots, &root{given: abs, path: abs})
	}
	return w, nil
}

// Batches returns the channel Run sends batches on. A batch waits until it
// is received, while later changes merge into it; the channel is closed when
// Run returns.
func (w *Watcher) Batches() <-chan Batch { return w.out }

// Folders returns how many folders are being watched.
func (w *Watcher) Folders() int { return int(w.folders.Load()) }

// Run watches until ctx is done, then releases every watch and closes the
// Batches channel.
func (w *Watcher) Run(ctx context.Context) error {
	if w.running.Swap(true) {
		return errors.New("watch: Run called twice")
	}
	defer close(w.out)
	fsw := w.fsw
	var drained sync.WaitGroup
	drained.Add(1)
	go func() {
		defer drained.Done()
		w.q.drain(fsw)
	}()
	defer func() {
		fsw.Close() // closes the channels drain reads
		drained.Wait()
	}()

	w.timer = time.NewTimer(time.Hour)
	w.timer.Stop()
	poll := time.NewTicker(w.opts.Poll)
	defer poll.Stop()

	w.start()
	var batch Batch
	built := -1 // the ready.gen batch was built from
	for {
		var out chan Batch
		if !w.ready.empty() {
			if built != w.ready.gen {
				batch, built = w.ready.batch(), w.ready.gen
			}
			out = w.out
		}
		select {
		case <-ctx.Done():
			return nil
		case <-w.q.signal:
			events, errs, lost := w.q.take()
			if lost {
				w.overflow("the watcher's own event queue overflowed")
			}
			for _, err := range errs {
				w.handleError(err)
			}
			for _, ev := range events {
				w.handle(ev)
			}
			w.arm()
		case <-w.timer.C:
			w.armed = false
			w.flush(time.Now())
			w.arm()
		case <-poll.C:
			w.poll(time.Now())
		case out <- batch:
			w.ready = newReady(w.ready.gen + 1)
		}
	}
}

// start watches the roots that exist and asks for the initial scan.
func (w *Watcher) start() {
	w.ready.initial = true
	w.ready.gen++
	n := 0
	for _, r := range w.roots {
		if w.appear(r, time.Now()) {
			n++
		} else {
			w.log.Info("root does not exist yet; waiting for it", "root", r.given)
		}
	}
	w.log.Info("watching", "roots", n, "folders", len(w.watched))
}

// appear starts watching r if it exists, asking for a rescan of it.
func (w *Watcher) appear(r *root, now time.Time) bool {
	info, err := os.Stat(r.given)
	if err != nil {
		return false
	}
	r.path = r.given
	if resolved, err := filepath.EvalSymlinks(r.given); err == nil {
		r.path = resolved
	}
	r.exists, r.isFile, r.limited = true, !info.IsDir(), false
	if r.isFile {
		// Watch the folder: an editor's save replaces the file, and a watch
		// on the file itself would go with the old one.
		w.watch(r, filepath.Dir(r.path))
	} else {
		w.watchTree(r, r.path)
	}
	w.ready.addRescan(r.path)
	return true
}

// poll looks for roots that appeared or vanished, and rescans roots that
// are not watched whole.
func (w *Watcher) poll(now time.Time) {
	for _, r := range w.roots {
		if !r.exists {
			if w.appear(r, now) {
				w.log.Info("root appeared; watching it", "root", r.path, "folders", len(w.watched))
			}
			continue
		}
		if _, err := os.Stat(r.path); errors.Is(err, fs.ErrNotExist) {
			w.vanish(r)
			continue
		}
		if r.limited && now.After(r.nextRescan) {
			w.log.Warn("rescanning a root not watched whole (the watch limit was reached)", "root", r.path)
			r.limited = false
			if !r.isFile {
				w.watchTree(r, r.path)
			}
			w.ready.addRescan(r.path)
		}
	}
}

// vanish forgets root r, which is gone, and reports it as changed so its
// files leave the index.
func (w *Watcher) vanish(r *root) {
	if !r.exists {
		return
	}
	w.log.Info("root removed; waiting for it to come back", "root", r.path)
	r.exists = false
	if !r.isFile {
		w.unwatch(r.path)
	}
	w.ready.addPath(r.path)
	delete(w.pending, r.path)
}

// watchTree adds a watch on dir and every folder under it.
func (w *Watcher) watchTree(r *root, dir string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				w.log.Warn("cannot watch folder", "path", path, "err", err)
			}
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if path != r.path && w.opts.SkipDir(d.Name()) {
			return filepath.SkipDir
		}
		if !w.watch(r, path) {
			return filepath.SkipAll
		}
		return nil
	})
}

// watch adds a watch on folder dir of root r. It returns false when the
// watch limit is reached: r is then rescanned now and every Options.Rescan.
func (w *Watcher) watch(r *root, dir string) bool {
	// Added again even when known: a folder removed and made again under
	// the same name while events were lost needs a new watch, and adding an
	// existing one costs a system call.
	err := w.add(dir)
	switch {
	case err == nil:
		w.watched[dir] = true
		w.folders.Store(int64(len(w.watched)))
	case isWatchLimit(err):
		if !r.limited {
			w.log.Warn("watch limit reached: falling back to rescanning the root (raise fs.inotify.max_user_watches on Linux)",
				"root", r.path, "folder", dir, "watched", len(w.watched), "err", err, "every", w.opts.Rescan)
		}
		r.limited = true
		r.nextRescan = time.Now().Add(w.opts.Rescan)
		w.ready.addRescan(r.path)
		return false
	case errors.Is(err, fs.ErrNotExist):
		// Gone already: its parent's events say so.
	default:
		w.log.Warn("cannot watch folder", "path", dir, "err", err)
	}
	return true
}

// isWatchLimit reports whether err means no more watches can be added:
// inotify's max_user_watches (ENOSPC), or out of file descriptors (kqueue).
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// unwatch drops the watches on dir and every folder under it.
func (w *Watcher) unwatch(dir string) {
	prefix := dir + string(filepath.Separator)
	for p := range w.watched {
		if p == dir || strings.HasPrefix(p, prefix) {
			// The kernel drops the watch of a removed folder itself;
			// fsnotify then answers that it has none, which is fine.
			_ = w.fsw.Remove(p)
			delete(w.watched, p)
		}
	}
	w.folders.Store(int64(len(w.watched)))
}

// rootOf returns the root that path belongs to, or nil.
func (w *Watcher) rootOf(path string) *root {
	for _, r := range w.roots {
		if !r.exists {
			continue
		}
		if r.isFile {
			if path == r.path || companionOf(path, r.path) {
				return r
			}
			continue
		}
		if path == r.path || strings.HasPrefix(path, r.path+string(filepath.Separator)) {
			return r
		}
	}
	return nil
}

// companionOf reports whether path sits next to file and shares its stem
// (x.jsonl and x.meta.json): a side file that may belong to it.
func companionOf(path, file string) bool {
	if filepath.Dir(path) != filepath.Dir(file) {
		return false
	}
	base := filepath.Base(file)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	return strings.HasPrefix(filepath.Base(path), stem)
}

// skipped reports whether path lies in a folder that is not watched.
func (w *Watcher) skipped(r *root, path string) bool {
	rel, err := filepath.Rel(r.path, path)
	if err != nil || r.isFile {
		return false
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if w.opts.SkipDir(part) {
			return true
		}
	}
	return false
}

// handle takes in one event.
func (w *Watcher) handle(ev fsnotify.Event) {
	path := filepath.Clean(ev.Name)
	r := w.rootOf(path)
	if r == nil || w.skipped(r, path) {
		return
	}
	if path == r.path && ev.Has(fsnotify.Remove|fsnotify.Rename) {
		if _, err := os.Stat(r.path); errors.Is(err, fs.ErrNotExist) {
			w.vanish(r)
			return
		}
	}
	if ev.Has(fsnotify.Create) && !r.isFile {
		if info, err := os.Lstat(path); err == nil && info.IsDir() {
			// A new folder (mkdir -p a/b/c arrives as one Create of a):
			// watch all of it; the consumer walks it whole.
			w.watchTree(r, path)
		}
	}
	if ev.Has(fsnotify.Remove|fsnotify.Rename) && w.watched[path] {
		// A folder removed or renamed away: events under its old name may
		// still come, and are harmless hints.
		w.unwatch(path)
	}
	now := time.Now()
	if p, ok := w.pending[path]; ok {
		p.last = now
	} else {
		w.pending[path] = &pend{first: now, last: now}
	}
}

// handleError takes in an error from fsnotify.
func (w *Watcher) handleError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.overflow("the kernel's event queue overflowed (raise fs.inotify.max_queued_events on Linux)")
		return
	}
	w.log.Warn("watch error", "err", err)
}

// overflow handles lost events: every root is rescanned, and its folders
// watched again (some may have been created unseen).
func (w *Watcher) overflow(why string) {
	// Folders removed unseen are forgotten.
	for dir := range w.watched {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			_ = w.fsw.Remove(dir)
			delete(w.watched, dir)
		}
	}
	w.folders.Store(int64(len(w.watched)))
	var roots []string
	for _, r := range w.roots {
		if r.exists {
			roots = append(roots, r.path)
			w.ready.addRescan(r.path)
			if !r.isFile {
				w.watchTree(r, r.path)
			}
		}
	}
	w.log.Warn("events were lost: rescanning the roots", "why", why, "roots", roots)
}

// flush moves the paths that have been quiet long enough (or waited too
// long) to the next batch.
func (w *Watcher) flush(now time.Time) {
	for path, p := range w.pending {
		if now.Sub(p.last) >= w.opts.Debounce || now.Sub(p.first) >= w.opts.MaxDelay {
			w.ready.addPath(path)
			delete(w.pending, path)
		}
	}
}

// arm sets the timer for the earliest pending deadline.
func (w *Watcher) arm() {
	if len(w.pending) == 0 {
		if w.armed {
			w.timer.Stop()
			w.armed = false
		}
		return
	}
	var next time.Time
	for _, p := range w.pending {
		d := p.last.Add(w.opts.Debounce)
		if m := p.first.Add(w.opts.MaxDelay); m.Before(d) {
			d = m
		}
		if next.IsZero() || d.Before(next) {
			next = d
		}
	}
	if w.armed {
		w.timer.Stop()
	}
	w.timer.Reset(max(time.Until(next), time.Millisecond))
	w.armed = true
}

// batch builds the batch r holds.
func (r *ready) batch() Batch {
	b := Batch{Initial: r.initial}
	for p := range r.rescan {
		b.Rescan = append(b.Rescan, p)
	}
	slices.Sort(b.Rescan)
	for p := range r.paths {
		if !under(p, b.Rescan) {
			b.Paths = append(b.Paths, p)
		}
	}
	slices.Sort(b.Paths)
	return b
}

func under(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// queue carries events from the goroutine that drains fsnotify to Run's
// loop without ever blocking the drain: the loop adds and removes watches,
// which must not wait on a reader that waits on the loop.
type queue struct {
	mu     sync.Mutex
	events []fsnotify.Event
	errs   []error
	lost   bool
	limit  int
	signal chan struct{}
}

func newQueue(limit int) *queue {
	return &queue{limit: limit, signal: make(chan struct{}, 1)}
}

// drain reads fsw's channels until they are closed.
func (q *queue) drain(fsw *fsnotify.Watcher) {
	events, errs := fsw.Events, fsw.Errors
	for events != nil || errs != nil {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			q.mu.Lock()
			if len(q.events) < q.limit {
				q.events = append(q.events, ev)
			} else {
				q.lost = true
			}
			q.mu.Unlock()
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if err == nil {
				continue
			}
			q.mu.Lock()
			q.errs = append(q.errs, err)
			q.mu.Unlock()
		}
		select {
		case q.signal <- struct{}{}:
		default:
		}
	}
}

// take returns what was queued and empties the queue.
func (q *queue) take() ([]fsnotify.Event, []error, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	ev, errs, lost := q.events, q.errs, q.lost
	q.events, q.errs, q.lost = nil, nil, false
	return ev, errs, lost
}

// inject queues an error as if fsnotify had sent it (tests).
func (q *queue) inject(err error) {
	q.mu.Lock()
	q.errs = append(q.errs, err)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}
