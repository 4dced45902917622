package indexer

import (
	"context"
	"fmt"
	"testing"
)

// rootSegments is how many segments a search of ix reads.
func rootSegments(t *testing.T, ix *Index) uint64 {
	t.Helper()
	st, _ := ix.idx.StatsMap()["index"].(map[string]any)
	n, ok := st["TotFileSegmentsAtRoot"].(uint64)
	if !ok {
		t.Fatalf("no segment count in Bleve's stats: %v", st)
	}
	mem, _ := st["TotMemorySegmentsAtRoot"].(uint64)
	return n + mem
}

// A pass that made the index anew ends with its batches' segments merged;
// what it wrote (documents, file records, the meta record) is all there
// after, in a first build as in a rebuild beside an old index.
func TestFinishBuildMerges(t *testing.T) {
	cases := []struct {
		name    string
		old     bool // an index is there before: Rebuild builds beside it
		rebuild bool
		merges  bool // the index is made anew, so FinishBuild merges
	}{
		{"first build", false, false, true},
		{"rebuild beside the old", true, true, true},
		{"opened, not made", true, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.old {
				ix, err := Open(Options{Dir: dir, Redaction: "default"})
				if err != nil {
					t.Fatal(err)
				}
				for i := range 3 {
					apply(t, ix, fmt.Sprintf("/old%d.json", i), conv(fmt.Sprintf("old%d", i), "hello", "world"))
				}
				if err := ix.Close(); err != nil {
					t.Fatal(err)
				}
			}
			ix, err := Open(Options{Dir: dir, Rebuild: tc.rebuild, Redaction: "default"})
			if err != nil {
				t.Fatal(err)
			}
			const files = 12
			for i := range files { // a batch, and a segment, each
				apply(t, ix, fmt.Sprintf("/f%02d.json", i), conv(fmt.Sprintf("c%02d", i), "connection pool sizing", "bootstrap intervals"))
			}
			if ix.Rebuilt() != tc.merges {
				t.Fatalf("Rebuilt() = %v, want %v", ix.Rebuilt(), tc.merges)
			}
			if err := ix.FinishBuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			// Bleve may merge some on its own meanwhile; after FinishBuild a
			// new index this small is one segment.
			if got := rootSegments(t, ix); tc.merges && got != 1 {
				t.Errorf("%d segments after FinishBuild, want 1", got)
			}
			if err := ix.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}

			ix, err = Open(Options{Dir: dir, Redaction: "default"})
			if err != nil {
				t.Fatalf("reopen after the build: %v", err)
			}
			defer ix.Close()
			want := uint64(files * 2)
			if !tc.rebuild && tc.old {
				want += 3 * 2
			}
			if got := messages(t, ix); got != want {
				t.Errorf("%d messages, want %d", got, want)
			}
			if got := search(t, ix, FieldContent, "pool"); got != files {
				t.Errorf("%d hits for pool, want %d", got, files)
			}
			if _, ok := ix.File("/f07.json"); !ok {
				t.Error("the file record of /f07.json is gone")
			}
			if ix.Rebuilt() {
				t.Error("the merged index was made again on open: its meta record (format, redaction) did not survive")
			}
			// The merge was persisted, not only made: the index opened
			// again reads the merged segment.
			if got := rootSegments(t, ix); tc.merges && got != 1 {
				t.Errorf("%d segments when opened again, want 1", got)
			}
		})
	}
}
