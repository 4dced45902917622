package loose

import (
	"bufio"
	"bytes"
	"context"
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
		t.Fatal("no .jsonl files found")
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
	if pairs == 0 {
		t.Errorf("%d files, none with two records in a row: nothing torn", len(files))
	}
}

// TestSplitRecordsWorkBounded: splitting a long line reads it a bounded
// number of times, counted in bytes scanned, not one pass per piece or per
// place a record could start. A line of many torn pieces each holding a
// complete object is split until the budget is spent, the rest one piece.
func TestSplitRecordsWorkBounded(t *testing.T) {
	defer func() { scanHook = nil }()
	for _, tc := range []struct{ name, line string }{
		{"torn pieces holding an object", strings.Repeat(`{ "b":[{"c":1}`, (1<<20)/14)},
		{"torn pieces, then a record", strings.Repeat(`{ "b":[{"c":1}`, (1<<20)/14) + `{"n":1}`},
		{"glued records", strings.Repeat(`{"n":1}`, (1<<20)/7)},
		{"keys everywhere", strings.Repeat(`{"{"`, 1<<18)},
		{"never closed", strings.Repeat(`{"a":[`, 1<<18)},
		{"valid to the end from every key", strings.Repeat(`{"a":[`, 300) + strings.Repeat("1,", 1<<19)},
		{"strings", `{"s":"` + strings.Repeat(`{"a":"`, 1<<18)},
		{"deep", `{"a":` + strings.Repeat(`[{"b":`, 1<<18) + "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := 0
			scanHook = func(n int) { work += n }
			var pieces []string
			err := EachLine(context.Background(), "f.jsonl", strings.NewReader(tc.line+"\n"), func(_ int, b []byte) {
				pieces = append(pieces, string(b))
			})
			scanHook = nil
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(strings.Join(pieces, ""), "\n"); got != tc.line {
				t.Errorf("pieces joined are not the line")
			}
			t.Logf("%d bytes: %d pieces, %d bytes scanned (%.1f passes)", len(tc.line), len(pieces), work, float64(work)/float64(len(tc.line)))
			if work > 16*len(tc.line) {
				t.Errorf("%d bytes scanned for a line of %d: more than 16 passes", work, len(tc.line))
			}
		})
	}
}
