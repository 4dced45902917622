package indexer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/convsearch/convsearch/conversation"
)

// smallIndex writes an index of a few conversations in a new data folder,
// in three batches, closes it, and returns the folder and its segment
// files.
func smallIndex(t *testing.T) (string, []string) {
	t.Helper()
	return batchedIndex(t, 3)
}

// batchedIndex is smallIndex in n batches: one makes a single segment,
// which Bleve's merger leaves alone when the index opens again.
func batchedIndex(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	ix := open(t, dir)
	for i := range n {
		var cs []*conversation.Conversation
		for j := range 5 {
			cs = append(cs, conv(fmt.Sprintf("c%d-%d", i, j), "how should we compute intervals", "we'll use BCa because the data is skewed", "and retries with backoff"))
		}
		if err := ix.Apply(context.Background(), []Change{{State: FileState{Path: fmt.Sprintf("/f%d.json", i), Parser: "test"}, Conversations: cs}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, liveSegments(t, dir)
}

// liveSegments returns the segment files the index's newest snapshot lists
// (others in the folder are leftovers Bleve removes).
func liveSegments(t *testing.T, dir string) []string {
	t.Helper()
	r := &Report{}
	segs, err := listSegments(IndexPath(dir), r)
	if err != nil || !r.OK() || len(segs) == 0 {
		t.Fatalf("list segments: %v %v (%d found)", err, r.Problems, len(segs))
	}
	return segs
}

// garble overwrites the bytes of file from start to end (negative: from the
// end of the file) with garbage.
func garble(t *testing.T, file string, start, end int64) {
	t.Helper()
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if start < 0 {
		start += info.Size()
	}
	if end <= 0 {
		end += info.Size()
	}
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(end-start)), start); err != nil {
		t.Fatal(err)
	}
}

type finds int

const (
	no finds = iota
	yes
	maybe
)

func TestVerify(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string, segs []string) string // returns the file to blame
		// quick and full: whether each level finds the damage. Quick
		// loads each segment as Bleve does, which finds garbage in the
		// middle of one only where the load reads: it may or may not.
		quick, full finds
	}{
		{"healthy", func(*testing.T, string, []string) string { return "" }, no, no},
		{"garbage in the middle of a segment", func(t *testing.T, _ string, segs []string) string {
			info, _ := os.Stat(segs[0])
			garble(t, segs[0], info.Size()/4, 3*info.Size()/4)
			return segs[0]
		}, maybe, yes},
		{"garbage over a segment's footer", func(t *testing.T, _ string, segs []string) string {
			garble(t, segs[0], -8, 0)
			return segs[0]
		}, yes, yes},
		{"a segment cut short", func(t *testing.T, _ string, segs []string) string {
			os.Truncate(segs[0], 10)
			return segs[0]
		}, yes, yes},
		{"a segment removed", func(t *testing.T, _ string, segs []string) string {
			os.Remove(segs[0])
			return segs[0]
		}, yes, yes},
		{"index_meta.json garbled", func(t *testing.T, dir string, _ []string) string {
			meta := filepath.Join(IndexPath(dir), "index_meta.json")
			os.WriteFile(meta, []byte("{not json"), 0o600)
			return meta
		}, yes, yes},
		{"root.bolt garbled", func(t *testing.T, dir string, _ []string) string {
			bolt := filepath.Join(IndexPath(dir), "store", "root.bolt")
			garble(t, bolt, 0, 0)
			return bolt
		}, yes, yes},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, segs := smallIndex(t)
			blame := tc.damage(t, dir, segs)
			for _, level := range []struct {
				full  bool
				finds finds
			}{{false, tc.quick}, {true, tc.full}} {
				r, err := Verify(context.Background(), dir, level.full)
				if err != nil {
					t.Fatalf("full=%v: %v", level.full, err)
				}
				if level.finds != maybe && r.OK() == (level.finds == yes) {
					t.Fatalf("full=%v: found damage %v, want %v (problems %v)", level.full, !r.OK(), level.finds == yes, r.Problems)
				}
				if r.OK() {
					if r.Err() != nil {
						t.Errorf("full=%v: Err() = %v for a sound index", level.full, r.Err())
					}
					continue
				}
				err = r.Err()
				if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), blame) || !strings.Contains(err.Error(), "convsearch index --rebuild") {
					t.Errorf("full=%v: error %q: want ErrDamaged naming %s and the rebuild", level.full, err, blame)
				}
			}
		})
	}
}

func TestVerifyLockedIndex(t *testing.T) {
	dir, _ := smallIndex(t)
	ix := open(t, dir)
	defer ix.Close()
	if _, err := Verify(context.Background(), dir, true); !errors.Is(err, ErrLocked) {
		t.Errorf("Verify of an index a writer holds: %v, want ErrLocked", err)
	}
}

