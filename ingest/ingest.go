// Package ingest brings the index in line with the files on disk: it walks
// roots, fingerprints files, parses what is new or changed, derives topics
// and decisions, and hands the results to the indexer in batches. A file that
// fails keeps its previous documents and records the error; nothing stops the
// run but cancellation.
package ingest

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	rootset "github.com/convsearch/convsearch/internal/roots"
	"github.com/convsearch/convsearch/parsers"
)

// Index is what ingest needs of the indexer.
type Index interface {
	File(path string) (indexer.FileState, bool)
	Files() []indexer.FileState
	Apply(ctx context.Context, changes []indexer.Change) error
	WriteManifest() error
}

// Extractor derives topics and decisions where a conversation has none.
type Extractor interface {
	Apply(c *conversation.Conversation)
}

// Redactor takes secrets out of a conversation's text before anything is
// derived from it or written, and out of the errors and warnings about a
// file, which may quote what it holds.
type Redactor interface {
	Conversation(c *conversation.Conversation) int
	String(s string) (string, int)
}

// scrubbed is an error whose message had secrets taken out: what is
// stored and printed, while errors.Is still sees the error it was.
type scrubbed struct {
	err error
	msg string
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// scrub returns err with secrets taken out of its message: a parser's
// error or warning may quote the file ("children is not an array: "…"),
// and it is kept in index.json and the index and printed.
func (in *Ingester) scrub(err error) error {
	if err == nil || in.opts.Redactor == nil {
		return err
	}
	if msg, n := in.opts.Redactor.String(err.Error()); n > 0 {
		return &scrubbed{err: err, msg: msg}
	}
	return err
}

// Options configure an Ingester.
type Options struct {
	// Redactor, if set, takes secrets out of every conversation before
	// topics and decisions are derived and documents written.
	Redactor Redactor
	// Workers is the number of files parsed at once (default: the CPUs).
	Workers int
	// BatchDocs is roughly how many documents go into one index batch
	// (default 2000: at 1M messages, 4000 was 4 % slower and peaked 0.36 GiB
	// higher; 8000 halved the speed at 100k under the bulk memory limit).
	BatchDocs int
	// BatchBytes is roughly how many bytes of text go into one index batch
	// (default 8 MiB). Bleve holds a batch's analysis, tens of times its
	// text, until the segment is built, so this bounds the memory of a pass
	// whatever the input: a file with more goes in several batches.
	BatchBytes int
	// MaxTextBytes caps the text one document indexes (default
	// indexer.DefaultMaxTextBytes, which says why); the rest of a longer
	// text stays in the source file, unsearchable.
	MaxTextBytes int
	// Writers is how many batches are written at once (default 2): Bleve
	// builds each batch's segment on one core.
	Writers int
	// Sized, if set, is told how many bytes of files a pass is about to
	// read, before it reads them, and may return how many writer lanes to
	// use (0: Writers). A command sizes its memory to the work with it: each
	// lane holds a batch's analysis, so one lane halves what a small pass
	// needs at its peak.
	Sized func(bytes int64) (writers int)
	// Logger receives per-file problems at warn level and syncs at debug.
	Logger *slog.Logger
	// Progress, if set, is called after every file with the running totals.
	Progress func(Progress)
	// ManifestEvery, when positive, writes index.json at most this often
	// (a daemon syncing every few seconds on a large index would spend its
	// time rewriting it); zero writes it after every pass.
	ManifestEvery time.Duration
}

// SetDefaults fills the zero fields of o.
func (o *Options) SetDefaults() {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.BatchDocs <= 0 {
		o.BatchDocs = 2000
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = 8 << 20
	}
	if o.MaxTextBytes <= 0 {
		o.MaxTextBytes = indexer.DefaultMaxTextBytes
	}
	if o.Writers <= 0 {
		o.Writers = 2
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Ingester runs Reconcile and Sync. One Ingester must not run two passes at
// once; the daemon serialises them.
type Ingester struct {
	reg  *parsers.Registry
	gen  int // reg.Generation(), recorded with the files no family claims
	ix   Index
	ex   Extractor
	opts Options
	// versions is each family's Version by name, for check: asked of every
	// file a pass sees, where Lookup would build every family's Info.
	versions map[string]int

	mu            sync.Mutex
	manifestTimer *time.Timer // a pending index.json write, with ManifestEvery
	closed        bool        // Close was called: no more timed writes
}

// New returns an Ingester that parses with reg, derives with ex (nil: none)
// and writes to ix.
func New(reg *parsers.Registry, ix Index, ex Extractor, opts Options) *Ingester {
	opts.SetDefaults()
	versions := map[string]int{}
	for _, p := range reg.Parsers() {
		info := p.Info()
		if _, dup := versions[info.Name]; !dup { // Lookup finds the first
			versions[info.Name] = info.Version
		}
	}
	return &Ingester{reg: reg, gen: reg.Generation(), versions: versions, ix: ix, ex: ex, opts: opts}
}

// Progress is the running count of a pass. Every file seen is parsed,
// unchanged, failed or skipped: Seen is their sum.
type Progress struct {
	Seen      int `json:"files_seen"`      // files looked at
	Unchanged int `json:"files_unchanged"` // not read again: same size and mtime, or same bytes
	Parsed    int `json:"files_parsed"`
	// Failed are files that could not be read: those in the Summary's
	// Errors and StillFailing.
	Failed int `json:"files_failed"`
	// Skipped are files that hold no conversation of a known format (a
	// README, a CSV, a manifest).
	Skipped       int           `json:"files_skipped"`
	Removed       int           `json:"files_removed"`
	Conversations int           `json:"conversations"`
	Messages      int           `json:"messages"`
	Bytes         int64         `json:"bytes"`
	Elapsed       time.Duration `json:"elapsed_ns"`
}

// FileError is a file that could not be read, and why.
type FileError struct {
	Path string `json:"path"`
	Err  string `json:"error"`
}

// String says which file and why, naming the file once: most errors start
// with the path already (path: or path:line:).
func (e FileError) String() string {
	if strings.HasPrefix(e.Err, e.Path+":") {
		return e.Err
	}
	return e.Path + ": " + e.Err
}

// Summary is the outcome of a pass.
type Summary struct {
	Progress
	Errors   []FileError `json:"errors,omitempty"`
	Warnings []FileError `json:"warnings,omitempty"`
	// StillFailing are files that failed again, unchanged (same size and
	// mtime) since the pass that failed on them; Failed counts them with
	// Errors. Failed files are read again on every pass, as what stopped
	// them (permissions, a parser bug) may have been fixed without their
	// size or mtime changing.
	StillFailing []FileError `json:"still_failing,omitempty"`
	// Rebuild says why the pass rebuilt the whole index (the redaction
	// rules changed, an older format, --rebuild); "" for a pass that did
	// not. A rebuild reads again every file the old index held.
	Rebuild string `json:"rebuild,omitempty"`
	// Carried is how many of those files lay outside the pass's roots and
	// hold conversations.
	Carried int `json:"files_carried,omitempty"`
}

// job is a file to look at closely: detect, hash, parse.
type job struct {
	path    string
	size    int64
	modTime time.Time
	prev    *indexer.FileState
	force   bool // parse even if the bytes are unchanged: its keys change
}

// Reconcile brings the index exactly in line with the files under roots:
// new and changed files are parsed, files gone from disk lose their
// documents, unchanged files (same size and mtime, companions included) are
// not read at all. Files indexed from other roots are left alone, but for
// a rebuild (see indexer.Index.Rebuilding): the new index starts empty, and
// every file the old one held that still exists is read into it again,
// wherever it lies.
func (in *Ingester) Reconcile(ctx context.Context, roots []string) (*Summary, error) {
	start := time.Now()
	run := newPass(in, start)
	// A full pass looks for orphaned copies even with nothing changed, so
	// that it mends an index an earlier version left without the owner.
	run.adoptAlways = true
	var jobs []job
	seen := map[string]bool{}
	var absRoots []string
	// A root inside another is walked with it, not once more.
	for _, root := range rootset.Normalize(roots, parsers.SkipDir) {
		abs, err := filepath.Abs(root)
		if err != nil {
			run.fail(root, err)
			continue
		}
		if resolved, err := filepath.EvalSymlinks(abs); err == nil {
			abs = resolved
		}
		absRoots = append(absRoots, abs)
		err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if err != nil {
				if path == abs {
					return err
				}
				run.fail(path, err)
				return nil
			}
			if d.IsDir() {
				if path != abs && parsers.SkipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			info, err := fileInfo(path, d)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					run.fail(path, err)
				}
				return nil
			}
			if info == nil || seen[path] {
				return nil
			}
			seen[path] = true
			if j, changed := run.check(path, info); changed {
				jobs = append(jobs, j)
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return run.summary(), ctx.Err()
			}
			run.fail(abs, fmt.Errorf("walk: %w", err))
		}
	}
	if rb, ok := in.ix.(rebuilder); ok {
		if run.rebuild = rb.Rebuilding(); run.rebuild != "" {
			jobs = append(jobs, in.carry(run, rb.Carried(), seen, absRoots)...)
		}
	}
	var removed []indexer.Change
	for _, f := range in.ix.Files() {
		if !seen[f.Path] && underAny(f.Path, absRoots) {
			removed = append(removed, indexer.Change{State: indexer.FileState{Path: f.Path}, Remove: true})
		}
	}
	return in.process(ctx, run, jobs, removed)
}

// rebuilder is what an Index being rebuilt beside the old one offers (see
// indexer.Index.Rebuilding and Carried).
type rebuilder interface {
	Rebuilding() string
	Carried() []string
}

// carry returns the jobs that read again, into the index being rebuilt, the
// files the old index held outside roots (those under them were walked):
// a rebuild must not lose what was indexed from other roots. A file gone
// since is not carried over, as a pass under its root would drop it; one
// already read into the new index (an earlier pass of this rebuild) is left.
func (in *Ingester) carry(run *pass, paths []string, seen map[string]bool, roots []string) []job {
	var jobs []job
	for _, path := range paths {
		if seen[path] || underAny(path, roots) {
			continue
		}
		if _, ok := in.ix.File(path); ok {
			continue
		}
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		seen[path] = true
		run.p.Seen++
		if run.carrying == nil {
			run.carrying = map[string]bool{}
		}
		run.carrying[path] = true
		// Not in the new index (above): new to it, as check would find.
		jobs = append(jobs, job{path: path, size: info.Size(), modTime: info.ModTime().UTC()})
	}
	return jobs
}

// Sync brings the index in line with the given paths, which changed on disk
// (created, written, removed, renamed): a folder is reconciled whole, a
// removed file loses its documents, a changed companion file re-reads the
// file it belongs to.
func (in *Ingester) Sync(ctx context.Context, paths []string) (*Summary, error) {
	start := time.Now()
	run := newPass(in, start)
	var jobs []job
	var removed []indexer.Change
	var dirs []string
	queued := map[string]bool{}
	companionOf := in.companionIndex()
	queue := func(path string) {
		if queued[path] {
			return
		}
		queued[path] = true
		info, err := os.Stat(path)
		if err == nil && info.IsDir() && isLink(path) {
			// A linked folder is not followed, as the full walk does not
			// follow it: walked here, its files would be indexed under the
			// target's paths, outside every root, and never removed.
			return
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if _, ok := in.ix.File(path); ok {
				removed = append(removed, indexer.Change{State: indexer.FileState{Path: path}, Remove: true})
			}
		case err != nil:
			run.fail(path, err)
		case info.IsDir():
			dirs = append(dirs, path)
		case info.Mode().IsRegular():
			if j, changed := run.check(path, info); changed {
				jobs = append(jobs, j)
			}
		}
	}
	// Every record, sorted, read at most once a pass: a removed path may
	// be a folder, and thousands of them (a tree deleted) must not each
	// copy and sort the records.
	var files []indexer.FileState
	filesRead := false
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			run.fail(p, err)
			continue
		}
		queue(abs)
		for _, primary := range companionOf[abs] {
			queue(primary)
		}
		if _, err := os.Stat(abs); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if _, ok := in.ix.File(abs); ok {
			continue // a file, not a folder
		}
		// A folder that vanished takes every file under it along.
		if !filesRead {
			files, filesRead = in.ix.Files(), true
		}
		prefix := abs + string(filepath.Separator)
		i := sort.Search(len(files), func(i int) bool { return files[i].Path >= prefix })
		for ; i < len(files) && strings.HasPrefix(files[i].Path, prefix); i++ {
			queue(files[i].Path)
		}
	}
	sum, err := in.process(ctx, run, jobs, removed)
	if err != nil || len(dirs) == 0 {
		return sum, err
	}
	dsum, err := in.Reconcile(ctx, dirs)
	if dsum != nil {
		sum.add(dsum)
	}
	return sum, err
}

