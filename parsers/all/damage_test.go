package all

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// eachReadFile calls fn with every file of the real corpus, the examples
// and the families' test data that starts like JSON (an object or an
// array) and that the registry reads to at least one message, with the
// family that reads it. Goldens and fuzz inputs are left out.
func eachReadFile(t *testing.T, fn func(t *testing.T, p parsers.Parser, path string, data []byte)) {
	t.Helper()
	reg := Registry()
	roots := []string{"../../testdata/corpus", "../../examples"}
	more, err := filepath.Glob("../*/testdata")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, root := range append(roots, more...) {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "golden" || d.Name() == "fuzz" {
					return filepath.SkipDir
				}
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' && t[0] != '[' {
				return nil
			}
			p, err := reg.Detect(path, data[:min(len(data), parsers.HeadSize)])
			if err != nil {
				return nil
			}
			res, err := p.Parse(t.Context(), path, bytes.NewReader(data))
			if err != nil || len(res.Conversations) == 0 || len(res.Conversations[0].Messages) == 0 {
				return nil
			}
			n++
			t.Run(filepath.ToSlash(path), func(t *testing.T) { fn(t, p, path, data) })
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 30 {
		t.Errorf("only %d files looked at", n)
	}
}

// TestByteOrderMark: every JSON file any family reads, whole documents and
// JSON Lines alike, is claimed and read the same with a byte-order mark
// before it.
func TestByteOrderMark(t *testing.T) {
	eachReadFile(t, parsertest.CheckBOM)
}

// TestGluedLines: in every JSON Lines file any family reads, a record torn
// by a crash with the next record appended on its line loses only the torn
// record, and two records glued on one line lose neither.
func TestGluedLines(t *testing.T) {
	files := 0
	eachReadFile(t, func(t *testing.T, p parsers.Parser, path string, data []byte) {
		if !parsers.HasExt(path, ".jsonl") {
			return
		}
		files++
		rows := bytes.Count(data, []byte("\n"))
		parsertest.CheckGluedLines(t, p, path, data, []int{1, 2, 3, rows / 3, rows / 2, rows - 1})
	})
	if files == 0 {
		t.Error("no JSON Lines file looked at")
	}
}
