package loose

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

func TestReadSideFile(t *testing.T) {
	d := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(d, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	type side struct {
		Title string `json:"title"`
	}
	tests := []struct {
		name, path string
		max        int64
		found      bool
		kind       error // nil: no error
		line       int
		title      string
	}{
		{"read", write("ok.json", `{"title": "Queue haiku"}`), 0, true, nil, 0, "Queue haiku"},
		{"missing", filepath.Join(d, "gone.json"), 0, false, nil, 0, ""},
		{"not json", write("bad.json", "{\n\"title\": x}"), 0, true, parsers.ErrSyntax, 2, ""},
		{"wrong shape", write("shape.json", `{"title": 3}`), 0, true, parsers.ErrShape, 1, ""},
		{"empty", write("empty.json", " \n"), 0, true, parsers.ErrSyntax, 0, ""},
		{"over max", write("big.json", `{"title": "`+strings.Repeat("x", 64)+`"}`), 32, true, parsers.ErrTooLarge, 0, ""},
		{"max exactly", write("fits.json", `{"title": "ab"}`), 15, true, nil, 0, "ab"},
	}
	for _, tt := range tests {
		var v side
		found, err := ReadSideFile(tt.path, tt.max, &v)
		if found != tt.found || v.Title != tt.title {
			t.Errorf("%s: found %v, title %q; want %v, %q", tt.name, found, v.Title, tt.found, tt.title)
		}
		if tt.kind == nil {
			if err != nil {
				t.Errorf("%s: error %v", tt.name, err)
			}
			continue
		}
		var pe *parsers.Error
		if !errors.Is(err, tt.kind) || !errors.As(err, &pe) || pe.Path != tt.path || pe.Line != tt.line {
			t.Errorf("%s: error %v; want %v naming %s line %d", tt.name, err, tt.kind, tt.path, tt.line)
		}
	}
	if found, err := ReadSideFile(d, 0, new(side)); !found || err == nil || !strings.Contains(err.Error(), d) {
		t.Errorf("a folder: found %v, error %v; want found and an error naming it", found, err)
	}
}