// fileInfo is what Reconcile indexes of a walked entry: a regular file, or
// a link to one (followed, under the link's path, as Sync's stat follows
// it); nil for anything else. Linked folders are not followed: a link
// inside a tree may point back up it.
func fileInfo(path string, d fs.DirEntry) (fs.FileInfo, error) {
	switch {
	case d.Type().IsRegular():
		return d.Info()
	case d.Type()&fs.ModeSymlink == 0:
		return nil, nil
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		// A dangling link is no file: one indexed before is removed.
		return nil, nil
	}
	return info, nil
}

func isLink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// companionIndex maps each companion file to the primaries that read it.
func (in *Ingester) companionIndex() map[string][]string {
	idx := map[string][]string{}
	for _, f := range in.ix.Files() {
		for _, c := range f.Companions {
			idx[c.Path] = append(idx[c.Path], f.Path)
		}
	}
	return idx
}

// check counts a file seen, and decides with the Ingester's check whether
// it needs a closer look: if not, it is unchanged, or skipped again as no
// conversation.
func (r *pass) check(path string, info fs.FileInfo) (job, bool) {
	r.p.Seen++
	j, changed := r.in.check(path, info)
	switch {
	case changed:
	case j.prev.Parser == "":
		r.p.Skipped++
	default:
		r.p.Unchanged++
	}
	return j, changed
}

