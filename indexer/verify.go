package indexer

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zapv16 "github.com/blevesearch/zapx/v16"
	zapv17 "github.com/blevesearch/zapx/v17"
	bolt "go.etcd.io/bbolt"
)

// ErrDamaged means the index on disk is damaged: its files cannot be read as
// Bleve wrote them. The only fix is a rebuild from the source files.
var ErrDamaged = errors.New("the index is damaged")

// DamagedError says what in the index is damaged. It matches ErrDamaged.
type DamagedError struct {
	// File is the damaged file, or the index folder when no one file is to
	// blame ("" when not known).
	File string
	// Reason says what is wrong with it.
	Reason string
}

func (e *DamagedError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("the index is damaged (%s): run `convsearch index --rebuild`", e.Reason)
	}
	return fmt.Sprintf("the index is damaged (%s: %s): run `convsearch index --rebuild`", e.File, e.Reason)
}

// Is makes errors.Is(err, ErrDamaged) true.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// Problem is one thing Verify found wrong.
type Problem struct {
	File    string `json:"file"`
	Problem string `json:"problem"`
}

// Report is what Verify found.
type Report struct {
	Index string `json:"index"`
	// Segments and Bytes count the segment files the newest snapshot lists.
	Segments int   `json:"segments"`
	Bytes    int64 `json:"bytes"`
	// CRC is true when every segment's content was read and its CRC32
	// compared with the one in its footer.
	CRC      bool      `json:"crc_checked"`
	Problems []Problem `json:"problems"`
}

// OK reports whether nothing was found wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Err returns nil when r is OK, else a *DamagedError naming the first problem.
func (r *Report) Err() error {
	if r.OK() {
		return nil
	}
	p := r.Problems[0]
	reason := p.Problem
	if n := len(r.Problems) - 1; n > 0 {
		reason += fmt.Sprintf("; and %d more problem(s)", n)
	}
	return &DamagedError{File: p.File, Reason: reason}
}

func (r *Report) add(file, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{File: file, Problem: fmt.Sprintf(format, args...)})
}

// Verify checks the index in data folder dir without opening it with Bleve:
// index_meta.json parses, root.bolt opens and lists a snapshot, every
// segment file the newest snapshot lists exists, is large enough to hold a
// footer and has a zap version Bleve reads. With full, each segment's
// content is read and checked against the CRC32 its footer holds (it costs a
// read of the whole index; without full the checks take microseconds).
//
// Damage is reported in the Report; the error is for a check that could not
// run (no index, or another process holds it: ErrLocked).
func Verify(ctx context.Context, dir string, full bool) (*Report, error) {
	return verifyPath(ctx, IndexPath(dir), full)
}

// Bleve's zap segment footer ends with: ... chunk mode (4), version (4),
// CRC32 of everything before it (4). The smallest footer of any version is
// a few dozen bytes.
const (
	minSegmentSize = 40
	minZapVersion  = 11
	maxZapVersion  = 17
)

func verifyPath(ctx context.Context, path string, full bool) (*Report, error) {
	r, _, err := checkPath(ctx, path, true, full)
	return r, err
}

// checkPath is verifyPath, which also returns the segment files the newest
// snapshot lists. With load, each segment is opened as Bleve opens it;
// without, only its size and footer are read.
func checkPath(ctx context.Context, path string, load, full bool) (*Report, []string, error) {
	r := &Report{Index: path, CRC: full, Problems: []Problem{}}
	metaPath := filepath.Join(path, "index_meta.json")
	b, err := os.ReadFile(metaPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if _, serr := os.Stat(path); serr != nil {
			return nil, nil, fmt.Errorf("verify %s: no index there: %w", path, serr)
		}
		r.add(metaPath, "missing")
		return r, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("verify %s: %w", metaPath, err)
	}
	if !metaParses(b) {
		r.add(metaPath, "not Bleve's index metadata (%d bytes that do not parse)", len(b))
		return r, nil, nil
	}
	segments, err := listSegments(path, r)
	if err != nil || !r.OK() {
		return r, nil, err
	}
	for _, seg := range segments {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		r.Segments++
		checkSegment(seg, load, full, r)
	}
	return r, segments, nil
}

// metaParses reports whether b is Bleve's index_meta.json: JSON naming its
// storage, followed by a file-writer id and that id's 4-byte length. (With
// an id, the JSON is encoded by a writer callback we cannot undo: accepted.)
func metaParses(b []byte) bool {
	var im struct {
		Storage string `json:"storage"`
	}
	if json.Unmarshal(b, &im) == nil {
		return im.Storage != ""
	}
	if len(b) < 4 {
		return false
	}
	pos := len(b) - 4
	idLen := int(binary.BigEndian.Uint32(b[pos:]))
	if idLen > pos {
		return false
	}
	if idLen > 0 {
		return true
	}
	return json.Unmarshal(b[:pos], &im) == nil && im.Storage != ""
}

