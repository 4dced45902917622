// Package indexer owns the Bleve index: its mapping, the documents of every
// conversation (conversation, message, topic and decision documents), the
// record of which source file yielded which documents, and the index.json
// manifest derived from that record. It knows conversations, not formats.
package indexer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/internal/atomicfile"
)

// ErrLocked means another process holds the index open for writing.
var ErrLocked = errors.New("the index is in use by another convsearch process")

// Options configure Open.
type Options struct {
	// Dir is the data folder: the index lives in Dir/index.bleve and the
	// manifest in Dir/index.json.
	Dir string
	// LockTimeout is how long Open waits for another process to release the
	// index before failing with ErrLocked (default 2s).
	LockTimeout time.Duration
	// Rebuild starts an empty index beside any existing one; Commit puts it
	// in the old one's place.
	Rebuild bool
	// ReadOnly opens an existing index to read it, beside other readers.
	ReadOnly bool
	// Redaction names the rule set that keeps secrets out of what is
	// written ("off": none). A writer that names other rules than the
	// index was made under starts it again: it may hold what the new rules
	// hide. "" is none for a new index or one made without rules, but a
	// writer that names no rules never starts again an index made under
	// some: Open fails and leaves it whole (a reader needs no rules).
	Redaction string
	// Holder names the command opening the index as a writer ("index",
	// "watch", "serve", "mcp"…): it goes to the lock file, so that a
	// process refused the index says who holds it and what to do.
	Holder string
	// Logger receives the indexer's logs (default: discarded).
	Logger *slog.Logger
}