// check decides from a stat alone whether path needs a closer look.
func (in *Ingester) check(path string, info fs.FileInfo) (job, bool) {
	j := job{path: path, size: info.Size(), modTime: info.ModTime().UTC()}
	prev, ok := in.ix.File(path)
	if !ok {
		return j, true
	}
	j.prev = &prev
	if prev.Size != j.size || !prev.ModTime.Equal(j.modTime) || prev.Error != "" {
		// A failed file is tried again: a chmod moves only its ctime, and
		// a read stopped by cancellation or a full disk left no trace in it.
		return j, true
	}
	if prev.Parser == "" && prev.ParserVersion != in.gen {
		// No family claimed it when the families were others: one of
		// them may now.
		return j, true
	}
	if prev.Parser != "" {
		if v, ok := in.versions[prev.Parser]; !ok || v != prev.ParserVersion {
			return j, true
		}
	}
	for _, c := range prev.Companions {
		if stamp(c.Path) != c {
			return j, true
		}
	}
	return j, false
}

// stamp returns what a stat says of path.
func stamp(path string) indexer.Stamp {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return indexer.Stamp{Path: path, Missing: true}
	}
	return indexer.Stamp{Path: path, Size: info.Size(), ModTime: info.ModTime().UTC()}
}

func underAny(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// result is what a worker made of a job.
type result struct {
	change indexer.Change
	docs   int
	text   int // bytes of text to index
	bytes  int64
	err    error // the file's error, recorded in its state
	again  bool  // err is the error recorded for the file, unchanged since
	warns  []error
}

// process parses jobs on the worker pool and writes the results, and the
// removals, in batches; then files left holding a conversation under
// ID~hash, its owner gone, are read again to take the plain ID over.
func (in *Ingester) process(ctx context.Context, run *pass, jobs []job, removed []indexer.Change) (*Summary, error) {
	if err := in.write(ctx, run, jobs, removed); err != nil {
		return run.summary(), err
	}
	// Only a removal or a parse can free an ID.
	if run.adoptAlways || len(jobs) > 0 || len(removed) > 0 {
		if adopt := in.orphans(); len(adopt) > 0 {
			if err := in.write(ctx, run, adopt, nil); err != nil {
				return run.summary(), err
			}
		}
	}
	if err := in.writeManifest(); err != nil {
		return run.summary(), err
	}
	return run.summary(), nil
}

// orphaner is what an Index may offer to name files holding a conversation
// under ID~hash whose owner went (see indexer.Index.Orphaned).
type orphaner interface{ Orphaned() []string }

// orphans are the jobs that re-read the files the index names orphaned.
func (in *Ingester) orphans() []job {
	o, ok := in.ix.(orphaner)
	if !ok {
		return nil
	}
	var jobs []job
	for _, path := range o.Orphaned() {
		prev, ok := in.ix.File(path)
		info, err := os.Stat(path)
		if !ok || err != nil || !info.Mode().IsRegular() {
			continue // gone since: the next pass sees to it
		}
		jobs = append(jobs, job{path: path, size: info.Size(), modTime: info.ModTime().UTC(), prev: &prev, force: true})
	}
	return jobs
}

// write parses jobs on the worker pool and writes the results, and the
// removals, in batches.
func (in *Ingester) write(ctx context.Context, run *pass, jobs []job, removed []indexer.Change) error {
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].path < jobs[j].path })
	jobCh := make(chan job)
	resCh := make(chan result, in.opts.Workers*2)
	var wg sync.WaitGroup
	for range in.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobCh {
				resCh <- in.read(ctx, j)
			}
		}()
	}
	go func() {
		defer close(jobCh)
		for _, j := range jobs {
			select {
			case jobCh <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(resCh)
	}()

	// Files go to one of in.opts.Writers lanes by their record shard, and
	// each lane writes its batches on its own goroutine: lanes touch
	// disjoint shards, so Bleve builds their segments at the same time.
	writers := in.opts.Writers
	if in.opts.Sized != nil && len(jobs) > 0 {
		var work int64
		for _, j := range jobs {
			work += j.size
		}
		if w := in.opts.Sized(work); w > 0 {
			writers = w
		}
	}
	lanes := make([]*lane, writers)
	for i := range lanes {
		lanes[i] = newLane(ctx, in.ix)
	}
	laneOf := func(path string) *lane { return lanes[indexer.ShardOf(path)%len(lanes)] }
	add := func(p part) {
		l := laneOf(p.change.State.Path)
		if len(l.batch) > 0 && (l.docs+p.docs > in.opts.BatchDocs || l.text+p.text > in.opts.BatchBytes) {
			l.flush()
		}
		l.batch = append(l.batch, p.change)
		l.docs += p.docs
		l.text += p.text
		if l.docs >= in.opts.BatchDocs || l.text >= in.opts.BatchBytes || len(l.batch) >= 1000 {
			l.flush()
		}
	}
	for _, ch := range removed {
		add(part{change: ch, docs: 1})
	}
	run.p.Removed += len(removed)
	for r := range resCh {
		path := r.change.State.Path
		switch {
		case r.again:
			// Failed as before, and unchanged: its record stays as it is.
			// It was read again, and failed: counted as failed, not
			// unchanged (skipped without being read).
			run.p.Failed++
			run.stale = append(run.stale, FileError{Path: path, Err: r.err.Error()})
			run.progress()
			continue
		case r.err != nil:
			run.p.Failed++
			run.errors = append(run.errors, FileError{Path: path, Err: r.err.Error()})
			in.opts.Logger.Warn("cannot read file", "path", path, "err", r.err)
		case r.change.State.Parser == "":
			run.p.Skipped++ // no conversation in it
		case r.change.KeepDocs:
			run.p.Unchanged++ // touched, the same bytes
		default:
			run.p.Parsed++
			if run.carrying[path] {
				run.carried++
			}
			run.p.Conversations += len(r.change.Conversations)
			for _, c := range r.change.Conversations {
				run.p.Messages += len(c.Messages)
			}
		}
		for _, w := range r.warns {
			run.warnings = append(run.warnings, FileError{Path: path, Err: w.Error()})
		}
		run.p.Bytes += r.bytes
		parts := in.split(r)
		r = result{} // the parts hold the conversations: each freed once written
		for i := range parts {
			add(parts[i])
			parts[i] = part{}
		}
		run.progress()
	}
	var writeErr error
	for _, l := range lanes {
		if err := l.close(); err != nil && writeErr == nil {
			writeErr = err
		}
	}
	if writeErr != nil {
		return writeErr
	}
	return ctx.Err()
}

// writeManifest writes index.json now, or with ManifestEvery, once that
// interval has passed, folding in every pass until then.
func (in *Ingester) writeManifest() error {
	if in.opts.ManifestEvery <= 0 {
		return in.ix.WriteManifest()
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.manifestTimer == nil && !in.closed {
		in.manifestTimer = time.AfterFunc(in.opts.ManifestEvery, func() {
			// The lock is held through the write, so Close waits for a
			// write under way rather than closing the index under it.
			in.mu.Lock()
			defer in.mu.Unlock()
			if in.closed || in.manifestTimer == nil {
				return
			}
			in.manifestTimer = nil
			if err := in.ix.WriteManifest(); err != nil {
				in.opts.Logger.Warn("cannot write index.json", "err", err)
			}
		})
	}
	return nil
}

// Close stops the timed index.json write (ManifestEvery) and, if one was
// pending, writes it now. Call it before closing the index; the Ingester
// must not be used after.
func (in *Ingester) Close() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return nil
	}
	in.closed = true
	if in.manifestTimer == nil {
		return nil
	}
	in.manifestTimer.Stop()
	in.manifestTimer = nil
	return in.ix.WriteManifest()
}