// listSegments reads the segment files the newest snapshot in root.bolt
// lists (the one Bleve loads first), with their full paths.
func listSegments(path string, r *Report) ([]string, error) {
	boltPath := filepath.Join(path, "store", "root.bolt")
	if _, err := os.Stat(boltPath); err != nil {
		r.add(boltPath, "missing")
		return nil, nil
	}
	// Read-only takes a shared lock; a writer holds an exclusive one.
	db, err := bolt.Open(boltPath, 0o600, &bolt.Options{ReadOnly: true, Timeout: 200 * time.Millisecond})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("verify %s: %w", path, ErrLocked)
	}
	if err != nil {
		r.add(boltPath, "does not open: %v", err)
		return nil, nil
	}
	defer db.Close()
	var segments []string
	err = db.View(func(tx *bolt.Tx) error {
		snaps := tx.Bucket([]byte{'s'})
		if snaps == nil {
			return errors.New("no snapshots bucket")
		}
		k, _ := snaps.Cursor().Last()
		if k == nil {
			return nil // an index that has never been written to
		}
		snap := snaps.Bucket(k)
		if snap == nil {
			return fmt.Errorf("snapshot %x is not a bucket", k)
		}
		if snap.Bucket([]byte{'m'}) == nil {
			return fmt.Errorf("snapshot %x has no metadata", k)
		}
		return snap.ForEach(func(key, v []byte) error {
			if v != nil || key[0] == 'm' || key[0] == 'i' {
				return nil // a value, the metadata or the internal values
			}
			p := snap.Bucket(key).Get([]byte{'p'})
			if p == nil {
				return fmt.Errorf("segment %x has no path", key)
			}
			segments = append(segments, filepath.Join(path, "store", string(p)))
			return nil
		})
	})
	if err != nil {
		r.add(boltPath, "%v", err)
	}
	return segments, nil
}

// checkSegment checks one zap file's size and footer, and with full its CRC.
func checkSegment(seg string, load, full bool, r *Report) {
	f, err := os.Open(seg)
	if err != nil {
		r.add(seg, "listed by root.bolt but %v", errors.Unwrap(err))
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		r.add(seg, "%v", err)
		return
	}
	size := info.Size()
	r.Bytes += size
	if size < minSegmentSize {
		r.add(seg, "%d bytes: too short to be a segment", size)
		return
	}
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		r.add(seg, "read footer: %v", err)
		return
	}
	version := binary.BigEndian.Uint32(tail[:4])
	want := binary.BigEndian.Uint32(tail[4:])
	if version < minZapVersion || version > maxZapVersion {
		r.add(seg, "footer names segment version %d: the end of the file is damaged", version)
		return
	}
	if !load {
		return
	}
	if err := loadSegment(seg, version); err != nil {
		r.add(seg, "does not load: %v", err)
		return
	}
	if !full {
		return
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, size-4)); err != nil {
		r.add(seg, "read: %v", err)
		return
	}
	if got := h.Sum32(); got != want {
		r.add(seg, "CRC32 %08x does not match the footer's %08x: its content is damaged", got, want)
	}
}

// loadSegment opens the segment at path as Bleve will, and closes it. A
// segment that fails here would make Bleve fall back, silently, to an
// older snapshot (or to none: the "parsing mapping JSON" error), or panic.
// It maps the file and reads its field and doc-value sections: about what
// Bleve's own open costs, so the check adds little to it.
func loadSegment(path string, version uint32) (err error) {
	var p interface {
		Open(path string) (segment.Segment, error)
	}
	switch version {
	case zapv17.Version:
		p = &zapv17.ZapPlugin{}
	case zapv16.Version:
		p = &zapv16.ZapPlugin{}
	default:
		return nil // older versions: their footer was checked
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading it failed inside Bleve: %v", r)
		}
	}()
	seg, err := p.Open(path)
	if err != nil {
		return err
	}
	return seg.Close()
}