// A segment damaged where Bleve reads it on open: Open says to rebuild,
// and never panics; nor does it blame "parsing mapping JSON".
func TestOpenDamagedSegment(t *testing.T) {
	dir, _ := smallIndex(t)
	// Every segment file: Bleve falls back to an older snapshot when the
	// newest does not load (consistent, with its own file records), so
	// only damage to all of them leaves nothing to open.
	for _, s := range segmentFiles(t, dir) {
		info, _ := os.Stat(s)
		garble(t, s, info.Size()/4, 3*info.Size()/4)
	}
	ix, err := Open(Options{Dir: dir})
	if err == nil {
		ix.Close()
		t.Fatal("a damaged index opened")
	}
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "convsearch index --rebuild") || strings.Contains(err.Error(), "mapping JSON") {
		t.Errorf("%v: want ErrDamaged and the rebuild", err)
	}
}

// Only the newest snapshot's segments damaged, their footers whole: Bleve
// would open an older snapshot in silence, or none. Open says the index is
// damaged, names a segment, and says to rebuild.
func TestOpenDamagedNewestSnapshot(t *testing.T) {
	dir, live := smallIndex(t)
	for _, s := range live {
		info, _ := os.Stat(s)
		garble(t, s, info.Size()/4, 3*info.Size()/4)
	}
	ix, err := Open(Options{Dir: dir, ReadOnly: true})
	if err == nil {
		ix.Close()
		t.Fatal("an index whose newest snapshot is damaged opened")
	}
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), filepath.Base(live[0])) && !strings.Contains(err.Error(), ".zap") ||
		!strings.Contains(err.Error(), "convsearch index --rebuild") {
		t.Errorf("%v: want ErrDamaged naming a segment and the rebuild", err)
	}
}

// Damage under an open index (its segments are mapped into memory): a
// search that reads it fails with ErrDamaged instead of a panic.
func TestSearchDamagedSegment(t *testing.T) {
	// One segment: with several, the merger that starts at Open can be
	// reading them as they are garbled, and loop for ever in Bleve's FST
	// decoder (see closeTimeout).
	dir, _ := batchedIndex(t, 1)
	ix := open(t, dir)
	defer ix.Close()
	segs := segmentFiles(t, dir)
	// Everything but the last bytes, where the footer points to what the
	// open already read: the dictionaries and postings a search reads next.
	for _, s := range segs {
		if info, err := os.Stat(s); err == nil && info.Size() > 400 {
			garble(t, s, 0, -200)
		}
	}
	q := bleve.NewMatchQuery("intervals")
	req := bleve.NewSearchRequest(q)
	req.Fields = []string{"*"}
	req.Highlight = bleve.NewHighlight()
	_, err := ix.Search(context.Background(), req)
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "convsearch index --rebuild") {
		t.Errorf("search of a damaged index: %v, want ErrDamaged and the rebuild", err)
	}
}

// segmentFiles returns every segment file in the index folder: with the
// index open, root.bolt cannot be read beside it.
func segmentFiles(t *testing.T, dir string) []string {
	t.Helper()
	segs, _ := filepath.Glob(filepath.Join(IndexPath(dir), "store", "*.zap"))
	if len(segs) == 0 {
		t.Fatal("the index has no segment files")
	}
	return segs
}

// The merger may merge segments of the snapshot just loaded, or drop one
// whose documents were all deleted, before the check reads it back: that is
// the newest snapshot still, not damage, where a segment of an older
// snapshot, or one of the newest's that does not load, is.
func TestSameSnapshot(t *testing.T) {
	dir := t.TempDir()
	seg := func(id int) string { return filepath.Join(dir, fmt.Sprintf("%012x.zap", id)) }
	newest := []string{seg(2), seg(3), seg(4)}
	for _, p := range newest {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base := func(ids ...int) []string {
		var out []string
		for _, id := range ids {
			out = append(out, filepath.Base(seg(id)))
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		loaded []string
		gone   []int // newest's files removed since (merged away and cleaned up)
		broken int   // newest's file that does not load
		want   bool
	}{
		{name: "the same", loaded: base(4, 2, 3), want: true},
		{name: "all merged since, files still there", loaded: base(5), want: true},
		{name: "all merged since, files cleaned up", loaded: base(5), gone: []int{2, 3, 4}, want: true},
		{name: "some merged since", loaded: base(4, 6), want: true},
		{name: "an emptied segment dropped", loaded: base(2, 3), want: true},
		{name: "an older snapshot's segment", loaded: base(1, 2), want: false},
		{name: "an older snapshot, without the newest's broken segment", loaded: base(2, 3), broken: 4, want: false},
		{name: "not a zap name", loaded: []string{"segment.bin"}, want: false},
	} {
		for _, id := range tt.gone {
			os.Remove(seg(id))
		}
		loads := func(p string) bool { return p != seg(tt.broken) }
		if got := sameSnapshot(newest, tt.loaded, loads); got != tt.want {
			t.Errorf("%s: sameSnapshot = %v, want %v", tt.name, got, tt.want)
		}
		for _, p := range newest {
			os.WriteFile(p, []byte("x"), 0o600)
		}
	}
	if !sameSnapshot(nil, nil, nil) {
		t.Error("an index never written to: nothing to compare")
	}
}