// lane gathers changes into batches and writes them, one at a time, on its
// own goroutine.
type lane struct {
	batch []indexer.Change
	docs  int
	text  int
	out   chan []indexer.Change
	done  chan error
}

func newLane(ctx context.Context, ix Index) *lane {
	l := &lane{out: make(chan []indexer.Change), done: make(chan error, 1)}
	go func() {
		var err error
		for b := range l.out {
			if err == nil {
				// Written even after cancellation: what was parsed is
				// kept, and the next pass starts from there.
				err = ix.Apply(context.WithoutCancel(ctx), b)
			}
		}
		l.done <- err
	}()
	return l
}

func (l *lane) flush() {
	if len(l.batch) > 0 {
		l.out <- l.batch
		l.batch, l.docs, l.text = nil, 0, 0
	}
}

func (l *lane) close() error {
	l.flush()
	close(l.out)
	return <-l.done
}

// read detects, hashes and parses one file.
func (in *Ingester) read(ctx context.Context, j job) result {
	st := indexer.FileState{Path: j.path, Size: j.size, ModTime: j.modTime}
	r := result{change: indexer.Change{State: st}}
	fail := func(err error) result {
		err = in.scrub(err)
		r.err = err
		r.again = j.prev != nil && j.prev.Error == err.Error() && j.prev.Size == j.size && j.prev.ModTime.Equal(j.modTime)
		r.change.State.Error = err.Error()
		if j.prev != nil {
			r.change.State.Parser = j.prev.Parser
			r.change.State.ParserVersion = j.prev.ParserVersion
			r.change.State.Companions = j.prev.Companions
		}
		r.change.KeepDocs = true
		return r
	}
	p, err := in.reg.DetectFile(j.path)
	if errors.Is(err, parsers.ErrFormat) {
		if j.prev != nil && j.prev.Parser != "" {
			// It was a conversation; now it is not one we can read (cut
			// short mid-write, overwritten): keep what it said before.
			return fail(err)
		}
		// Not a conversation file (a README, an image, an unknown
		// format): remember it, index nothing, say so under -v.
		in.opts.Logger.Debug("not a known conversation format; skipped", "path", j.path)
		r.change.State.ParserVersion = in.gen
		return r
	}
	if err != nil {
		return fail(err)
	}
	info := p.Info()
	r.change.State.Parser, r.change.State.ParserVersion = info.Name, info.Version
	for _, c := range parsers.Companions(p, j.path) {
		r.change.State.Companions = append(r.change.State.Companions, stamp(c))
	}
	// A touched file whose bytes did not change need not be parsed again.
	if prev := j.prev; prev != nil && !j.force && prev.Error == "" && prev.Hash != "" && prev.Size == j.size &&
		prev.Parser == info.Name && prev.ParserVersion == info.Version && sameStamps(prev.Companions, r.change.State.Companions) {
		if h, err := hashFile(j.path); err == nil && h == prev.Hash {
			r.change.State.Hash = h
			r.change.KeepDocs = true
			return r
		}
	}
	h := sha256.New()
	_, res, err := in.reg.ParseFileFrom(ctx, j.path, p, h)
	if err != nil {
		return fail(err)
	}
	r.change.State.Hash = hex.EncodeToString(h.Sum(nil))
	r.bytes = j.size
	for _, w := range res.Warnings {
		w = in.scrub(w)
		r.warns = append(r.warns, w)
		r.change.State.Warnings = append(r.change.State.Warnings, w.Error())
	}
	cut := 0
	for _, c := range res.Conversations {
		// Capped first, so that nothing after (redaction, extraction,
		// analysis) works on, or holds, a text of hundreds of megabytes.
		cut += indexer.CapTexts(c, in.opts.MaxTextBytes)
		if in.opts.Redactor != nil {
			in.opts.Redactor.Conversation(c)
		}
		if in.ex != nil {
			in.ex.Apply(c)
		}
		r.docs += docsOf(c)
		r.text += textOf(c)
	}
	if cut > 0 {
		w := fmt.Errorf("%s: %d texts longer than %d bytes are indexed only up to that size (the file keeps them whole)", j.path, cut, in.opts.MaxTextBytes)
		r.warns = append(r.warns, w)
		r.change.State.Warnings = append(r.change.State.Warnings, w.Error())
	}
	r.change.Conversations = res.Conversations
	if len(res.Conversations) == 1 {
		in.keep(&r, j, info)
	}
	return r
}