// openChecked opens the Bleve index at path after the cheap checks of
// Verify, so a damaged index is an error that names the fix instead of a
// panic deep in Bleve (a garbage-filled segment panics while it loads).
func openChecked(path string, config map[string]any, log *slog.Logger) (idx bleve.Index, err error) {
	var newest []string
	if _, serr := os.Stat(filepath.Join(path, "store", "root.bolt")); serr == nil {
		// No root.bolt: Bleve tells "no index" apart from damage itself.
		// A locked index is for Bleve to report too. The segments are not
		// opened here: Bleve opens them next, and what it did is checked
		// after (opening each twice was a tenth of a search's CPU).
		r, segs, verr := checkPath(context.Background(), path, false, false)
		if verr == nil && !r.OK() {
			return nil, r.Err()
		}
		newest = segs
	}
	// On a failure, the full check names the segment at fault.
	damaged := func(fallback error) error {
		if r, verr := verifyPath(context.Background(), path, false); verr == nil && !r.OK() {
			return r.Err()
		}
		return fallback
	}
	defer func() {
		if p := recover(); p != nil {
			idx, err = nil, damaged(damagedByPanic(log, path, p))
		}
	}()
	idx, err = bleve.OpenUsing(path, config)
	if err != nil && strings.Contains(err.Error(), "parsing mapping JSON") {
		// Bleve found no snapshot it could load (it skips those whose
		// segments fail to open) and so no mapping: that is damage, not a
		// bad mapping. Its message also holds the garbage it read.
		return nil, damaged(&DamagedError{File: path, Reason: "no snapshot of the index could be loaded"})
	}
	if err == nil && newest != nil && !loadedAll(idx, newest) {
		// Bleve skips a snapshot whose segments do not open and loads an
		// older one, silently: the newest is damaged.
		idx.Close()
		return nil, damaged(&DamagedError{File: path, Reason: "the newest snapshot of the index could not be loaded"})
	}
	return idx, err
}

// loadedAll reports whether the snapshot idx opened is the one newest lists
// (true when it cannot tell). Bleve's merger starts with the index and may
// already have merged some of newest's segments, or dropped one whose
// documents were all deleted, before this looks: see sameSnapshot.
func loadedAll(idx bleve.Index, newest []string) bool {
	adv, err := idx.Advanced()
	if err != nil {
		return true
	}
	rd, err := adv.Reader()
	if err != nil {
		return true
	}
	defer rd.Close()
	s, ok := rd.(interface {
		Segments() []*scorch.SegmentSnapshot
	})
	if !ok {
		return true
	}
	var loaded []string
	for _, seg := range s.Segments() {
		ps, ok := seg.Segment().(segment.PersistedSegment)
		if !ok {
			return true // a segment not on disk yet: nothing to compare
		}
		loaded = append(loaded, filepath.Base(ps.Path()))
	}
	return sameSnapshot(newest, loaded, segmentLoads)
}

// sameSnapshot reports whether the segment files loaded (base names) are
// newest's (paths), or what Bleve's merger made of them since. A merger's
// segment is numbered past every one newest lists; a segment of newest it
// merged away or dropped is gone from disk or still loads. Bleve falls
// back to an older snapshot when one of newest's does not load: then a
// segment numbered within newest's is not newest's, or one of newest's is
// missing, on disk, and does not load.
func sameSnapshot(newest, loaded []string, loads func(path string) bool) bool {
	want := map[string]bool{}
	var last uint64
	for _, p := range newest {
		b := filepath.Base(p)
		want[b] = true
		if id, ok := segmentID(b); ok {
			last = max(last, id)
		}
	}
	have := map[string]bool{}
	for _, b := range loaded {
		have[b] = true
		if want[b] {
			continue
		}
		if id, ok := segmentID(b); !ok || id <= last {
			return false
		}
	}
	for _, p := range newest {
		if have[filepath.Base(p)] {
			continue
		}
		if _, err := os.Stat(p); err == nil && !loads(p) {
			return false
		}
	}
	return true
}

// segmentLoads reports whether the segment file at path loads as Bleve
// loads it: checkSegment's size, footer and load checks, without the CRC.
func segmentLoads(path string) bool {
	var r Report
	checkSegment(path, true, false, &r)
	return r.OK()
}

// segmentID is the number a zap file is named by ("00000000000a.zap").
func segmentID(base string) (uint64, bool) {
	hex, ok := strings.CutSuffix(base, ".zap")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseUint(hex, 16, 64)
	return id, err == nil
}

// damagedByPanic turns a panic inside Bleve into the error a user can act
// on; the stack is logged at debug level (--verbose), for a bug report.
func damagedByPanic(log *slog.Logger, path string, p any) error {
	log.Debug("panic inside Bleve", "path", path, "panic", p, "stack", string(debug.Stack()))
	return &DamagedError{File: path, Reason: fmt.Sprintf("reading it failed inside Bleve: %v", p)}
}

// damageMarks are words of the errors zap returns when a segment's bytes
// are not what it wrote (a garbled dictionary, postings list, doc values).
var damageMarks = []string{"vellum", "dictionary for field", "postings", "docvalue", "doc value", "stored field", "corrupt", "chunk"}

// asDamaged returns err as a *DamagedError of the index at path when it is
// zap's complaint about a segment's bytes, else err.
func asDamaged(path string, err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	msg := err.Error()
	for _, m := range damageMarks {
		if strings.Contains(msg, m) {
			return &DamagedError{File: path, Reason: msg}
		}
	}
	return err
}

// recoverDamaged, deferred by a read method, turns a panic inside Bleve into
// a *DamagedError in *err.
func recoverDamaged(err *error, log *slog.Logger, path string) {
	if p := recover(); p != nil {
		*err = damagedByPanic(log, path, p)
	}
}
