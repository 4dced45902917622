package loose

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplitRecordsTornRealLines: for consecutive records L1 and L2 of every
// .jsonl file in the corpus and the parsers' testdata, L1 torn at (a sample
// of) every offset with L2 appended on its line gives back L2 exactly as
// the last part, and no earlier part is a record (none is invented). A
// valid line is never split.
func TestSplitRecordsTornRealLines(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata/corpus", ".."} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no .jsonl files found")
	}
	const (
		maxPairs   = 12  // per file
		maxOffsets = 100 // per pair
	)
	pairs, bad := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var lines [][]byte
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			l := bytes.TrimSpace(sc.Bytes())
			if len(l) == 0 || l[0] != '{' || !json.Valid(l) {
				continue
			}
			l = bytes.Clone(l)
			lines = append(lines, l)
			if parts := splitRecords(l); parts != nil {
				t.Errorf("%s: a valid line split into %d parts", f, len(parts))
			}
		}
		for i := 0; i+1 < len(lines) && i < maxPairs; i++ {
			l1, l2 := lines[i], lines[i+1]
			step := max(1, len(l1)/maxOffsets)
			for c := 1; c < len(l1); c += step {
				line := append(l1[:c:c], l2...)
				pairs++
				parts := splitRecords(line)
				var why string
				switch {
				case parts == nil:
					why = "the appended record lost"
				case !bytes.Equal(parts[len(parts)-1], l2):
					why = "last part is not the appended record"
				default:
					for _, p := range parts[:len(parts)-1] {
						if json.Valid(bytes.TrimLeft(p, "\x00")) {
							why = "a record invented: " + string(p)
						}
					}
				}
				if why != "" {
					if bad++; bad <= 10 {
						t.Errorf("%s: line %d torn at %d/%d, line %d appended: %.200s", filepath.Base(f), i+1, c, len(l1), i+2, why)
					}
				}
			}
		}
	}
	t.Logf("%d files, %d torn lines, %d bad", len(files), pairs, bad)
}
