package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A file linked into a root is indexed, under the link's path, by both the
// watcher's Sync and the full walk, so neither undoes the other. A linked
// folder is followed by neither: a link inside a tree may point back up it.
func TestSymlinkedFileAgreesAcrossPasses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		target func(e *env, outside string) string // what the link points to
		want   bool                                // indexed under the link
	}{
		{"file", func(e *env, outside string) string { return filepath.Join(outside, "conv.json") }, true},
		{"folder", func(e *env, outside string) string { return outside }, false},
		{"loop", func(e *env, outside string) string { return e.root }, false},
		{"dangling", func(e *env, outside string) string { return filepath.Join(outside, "gone") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "conv.json"), []byte("TESTCONV OUT\nx\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			e.write("in.conv", "TESTCONV IN\ny\n")
			e.reconcile()
			if err := os.MkdirAll(filepath.Join(e.root, "weird"), 0o755); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(e.root, "weird", "outside.json")
			if err := os.Symlink(tt.target(e, outside), link); err != nil {
				t.Fatal(err)
			}
			indexed := func() bool {
				_, ok := e.messages()["OUT"]
				return ok
			}
			if _, err := e.in.Sync(ctx, []string{link}); err != nil {
				t.Fatal(err)
			}
			if got := indexed(); got != tt.want {
				t.Errorf("after Sync: indexed %v, want %v", got, tt.want)
			}
			s := e.reconcile()
			if got := indexed(); got != tt.want {
				t.Errorf("after full pass: indexed %v, want %v", got, tt.want)
			}
			if s.Removed != 0 {
				t.Errorf("full pass after Sync removed %d files, want 0", s.Removed)
			}
			if tt.want {
				if _, ok := e.ix.File(link); !ok {
					t.Errorf("no record under the link's path %s", link)
				}
			}
			// A second full pass finds nothing to do.
			if s := e.reconcile(); s.Parsed != 0 || s.Removed != 0 {
				t.Errorf("second full pass: parsed %d, removed %d", s.Parsed, s.Removed)
			}
		})
	}
}