// keep sets, for a file of one conversation, the Prefix to record with it
// and, if the file held it alone before and the documents of its first
// messages are those the record says were written (the file only grew),
// how many of them keep their documents: a long session that Claude Code
// appends to after every turn then costs what was appended, not all of it.
// A forced read (the conversation's key changes), a file whose family
// changed, or one whose last read failed or stopped part-way is written
// whole.
func (in *Ingester) keep(r *result, j job, info parsers.Info) {
	c := r.change.Conversations[0]
	var prev indexer.ConversationEntry
	at := 0
	if p := j.prev; p != nil && !j.force && p.Error == "" && p.Hash != "" && p.Size >= 0 &&
		p.Parser == info.Name && p.ParserVersion == info.Version && len(p.Conversations) == 1 {
		prev = p.Conversations[0]
		if indexer.IsKeyOf(prev.ID, c.ID, j.path) {
			at = prev.Prefix
		}
	}
	pre, h := indexer.PrefixOf(c, at)
	r.change.Prefix = pre
	if at > 0 && h != "" && h == prev.PrefixHash {
		r.change.Kept, r.change.KeptHash = at, h
		r.docs -= at
		for i := range at {
			r.text -= messageTextOf(&c.Messages[i])
		}
	}
}

// part is one batch's share of a file's change.
type part struct {
	change     indexer.Change
	docs, text int
}

