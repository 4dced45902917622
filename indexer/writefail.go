package indexer

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"

	"github.com/blevesearch/bleve/v2"
)

// WriteError means a write to the index failed on the disk: it is full
// (Unwrap gives syscall.ENOSPC) or failed (syscall.EIO, or what Bleve said).
// The index keeps what was written before it, and stays readable; the Index
// that saw it refuses further writes, since Bleve's in-memory state after a
// failed write is not to be trusted (a later batch panicked in its segment
// cache).
type WriteError struct {
	// Path is the index folder.
	Path string
	// Free is the space left on its file system, Need about what the write
	// needed, in bytes (-1: unknown).
	Free, Need int64
	// Err is the cause.
	Err error
	// Stopped is true when the write failed inside Bleve: the Index that
	// saw it refuses further writes until it is opened again (a process
	// that stays up, the daemon, must be restarted to write).
	Stopped bool
}

func (e *WriteError) Error() string {
	if errors.Is(e.Err, syscall.ENOSPC) {
		return fmt.Sprintf("disk full writing %s: %s free, about %s needed; free space or use --data-dir elsewhere",
			e.Path, megabytes(e.Free), megabytes(e.Need))
	}
	return fmt.Sprintf("write %s: %v (the index keeps what was written before; fix the disk and run `convsearch index` again)", e.Path, e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

func megabytes(n int64) string {
	if n < 0 {
		return "? MB"
	}
	return fmt.Sprintf("%d MB", (n+(1<<20)-1)>>20)
}

// writeFailure holds the first write error an Index saw.
type writeFailure struct {
	mu  sync.Mutex
	err error
	// noSpaceCheck lets tests reach Bleve's own failure on a full disk.
	noSpaceCheck bool
}

func (w *writeFailure) get() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// set keeps err unless an error is already kept, and returns the kept one.
func (w *writeFailure) set(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	return w.err
}

// Bleve needs about this much room on disk to write a batch: its new
// segment (measured here: 1.0–1.1 bytes per byte of the batch's documents as
// Bleve sizes them), then room for a merge to write its output before it
// removes its inputs. The estimate is a floor, not a promise: a write that
// still runs out is caught when it fails.
func spaceNeeded(b *bleve.Batch) int64 {
	const slack = 4 << 20 // root.bolt growth, the manifest, a small merge
	return int64(b.TotalDocsSize())*3/2 + slack
}

// writeBatch writes b, unless an earlier write failed. It checks the free
// space first: a write that runs out of space half-way leaves Bleve's
// persister retrying and its segment cache broken, while one refused
// beforehand leaves the index exactly as it was. A panic inside Bleve is
// turned into an error, and stops further writes too.
func (ix *Index) writeBatch(b *bleve.Batch) (err error) {
	if err := ix.wfail.get(); err != nil {
		return err
	}
	release, err := ix.hold()
	if err != nil {
		return err
	}
	defer release()
	path := ix.idx.Name()
	need := spaceNeeded(b)
	if free := freeSpace(path); free >= 0 && free < need && !ix.wfail.noSpaceCheck {
		// Nothing was written: Bleve's state is sound, and a later write,
		// once there is room, may go ahead.
		return &WriteError{Path: path, Free: free, Need: need, Err: syscall.ENOSPC}
	}
	defer func() {
		if p := recover(); p != nil {
			if prev := ix.wfail.get(); prev != nil {
				err = prev // the failure that broke Bleve's state
				return
			}
			err = ix.wfail.set(damagedByPanic(ix.opts.Logger, path, p))
		}
	}()
	if err := ix.idx.Batch(b); err != nil {
		if werr := asWriteError(path, need, err); werr != nil {
			return ix.wfail.set(werr)
		}
		return err
	}
	return nil
}

// asWriteError returns a *WriteError when err is a disk's failure, else nil.
// Bleve formats most errors with %v, so the cause is often only in the text.
func asWriteError(path string, need int64, err error) *WriteError {
	var cause error
	msg := err.Error()
	switch {
	case errors.Is(err, syscall.ENOSPC), strings.Contains(msg, syscall.ENOSPC.Error()):
		cause = syscall.ENOSPC
	case errors.Is(err, syscall.EIO), strings.Contains(msg, syscall.EIO.Error()):
		cause = syscall.EIO
	case errors.Is(err, syscall.EDQUOT), strings.Contains(msg, syscall.EDQUOT.Error()):
		cause = syscall.ENOSPC // over quota: to the user, a full disk
	case errors.Is(err, syscall.EROFS), strings.Contains(msg, syscall.EROFS.Error()):
		cause = syscall.EROFS
	default:
		return nil
	}
	return &WriteError{Path: path, Free: freeSpace(path), Need: need, Err: fmt.Errorf("%w (%v)", cause, err), Stopped: true}
}
