package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"
)

// stamps are the manifest's values that change from run to run and clone
// to clone (when it was written, a checkout's mtimes).
var stamps = regexp.MustCompile(`"(generated|mtime|indexed)": "[^"]*"`)

// TestIndexJSONExample: index.json.example is what indexing examples/
// writes, with its paths relative to the repository and its times fixed.
// `go test ./cmd/convsearch -run TestIndexJSONExample -update` writes it
// again after a change to the manifest, a parser or the extractor.
func TestIndexJSONExample(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	if r := cs(t, home, "index", "--no-default-roots", "--data-dir", data, "--root", examples); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(data, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(examples)
	if err != nil {
		t.Fatal(err)
	}
	rel := regexp.MustCompile(`"` + regexp.QuoteMeta(abs+string(filepath.Separator)))
	b = rel.ReplaceAll(b, []byte(`"examples/`))
	b = stamps.ReplaceAll(b, []byte(`"$1": "2026-01-01T00:00:00Z"`))
	golden.Check(t, filepath.Join("..", "..", "index.json.example"), b)
}