// split cuts the change of a file whose documents would overrun one batch
// (BatchDocs, BatchBytes) into parts: between conversations, and a
// conversation that overruns a batch on its own between its messages (see
// indexer.Change.Messages). The first part replaces the file's documents,
// the later ones append. All but the last record the file as unread (size
// -1, no hash), so that a pass stopped between them reads it again rather
// than keep half of it.
func (in *Ingester) split(r result) []part {
	ch := r.change
	if r.docs < in.opts.BatchDocs && r.text <= in.opts.BatchBytes {
		return []part{{change: ch, docs: r.docs + 1, text: r.text}}
	}
	var parts []part
	cur := part{change: ch}
	cur.change.Conversations = nil
	next := func() {
		if len(cur.change.Conversations) > 0 {
			parts = append(parts, cur)
			cur = part{change: indexer.Change{State: ch.State, Append: true}}
		}
	}
	for _, c := range ch.Conversations {
		d, t := docsOf(c), textOf(c)
		if ch.Kept > 0 { // the one conversation: see keep
			d, t = r.docs, r.text
		}
		if (d > in.opts.BatchDocs || t > in.opts.BatchBytes) && len(c.Messages)-ch.Kept > 1 {
			next()
			for _, p := range in.pieces(c, ch.Kept) {
				p.change.State, p.change.Append = ch.State, len(parts) > 0
				p.change.Kept, p.change.KeptHash, p.change.Prefix = ch.Kept, ch.KeptHash, ch.Prefix
				parts = append(parts, p)
			}
			cur = part{change: indexer.Change{State: ch.State, Append: true}}
			continue
		}
		if cur.docs+d > in.opts.BatchDocs || cur.text+t > in.opts.BatchBytes {
			next()
		}
		cur.change.Conversations = append(cur.change.Conversations, c)
		cur.docs += d
		cur.text += t
	}
	next()
	for i := range parts[:len(parts)-1] {
		st := &parts[i].change.State
		st.Size, st.Hash = -1, ""
	}
	parts[len(parts)-1].docs++ // the file's record
	return parts
}