// SetDefaults fills the zero fields of o.
func (o *Options) SetDefaults() {
	if o.LockTimeout <= 0 {
		o.LockTimeout = 2 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Index is an open Bleve index with its record of source files. Its methods
// are safe for concurrent use; writes are serialised.
type Index struct {
	opts Options
	// swap is held for reading wherever idx is used outside mu (a search,
	// a batch being written), and for writing by Commit and Close, which
	// close idx: a search running then would read a closed or nil index.
	// It is taken before mu, never after.
	swap sync.RWMutex
	idx  bleve.Index
	path string   // where the index lives (Dir/index.bleve)
	lock *dirLock // the data folder's writer lock; nil for a reader
	// building is true from a rebuild's Open until Commit: idx is the new
	// index, beside the old one at path.
	building bool
	// why says why the index is being rebuilt (while building), and
	// carried are the source files the index being replaced recorded:
	// the rebuild reads them again, whatever roots its pass was given.
	why     string
	carried []string

	mu     sync.RWMutex // guards the fields below
	shards [numShards]map[string]*FileState
	owners map[string]string // conversation key -> path of the file that holds it
	meta   meta
	// rebuilt is true when Open found an index of another format version
	// (or none) and started a new one.
	rebuilt bool
	// gen counts the batches applied since Open, so readers can tell that
	// what they cached may be stale.
	gen atomic.Uint64
	// recordsLoaded is set once the file records were read (see
	// loadRecords); dirty once a batch changed them since the manifest was
	// written.
	recordsLoaded bool
	recordsErr    error
	dirty         bool
	// inFlight marks the shards an Apply is writing; free signals when one
	// finishes.
	inFlight [numShards]bool
	free     *sync.Cond
	// wfail keeps the first write that failed on the disk: later ones
	// are refused (see writeBatch).
	wfail writeFailure
}

// maxSegmentDocs caps how many documents merging puts in one segment.
const maxSegmentDocs = 100000

// IndexPath is where the Bleve index of data folder dir lives.
func IndexPath(dir string) string { return filepath.Join(dir, "index.bleve") }

// ManifestPath is where the index.json manifest of data folder dir lives.
func ManifestPath(dir string) string { return filepath.Join(dir, "index.json") }

// ErrNoIndex means the data folder has no index yet.
var ErrNoIndex = errors.New("no index yet")

// hold read-locks swap for a use of idx outside mu, which the caller ends
// with release; when the index is closed it holds nothing and returns
// errClosed.
func (ix *Index) hold() (release func(), err error) {
	ix.swap.RLock()
	if ix.idx == nil {
		ix.swap.RUnlock()
		return nil, errClosed
	}
	return ix.swap.RUnlock, nil
}

// errClosed is what a use of a closed index (or of one whose rebuild failed
// to take its place) returns, rather than a nil dereference.
var errClosed = errors.New("the index is closed")

// Open opens the index in opts.Dir. A writer (the default) takes the data
// folder's lock first, then creates the index if there is none and starts
// it again if it was written with another FormatVersion; with Rebuild it
// builds a new one beside the old, which Commit swaps in. A reader
// (ReadOnly) never creates, removes or rebuilds anything: a missing, old or
// damaged index is an error that names the fix.
func Open(opts Options) (*Index, error) {
	opts.SetDefaults()
	if opts.Dir == "" {
		return nil, errors.New("open index: no data folder given")
	}
	if opts.ReadOnly && opts.Rebuild {
		return nil, errors.New("open index: a reader cannot rebuild")
	}
	path := IndexPath(opts.Dir)
	ix := &Index{opts: opts, owners: map[string]string{}, path: path}
	ix.free = sync.NewCond(&ix.mu)
	for i := range ix.shards {
		ix.shards[i] = map[string]*FileState{}
	}
	if opts.ReadOnly {
		if err := ix.open(path); err != nil {
			return nil, err
		}
		// Best effort: the folder may be another account's, shared to read.
		if err := tighten(opts.Dir); err != nil {
			opts.Logger.Debug("cannot make the data folder private", "dir", opts.Dir, "err", err)
		}
		return ix, nil
	}
	if err := MakePrivate(opts.Dir); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	lock, err := lockDir(opts.Dir, opts.LockTimeout, opts.Holder)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	ix.lock = lock
	if err := ix.openWriter(path); err != nil {
		lock.unlock()
		return nil, err
	}
	return ix, nil
}

// bleveConfig is the runtime configuration every open passes to Bleve.
func (ix *Index) bleveConfig() map[string]any {
	c := map[string]any{
		"bolt_timeout": ix.opts.LockTimeout.String(),
		// Segments stop growing at maxSegmentDocs: a merge maps every segment
		// it reads, and merging towards one huge segment took peak RSS past
		// 2 GB at 1M messages. A few segments of this size cost queries little.
		"scorchMergePlanOptions": map[string]any{"maxSegmentSize": maxSegmentDocs},
	}
	if ix.opts.ReadOnly {
		// Bolt's shared lock: readers run side by side, and a writer waits.
		c["read_only"] = true
	}
	return c
}

// openWriter opens (or makes) the index at path; the lock is held.
func (ix *Index) openWriter(path string) error {
	if err := recoverSwap(path); err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	if ix.opts.Rebuild && exists(path) {
		ix.carried = ix.recordedPaths(path)
		ix.opts.Logger.Warn("rebuilding the whole index, as asked", "path", path, "files", len(ix.carried))
		return ix.buildBeside(path, "asked for (--rebuild)")
	}
	if ix.opts.Rebuild {
		return ix.createAndOpen(path)
	}
	err := ix.open(path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNoIndex), errors.Is(err, errHalfMade):
		return ix.createAndOpen(path)
	case errors.Is(err, errOldFormat), errors.Is(err, errRedactionChanged):
		// open kept the old index's files in ix.carried.
		why := errOldFormat.Error()
		if errors.Is(err, errRedactionChanged) {
			why = errRedactionChanged.Error()
		}
		ix.opts.Logger.Warn("rebuilding the whole index: every file it holds is read again", "path", path, "why", err,
			"files", len(ix.carried), "format", FormatVersion, "redaction", redaction(ix.opts.Redaction))
		return ix.buildBeside(path, why)
	}
	return err
}

// buildBeside starts a rebuild beside the index at path: it stays whole,
// and readable, until Commit; a rebuild killed half-way, or closed without
// Commit, leaves it as it was (and the next writer starts again).
func (ix *Index) buildBeside(path, why string) error {
	aside := rebuildPath(path)
	if err := ix.create(aside); err != nil {
		return err
	}
	ix.meta = meta{}
	ix.building, ix.why = true, why
	return ix.openNew(aside)
}

// recordedPaths returns the source files the index at path records, for a
// rebuild to read again: from its records if it opens, else from its
// index.json (a damaged index). Nil if neither can be read.
func (ix *Index) recordedPaths(path string) []string {
	config := ix.bleveConfig()
	config["read_only"] = true // read, never written: it may be damaged
	idx, err := openChecked(path, config, ix.opts.Logger)
	if err != nil {
		return ix.pathsOr(path, nil, err)
	}
	paths, err := readPaths(idx)
	if cerr := closeWithin(idx, closeTimeout); err == nil {
		err = cerr
	}
	return ix.pathsOr(path, paths, err)
}

// carryFrom keeps the files idx records, for the rebuild that replaces it
// to read again (see Carried); from index.json if the records cannot be read.
func (ix *Index) carryFrom(idx bleve.Index) {
	paths, err := readPaths(idx)
	ix.carried = ix.pathsOr(ix.path, paths, err)
}

// pathsOr returns paths, the files the records of the index at path list,
// unless reading them failed (err) or found none: then those index.json
// lists.
func (ix *Index) pathsOr(path string, paths []string, err error) []string {
	if err == nil && len(paths) > 0 {
		return paths
	}
	mpaths, merr := manifestPaths(ManifestPath(ix.opts.Dir))
	if merr != nil && err != nil {
		ix.opts.Logger.Warn("cannot tell which files the old index held: the rebuild reads only the roots it is given",
			"path", path, "err", errors.Join(err, merr))
	}
	return mpaths
}

// readPaths returns the paths of the file records in idx, sorted. Only the
// paths are decoded: an index of an older format is read as well.
func readPaths(idx bleve.Index) ([]string, error) {
	var paths []string
	err := eachShard(idx, func(_ int, list []struct {
		Path string `json:"path"`
	}) {
		for _, f := range list {
			if f.Path != "" {
				paths = append(paths, f.Path)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	return paths, nil
}

// eachShard decodes each shard of file records idx holds into a list of T
// and gives it to fn with its number; a shard not written is passed over.
func eachShard[T any](idx bleve.Index, fn func(n int, list []T)) error {
	for n := range numShards {
		b, err := idx.GetInternal(shardKey(n))
		if err != nil {
			return fmt.Errorf("read file records: %w", err)
		}
		if b == nil {
			continue
		}
		var list []T
		if err := json.Unmarshal(b, &list); err != nil {
			return fmt.Errorf("read file records %s: %w", shardKey(n), err)
		}
		fn(n, list)
	}
	return nil
}

// manifestPaths returns the files index.json at path lists.
func manifestPaths(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m struct {
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var paths []string
	for _, f := range m.Files {
		if f.Path != "" {
			paths = append(paths, f.Path)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// Rebuilding says why the index is being rebuilt beside the old one (the
// redaction rules changed, it was written by another version, --rebuild),
// from Open until Commit; "" when it is not.
func (ix *Index) Rebuilding() string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if !ix.building {
		return ""
	}
	return ix.why
}

// Carried returns, while the index is being rebuilt, the source files the
// index it replaces recorded, sorted: a rebuild reads them all again, not
// only those under the roots of its pass, so that Commit loses none of
// what the old index held. Nil when no rebuild is under way.
func (ix *Index) Carried() []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if !ix.building {
		return nil
	}
	return slices.Clone(ix.carried)
}

func (ix *Index) createAndOpen(path string) error {
	if err := ix.create(path); err != nil {
		return err
	}
	return ix.openNew(path)
}

// openNew opens an index create just made.
func (ix *Index) openNew(path string) error {
	idx, err := bleve.OpenUsing(path, ix.bleveConfig())
	if err != nil {
		if isLockTimeout(err) {
			return fmt.Errorf("open index %s: %w", path, ErrLocked)
		}
		return fmt.Errorf("open new index %s: %w", path, err)
	}
	ix.idx = idx
	ix.rebuilt = true
	ix.recordsLoaded = true // a new index has none
	if err := ix.load(); err != nil {
		idx.Close()
		return err
	}
	return nil
}

// Reasons open gives a writer to make the index anew.
var (
	errHalfMade  = errors.New("left half-made")
	errOldFormat = errors.New("written by another version of convsearch")
	// errRedactionChanged: made under other redaction rules.
	errRedactionChanged = errors.New("the redaction rules changed")
)

func redaction(name string) string {
	if name == "" {
		return "off"
	}
	return name
}

// open opens the existing index at path. Its errors name the fix: a reader
// passes them on, a writer acts on ErrNoIndex, errHalfMade and errOldFormat.
func (ix *Index) open(path string) error {
	idx, err := openChecked(path, ix.bleveConfig(), ix.opts.Logger)
	if err == nil {
		ix.idx = idx
		if err := ix.load(); err != nil {
			idx.Close()
			return fmt.Errorf("open index %s: %w (the index is damaged: run `convsearch index --rebuild`)", path, err)
		}
		if !ix.opts.ReadOnly && redaction(ix.meta.Redaction) != redaction(ix.opts.Redaction) {
			if ix.opts.Redaction == "" {
				// Not a choice of other rules, an open that forgot them:
				// starting again would throw the index away for nothing.
				idx.Close()
				return fmt.Errorf("open index %s: it was made under redaction rules %q and this writer names none: left as it is (open it read-only to search it)",
					path, ix.meta.Redaction)
			}
			ix.carryFrom(idx)
			idx.Close()
			return fmt.Errorf("open index %s: %w", path, errRedactionChanged)
		}
		if ix.meta.FormatVersion != FormatVersion {
			if !ix.opts.ReadOnly {
				ix.carryFrom(idx)
			}
			idx.Close()
			return fmt.Errorf("open index %s: %w (format %d; this one reads %d): run `convsearch index` to build it again",
				path, errOldFormat, ix.meta.FormatVersion, FormatVersion)
		}
		return nil
	}
	switch {
	case isLockTimeout(err):
		// A reader waits on a writer's Bolt lock: the lock file names it.
		// (A writer, which holds that lock, waits on readers.)
		var h Holder
		if ix.opts.ReadOnly {
			h = LockHolder(ix.opts.Dir)
		}
		return fmt.Errorf("open index %s: %w", path, &LockedError{Holder: h})
	case exists(path + ".creating"):
		// Being made by a writer now, or left half-made by one that was
		// killed: the writer that holds the lock makes it again.
		return fmt.Errorf("open index %s: %w (or being made now): run `convsearch index`", path, errHalfMade)
	case errors.Is(err, bleve.ErrorIndexPathDoesNotExist), isEmptyDir(path):
		return fmt.Errorf("%s: %w: run `convsearch index` to build it", ix.opts.Dir, ErrNoIndex)
	}
	// Anything else is damage: never removed here, only by --rebuild, so
	// that an index that fails to open for a reason we did not foresee is
	// not lost.
	return fmt.Errorf("open index %s: the index is damaged (%w): run `convsearch index --rebuild`", path, err)
}

// create makes a new, empty index at path. A marker file beside it stands
// while it is being made, so that an index a killed process left half-made
// (no mapping yet: Bleve could not open it) is known for what it is and
// made again, while a complete index that fails to open is never removed.
// The lock is held.
func (ix *Index) create(path string) error {
	marker := path + ".creating"
	if err := os.WriteFile(marker, nil, fileMode); err != nil {
		return fmt.Errorf("create index %s: %w", path, err)
	}
	if err := os.RemoveAll(path); err != nil {
		return fmt.Errorf("clear %s: %w", path, err)
	}
	idx, err := bleve.NewUsing(path, newMapping(), scorch.Name, scorch.Name, ix.bleveConfig())
	if err != nil {
		if isLockTimeout(err) {
			return fmt.Errorf("create index %s: %w", path, ErrLocked)
		}
		return fmt.Errorf("create index %s: %w", path, err)
	}
	b, _ := json.Marshal(meta{FormatVersion: FormatVersion, Created: time.Now().UTC(), Redaction: redaction(ix.opts.Redaction)})
	err = idx.SetInternal(metaKey, b) // a batch: back once it is on disk
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("create index %s: %w", path, err)
	}
	if err := os.Remove(marker); err != nil {
		return fmt.Errorf("create index %s: %w", path, err)
	}
	// Bleve writes index_meta.json for anyone to read.
	if err := filepath.WalkDir(path, privateEntry); err != nil {
		return fmt.Errorf("create index %s: %w", path, err)
	}
	return atomicfile.SyncDir(filepath.Dir(path))
}

// Commit ends a rebuild: the index built beside the old one takes its
// place, and the old one is removed. Without a rebuild it does nothing.
// Close without Commit discards a rebuild and keeps the old index.
func (ix *Index) Commit() error {
	ix.swap.Lock()
	defer ix.swap.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !ix.building {
		return nil
	}
	aside := rebuildPath(ix.path)
	err := closeWithin(ix.idx, closeTimeout)
	ix.idx = nil // closed, or past saving: uses now answer errClosed
	if err != nil {
		return fmt.Errorf("close rebuilt index %s: %w", aside, err)
	}
	if err := swapIn(aside, ix.path); err != nil {
		return err
	}
	ix.building, ix.why, ix.carried = false, "", nil
	// Scorch writes where it was opened: open it again in its place.
	idx, err := bleve.OpenUsing(ix.path, ix.bleveConfig())
	if err != nil {
		return fmt.Errorf("open rebuilt index %s: %w", ix.path, err)
	}
	ix.idx = idx
	ix.gen.Add(1)
	return nil
}

// closeTimeout bounds how long Close waits for Bleve. Its merger, reading a
// segment damaged under the open index, can loop for ever inside its FST
// decoder, and Bleve's Close waits for the merger: a process shutting down
// then gives up on the index (the OS releases its files and lock) instead
// of hanging.
const closeTimeout = 20 * time.Second

// lockedAdvice is what a process refused the index can do when the lock
// file does not say which command holds it (Holder.advice says it when it
// does): the holder may be an index run (wait for it), a watch (it keeps
// the index to itself), or a daemon, which other commands go through while
// it answers, and which a second serve or watch must not replace.
const lockedAdvice = "wait for it to finish, or stop it; a `convsearch watch` keeps the index to itself, while a `convsearch serve` lets other commands go through it"

// errCloseTimeout is what Close says when Bleve did not close in time.
var errCloseTimeout = errors.New("Bleve did not close in time, most likely stuck merging a damaged segment (run `convsearch index --rebuild`)")

// closeWithin closes c, or gives up after d and leaves it closing.
func closeWithin(c io.Closer, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return errCloseTimeout
	}
}

func isEmptyDir(path string) bool {
	entries, err := os.ReadDir(path)
	return err == nil && len(entries) == 0
}

func isLockTimeout(err error) bool {
	// bbolt reports a lock it could not take in time as "timeout".
	return err != nil && strings.Contains(err.Error(), "timeout")
}

// load reads the meta record and every file record.
func (ix *Index) load() error {
	b, err := ix.idx.GetInternal(metaKey)
	if err != nil {
		return fmt.Errorf("read index meta: %w", err)
	}
	if b != nil {
		if err := json.Unmarshal(b, &ix.meta); err != nil {
			return fmt.Errorf("read index meta: %w", err)
		}
	}
	return nil
}

// loadRecords reads every file record, once, when something first needs
// them: a search never does, so it does not pay for them. ix.mu is held.
func (ix *Index) loadRecords() error {
	if ix.recordsLoaded {
		return ix.recordsErr
	}
	if ix.idx == nil {
		return errClosed
	}
	ix.recordsLoaded = true
	if err := ix.readRecords(); err != nil {
		ix.recordsErr = fmt.Errorf("%w (the index's record of files is damaged: run `convsearch index --rebuild`)", err)
	}
	return ix.recordsErr
}

func (ix *Index) readRecords() error {
	return eachShard(ix.idx, func(n int, list []*FileState) {
		for _, f := range list {
			ix.shards[n][f.Path] = f
			for _, c := range f.Conversations {
				ix.owners[c.ID] = f.Path
			}
		}
	})
}

// Rebuilt reports whether Open started a new, empty index.
func (ix *Index) Rebuilt() bool { return ix.rebuilt }

// Dir returns the data folder.
func (ix *Index) Dir() string { return ix.opts.Dir }

// Close writes the manifest, if the index changed or has none, and closes
// the index.
// A reader writes nothing; a rebuild never committed is discarded, and the
// index it was to replace stays as it was.
func (ix *Index) Close() error {
	defer ix.lock.unlock()
	ix.mu.Lock()
	write := (ix.dirty || ix.rebuilt) && !ix.opts.ReadOnly && !ix.building
	building := ix.building
	ix.mu.Unlock()
	var merr error
	if _, err := os.Stat(ManifestPath(ix.opts.Dir)); !ix.opts.ReadOnly && !building && (write || err != nil) {
		merr = ix.WriteManifest()
	}
	// Both locks: a search (swap) and an Apply's preparation (mu) both
	// read idx, which is nil from here on.
	ix.swap.Lock()
	defer ix.swap.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.idx != nil {
		err := closeWithin(ix.idx, closeTimeout)
		ix.idx = nil // closed, or past saving: uses now answer errClosed
		if err != nil {
			return fmt.Errorf("close index %s: %w", ix.path, err)
		}
	}
	if building {
		if err := os.RemoveAll(rebuildPath(ix.path)); err != nil {
			return fmt.Errorf("discard the unfinished rebuild: %w", err)
		}
	}
	return merr
}

// File returns the record of the file at path.
func (ix *Index) File(path string) (FileState, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.loadRecords()
	f, ok := ix.shards[shardOf(path)][path]
	if !ok {
		return FileState{}, false
	}
	return *f, true
}

// Files returns every file record, sorted by path. The records share their
// slices with the index: treat them as read-only.
func (ix *Index) Files() []FileState {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.loadRecords()
	var out []FileState
	for _, sh := range ix.shards {
		for _, f := range sh {
			out = append(out, *f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Change is one file's new state, applied by Apply.
type Change struct {
	// State is the file's new record; State.Path names the file.
	State FileState
	// Remove deletes the file's documents and record (State.Path only).
	Remove bool
	// KeepDocs keeps the documents the file yielded before (its parse
	// failed: the previous content stays searchable) and updates the record.
	KeepDocs bool
	// Append adds Conversations to the file's documents and record,
	// keeping those already there: a file too big for one batch is written
	// as a Change that replaces, then Changes that append (see ingest).
	Append bool
	// Conversations replace the file's documents, unless Remove or KeepDocs.
	Conversations []*conversation.Conversation
	// Kept, with one conversation whose file held it alone before, is how
	// many of its leading messages keep the documents they have, and
	// KeptHash the hash of them (PrefixOf) that the file's record must
	// give the conversation for that: the rest is written, and a
	// conversation that only grew costs what was added. If the record
	// disagrees, the whole conversation is written. Pieces (Messages)
	// then start at Kept, the first one included.
	Kept     int
	KeptHash string
	// Prefix, for a Change of one conversation, is recorded with it (see
	// PrefixOf) for a later read of the file.
	Prefix Prefix
	// Messages, unless whole (the zero Range), limits the Change to those
	// messages of its one conversation: a conversation too long for one
	// batch is written in pieces (see ingest). The first piece (from
	// message Kept, 0 unless some are kept) writes the conversation's own,
	// topic and decision documents and its entry in the record, which
	// names every document the conversation will have, so that a pass
	// stopped before its last piece removes all of them when it reads the
	// file again; the later pieces (Append) add their messages' documents
	// only.
	Messages Range
}

// ShardOf returns which of the index's record shards holds path's record
// (0 to NumShards-1). Two Applies whose files fall in different shards run
// at the same time; callers that want parallel batches split work by it.
func ShardOf(path string) int { return shardOf(path) }

// NumShards is the number of record shards.
const NumShards = numShards

// Apply writes changes in one Bleve batch: old documents deleted, new ones
// added, file records updated. Either all of it lands or none. Applies on
// disjoint sets of shards (see ShardOf) build their Bleve segments at the
// same time; others wait for the shards they share.
func (ix *Index) Apply(ctx context.Context, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	shards := make([]int, 0, len(changes))
	seenShard := map[int]bool{}
	for i := range changes {
		if n := shardOf(changes[i].State.Path); !seenShard[n] {
			seenShard[n] = true
			shards = append(shards, n)
		}
	}

	ix.mu.Lock()
	for ix.busy(shards) {
		ix.free.Wait()
	}
	for _, n := range shards {
		ix.inFlight[n] = true
	}
	release := func() {
		for _, n := range shards {
			ix.inFlight[n] = false
		}
		ix.free.Broadcast()
	}
	if err := ix.loadRecords(); err != nil {
		release()
		ix.mu.Unlock()
		return err
	}
	p, err := ix.prepare(changes)
	if err != nil {
		p.undoOwners(ix)
		release()
		ix.mu.Unlock()
		return err
	}
	ix.mu.Unlock()

	// The expensive part — analysis, building the segment — runs unlocked.
	err = ix.writeBatch(p.batch)

	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer release()
	if err != nil {
		p.undoOwners(ix)
		return fmt.Errorf("write index batch: %w", err)
	}
	for n, sh := range p.touched {
		ix.shards[n] = sh
	}
	if p.meta.LastSync.After(ix.meta.LastSync) {
		ix.meta = p.meta
	}
	ix.dirty = true
	ix.gen.Add(1)
	return nil
}

func (ix *Index) busy(shards []int) bool {
	for _, n := range shards {
		if ix.inFlight[n] {
			return true
		}
	}
	return false
}

// prepared is a batch ready to write, with what to install once it lands.
type prepared struct {
	batch   *bleve.Batch
	touched map[int]map[string]*FileState
	meta    meta
	// owners taken or released in advance (so a concurrent Apply sees
	// them), with what they were, to undo if the batch fails.
	undo map[string]string
}

func (p *prepared) undoOwners(ix *Index) {
	for key, prev := range p.undo {
		if prev == "" {
			delete(ix.owners, key)
		} else {
			ix.owners[key] = prev
		}
	}
}

// prepare builds the batch for changes; ix.mu is held.
func (ix *Index) prepare(changes []Change) (*prepared, error) {
	if ix.idx == nil {
		return &prepared{}, errClosed
	}
	p := &prepared{batch: ix.idx.NewBatch(), touched: map[int]map[string]*FileState{}, undo: map[string]string{}}
	shardFor := func(path string) map[string]*FileState {
		n := shardOf(path)
		if sh, ok := p.touched[n]; ok {
			return sh
		}
		sh := make(map[string]*FileState, len(ix.shards[n])+1)
		for k, v := range ix.shards[n] {
			sh[k] = v
		}
		p.touched[n] = sh
		return sh
	}
	setOwner := func(key, path string) {
		if _, saved := p.undo[key]; !saved {
			p.undo[key] = ix.owners[key]
		}
		if path == "" {
			delete(ix.owners, key)
		} else {
			ix.owners[key] = path
		}
	}
	// release deletes the documents of the file's old record, but for the
	// first keep messages of conversation keptKey, and gives up its keys.
	release := func(old *FileState, path, keptKey string, keep int) {
		for _, c := range old.Conversations {
			for _, id := range c.DocIDs() {
				if keep > 0 && c.ID == keptKey {
					if _, n, _ := ParseDocID(id); n >= 0 && n < keep {
						continue
					}
				}
				p.batch.Delete(id)
			}
		}
		for _, c := range old.Conversations {
			if ix.owners[c.ID] == path {
				setOwner(c.ID, "")
			}
		}
	}
	now := time.Now().UTC()
	for i := range changes {
		ch := &changes[i]
		path := ch.State.Path
		sh := shardFor(path)
		old := sh[path]
		if ch.Remove {
			if old != nil {
				release(old, path, "", 0)
				delete(sh, path)
			}
			continue
		}
		st := ch.State
		st.Indexed = now
		if ch.KeepDocs {
			if old != nil {
				st.Conversations, st.Messages = old.Conversations, old.Messages
			}
			sh[path] = &st
			continue
		}
		st.Conversations, st.Messages = nil, 0
		// keep is how many leading messages of the one conversation keep
		// their documents, under keptKey: Kept, if the record agrees.
		keep, keptKey := 0, ""
		if ch.Kept > 0 && !ch.Append && old != nil && len(old.Conversations) == 1 && len(ch.Conversations) == 1 {
			if e := old.Conversations[0]; e.Prefix == ch.Kept && e.PrefixHash == ch.KeptHash && e.Messages >= ch.Kept &&
				IsKeyOf(e.ID, ch.Conversations[0].ID, path) {
				keep, keptKey = ch.Kept, e.ID
			}
		}
		switch {
		case ch.Append && old != nil:
			st.Conversations = append(st.Conversations, old.Conversations...)
			st.Messages = old.Messages
		case old != nil:
			release(old, path, keptKey, keep)
		}
		if !ch.Messages.Whole() && ch.Messages.From > ch.Kept {
			// A later piece of a conversation whose first piece, in an
			// earlier Change, made its entry and took its key.
			if len(ch.Conversations) != 1 || !ch.Append || old == nil {
				return p, fmt.Errorf("index %s: messages %d to %d of a conversation without its first piece", path, ch.Messages.From, ch.Messages.To)
			}
			c := ch.Conversations[0]
			key := ""
			for _, e := range st.Conversations {
				if IsKeyOf(e.ID, c.ID, path) {
					key = e.ID
				}
			}
			if key == "" {
				return p, fmt.Errorf("index %s: messages %d to %d of conversation %s, not recorded", path, ch.Messages.From, ch.Messages.To, c.ID)
			}
			for _, d := range piece(c, key, path, ch.Messages.From, ch.Messages.To, false) {
				if err := p.batch.Index(d.id, d.fields); err != nil {
					return p, fmt.Errorf("index %s: %w", path, err)
				}
			}
			sh[path] = &st
			continue
		}
		if !ch.Messages.Whole() && len(ch.Conversations) != 1 {
			return p, fmt.Errorf("index %s: a message range over %d conversations", path, len(ch.Conversations))
		}
		for _, c := range ch.Conversations {
			key := c.ID
			if owner, ok := ix.owners[key]; ok && owner != path {
				// The same conversation read from another file (the same
				// tree exported as JSON and XML, a copy): index it under its
				// own key so neither file's documents overwrite the other's.
				key = copyKey(c.ID, path)
			}
			if keep > 0 && keptKey == copyKey(c.ID, path) && key == c.ID {
				// The file that held the plain ID went (in this batch or
				// since ingest planned the change): the conversation stays
				// under its own key, with its kept documents. Taking the
				// plain ID would write every message from the first, in
				// this one batch, though ingest sized the change (or its
				// first piece) without the kept ones. The file is then
				// orphaned, and the pass reads it again, whole and in
				// bounded pieces, to take the plain ID over (Orphaned).
				key = keptKey
			}
			if keep > 0 && key != keptKey {
				// The key changed (the file that held the plain ID
				// went): the kept documents go too, and all are written.
				for i := range keep {
					p.batch.Delete(MessageDocID(keptKey, i))
				}
				keep = 0
			}
			setOwner(key, path)
			// The first piece (or the whole) from the first message not
			// kept: Messages.From is Kept, which the record may refuse.
			from, to := keep, len(c.Messages)
			if !ch.Messages.Whole() {
				to = ch.Messages.To
			}
			for _, d := range piece(c, key, path, from, to, true) {
				if err := p.batch.Index(d.id, d.fields); err != nil {
					return p, fmt.Errorf("index %s: %w", path, err)
				}
			}
			st.Messages += len(c.Messages)
			e := ConversationEntry{
				ID: key, Date: c.Date, Title: c.Title, Project: c.Project,
				Topics: c.TopicNames(), Source: c.Source, Messages: len(c.Messages), Decisions: len(c.Decisions),
			}
			if len(ch.Conversations) == 1 {
				e.Prefix, e.PrefixHash = ch.Prefix.N, ch.Prefix.Hash
			}
			st.Conversations = append(st.Conversations, e)
		}
		sh[path] = &st
	}
	for n, sh := range p.touched {
		b, err := encodeShard(sh)
		if err != nil {
			return p, fmt.Errorf("encode file records: %w", err)
		}
		p.batch.SetInternal(shardKey(n), b)
	}
	p.meta = ix.meta
	p.meta.LastSync = now
	mb, _ := json.Marshal(p.meta)
	p.batch.SetInternal(metaKey, mb)
	return p, nil
}

// Generation changes whenever the index changes (in this process).
func (ix *Index) Generation() uint64 { return ix.gen.Load() }

// Orphaned returns the paths of files that hold a conversation under its
// ID~hash key while no file holds its plain ID: the file that owned it went.
// Read again, each takes the plain ID over (first come, first served, as in
// prepare), so that the conversation answers to its real ID.
func (ix *Index) Orphaned() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.loadRecords() != nil {
		return nil
	}
	var out []string
	for _, sh := range ix.shards {
		for path, f := range sh {
			suffix := "~" + shortHash(path)
			for _, c := range f.Conversations {
				if base, ok := strings.CutSuffix(c.ID, suffix); ok && base != "" && ix.owners[base] == "" {
					out = append(out, path)
					break
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// copyKey is the key of conversation id read from path while another file
// holds the plain id (see prepare).
func copyKey(id, path string) string { return id + "~" + shortHash(path) }

// IsKeyOf reports whether key is conversation id's in path's record: the
// plain id, or its copyKey (ingest asks it of the record it keeps a
// prefix from).
func IsKeyOf(key, id, path string) bool { return key == id || key == copyKey(id, path) }

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:3])
}

// Search runs a Bleve search request. The query package is its only caller.
// A panic inside Bleve (a damaged segment) comes back as a *DamagedError.
func (ix *Index) Search(ctx context.Context, req *bleve.SearchRequest) (res *bleve.SearchResult, err error) {
	release, err := ix.hold()
	if err != nil {
		return nil, err
	}
	defer release()
	defer recoverDamaged(&err, ix.opts.Logger, ix.idx.Name())
	res, err = ix.idx.SearchInContext(ctx, req)
	return res, asDamaged(ix.idx.Name(), err)
}

// LastSync returns when the index last changed.
func (ix *Index) LastSync() time.Time {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.meta.LastSync
}

// DiskSize returns the bytes the index takes on disk.
func (ix *Index) DiskSize() int64 {
	var total int64
	filepath.WalkDir(IndexPath(ix.opts.Dir), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
