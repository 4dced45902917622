package redact

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestSourceFalsePositives measures the redactor on source trees, which are
// full of the words it keys on (token, key, password) and of test fixtures:
// REDACT_SCAN_DIRS=dir1:dir2 go test -run TestSourceFalsePositives -v
// logs every redaction in their .go, .md, .json, .yaml, .toml and .txt
// files, with context, and a count per rule. It asserts nothing: what it
// finds is read by hand.
func TestSourceFalsePositives(t *testing.T) {
	dirs := os.Getenv("REDACT_SCAN_DIRS")
	if dirs == "" {
		t.Skip("set REDACT_SCAN_DIRS to scan source trees")
	}
	r := New()
	counts := map[string]int{}
	files, size := 0, 0
	for _, root := range filepath.SplitList(dirs) {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable entries are not the point here
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			switch filepath.Ext(path) {
			case ".go", ".md", ".json", ".yaml", ".yml", ".toml", ".txt":
			default:
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil || len(b) > 4<<20 {
				return nil
			}
			files++
			size += len(b)
			s := string(b)
			for _, sp := range r.find(s) {
				counts[sp.id]++
				t.Logf("%-24s %s: %s", sp.id, path, context12(s, sp))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for id, n := range counts {
		lines = append(lines, fmt.Sprintf("%6d %s", n, id))
	}
	sort.Strings(lines)
	t.Logf("%d files, %d bytes; redactions per rule:\n%s", files, size, strings.Join(lines, "\n"))
}