// pieces cuts conversation c, too long for one batch, between its messages
// from kept on (those before keep their documents) into parts of at most
// BatchDocs documents and BatchBytes of text (or one message, if that
// alone is more). The first piece holds the conversation's own, topic and
// decision documents as well.
func (in *Ingester) pieces(c *conversation.Conversation, kept int) []part {
	var out []part
	docs, text := 1+len(c.Topics)+len(c.Decisions), headTextOf(c)
	from := kept
	for i := kept; i < len(c.Messages); i++ {
		t := messageTextOf(&c.Messages[i])
		if i > from && (docs+1 > in.opts.BatchDocs || text+t > in.opts.BatchBytes) {
			out = append(out, part{change: indexer.Change{Conversations: []*conversation.Conversation{c}, Messages: indexer.Range{From: from, To: i}}, docs: docs, text: text})
			from, docs, text = i, 0, 0
		}
		docs++
		text += t
	}
	out = append(out, part{change: indexer.Change{Conversations: []*conversation.Conversation{c}, Messages: indexer.Range{From: from, To: len(c.Messages)}}, docs: docs, text: text})
	return out
}

// docsOf is how many documents c makes.
func docsOf(c *conversation.Conversation) int {
	return 1 + len(c.Messages) + len(c.Topics) + len(c.Decisions)
}

// textOf is roughly how many bytes of text c's documents index.
func textOf(c *conversation.Conversation) int {
	n := headTextOf(c)
	for i := range c.Messages {
		n += messageTextOf(&c.Messages[i])
	}
	return n
}

// headTextOf is roughly how many bytes of text c's own, topic and decision
// documents index.
func headTextOf(c *conversation.Conversation) int {
	n := len(c.Title)
	for _, s := range c.Summaries {
		n += len(s)
	}
	for _, a := range c.Artifacts {
		n += len(a.Content) + len(a.Description)
	}
	for _, nt := range c.Notes {
		n += len(nt.Text)
	}
	for _, d := range c.Decisions {
		n += len(d.Decision) + len(d.Rationale)
	}
	return n
}

// messageTextOf is roughly how many bytes of text m's document indexes,
// with its share of its neighbours' context fields.
func messageTextOf(m *conversation.Message) int {
	n := len(m.Content) + len(m.Thinking) + indexer.ContextBytes(m)
	for _, tc := range m.ToolCalls {
		n += len(tc.Arguments)
	}
	for _, tr := range m.ToolResults {
		n += len(tr.Content)
	}
	return n
}

func sameStamps(a, b []indexer.Stamp) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// pass keeps the totals of one Reconcile or Sync.
type pass struct {
	in       *Ingester
	start    time.Time
	p        Progress
	errors   []FileError
	warnings []FileError
	stale    []FileError
	// adoptAlways looks for orphaned copies even when the pass changed
	// nothing (see process).
	adoptAlways bool
	// rebuild and carried: see Summary. carrying holds the files a rebuild
	// reads from outside the roots: carried counts those that hold
	// conversations, not the other files the old index recorded.
	rebuild  string
	carried  int
	carrying map[string]bool
}

func newPass(in *Ingester, start time.Time) *pass { return &pass{in: in, start: start} }

// fail counts a path the walk could not look at (a missing root, a folder
// it may not read) as a file seen that failed.
func (r *pass) fail(path string, err error) {
	r.p.Seen++
	r.p.Failed++
	r.errors = append(r.errors, FileError{Path: path, Err: err.Error()})
	r.in.opts.Logger.Warn("cannot read file", "path", path, "err", err)
}

func (r *pass) progress() {
	if r.in.opts.Progress != nil {
		r.p.Elapsed = time.Since(r.start)
		r.in.opts.Progress(r.p)
	}
}

func (r *pass) summary() *Summary {
	r.p.Elapsed = time.Since(r.start)
	return &Summary{Progress: r.p, Errors: r.errors, Warnings: r.warnings, StillFailing: r.stale, Rebuild: r.rebuild, Carried: r.carried}
}

func (s *Summary) add(o *Summary) {
	s.Seen += o.Seen
	s.Unchanged += o.Unchanged
	s.Parsed += o.Parsed
	s.Failed += o.Failed
	s.Skipped += o.Skipped
	s.Removed += o.Removed
	s.Conversations += o.Conversations
	s.Messages += o.Messages
	s.Bytes += o.Bytes
	s.Elapsed += o.Elapsed
	s.Errors = append(s.Errors, o.Errors...)
	s.Warnings = append(s.Warnings, o.Warnings...)
	s.StillFailing = append(s.StillFailing, o.StillFailing...)
	s.Rebuild = cmp.Or(s.Rebuild, o.Rebuild)
	s.Carried += o.Carried
}
