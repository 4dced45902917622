package parsers_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
)

// stopEarly reads only its first line, as a parser of a format with a
// header may do, to check that ParseFileFrom still hashes the whole file.
type stopEarly struct{}

func (stopEarly) Info() parsers.Info { return parsers.Info{Name: "early", Version: 1} }
func (stopEarly) Detect(path string, head []byte) bool {
	return bytes.HasPrefix(head, []byte("EARLY"))
}
func (stopEarly) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	buf := make([]byte, 5)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, parsers.Errorf(path, 1, parsers.ErrSyntax, "short")
	}
	c := &conversation.Conversation{ID: "x", Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "hi"}}}
	return &parsers.Result{Conversations: []*conversation.Conversation{c}}, nil
}

func TestParseFileFrom(t *testing.T) {
	dir := t.TempDir()
	data := append([]byte("EARLY"), bytes.Repeat([]byte("x"), 200000)...)
	path := filepath.Join(dir, "a.txt")
	os.WriteFile(path, data, 0o644)
	reg := parsers.NewRegistry(stopEarly{})
	h := sha256.New()
	p, res, err := reg.ParseFileFrom(context.Background(), path, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	if p.Info().Name != "early" || len(res.Conversations) != 1 {
		t.Fatalf("parser %s, %d conversations", p.Info().Name, len(res.Conversations))
	}
	if c := res.Conversations[0]; c.Source != "early" || c.File != path {
		t.Errorf("Source %q File %q: the registry must fill them", c.Source, c.File)
	}
	if want := sha256.Sum256(data); !bytes.Equal(h.Sum(nil), want[:]) {
		t.Error("the hash does not cover the whole file")
	}

	other := filepath.Join(dir, "b.txt")
	os.WriteFile(other, []byte("something else"), 0o644)
	_, _, err = reg.ParseFile(context.Background(), other, nil)
	if !errors.Is(err, parsers.ErrFormat) || !bytes.Contains([]byte(err.Error()), []byte("b.txt")) {
		t.Errorf("unknown format: %v, want ErrFormat naming the file", err)
	}
	_, _, err = reg.ParseFile(context.Background(), filepath.Join(dir, "missing"), nil)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	_, _, err = reg.ParseFile(context.Background(), dir, nil)
	if err == nil {
		t.Error("a folder parsed as a file")
	}
}

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a/one.txt", "a/b/two.txt", "skip.txt", ".git/three.txt", "node_modules/four.txt"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		content := "EARLY"
		if name == "skip.txt" {
			content = "nope"
		}
		os.WriteFile(p, []byte(content), 0o644)
	}
	var found []string
	err := parsers.NewRegistry(stopEarly{}).Walk(context.Background(), dir, func(path string, p parsers.Parser, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		found = append(found, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/b/two.txt", "a/one.txt"}; len(found) != 2 || found[0] != want[0] || found[1] != want[1] {
		t.Errorf("Walk found %v, want %v", found, want)
	}
}

func TestErrorFormat(t *testing.T) {
	err := parsers.Errorf("f.jsonl", 7, parsers.ErrSyntax, "bad %s", "line")
	if err.Error() != "f.jsonl:7: syntax error: bad line" || !errors.Is(err, parsers.ErrSyntax) {
		t.Errorf("got %q", err)
	}
	if parsers.Wrap("f", 0, nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
	if w := parsers.Wrap("f.jsonl", 0, err); w != err {
		t.Error("Wrap re-wrapped an error that already names the file")
	}
}

func TestAddUnique(t *testing.T) {
	var res parsers.Result
	for range 3 {
		res.AddUnique(&conversation.Conversation{ID: "a"}, "export.json", 7)
	}
	res.AddUnique(&conversation.Conversation{ID: "b"}, "export.json", 9)
	var ids []string
	for _, c := range res.Conversations {
		ids = append(ids, c.ID)
	}
	if got := fmt.Sprint(ids); got != "[a a~2 a~3 b]" {
		t.Errorf("ids %s, want [a a~2 a~3 b]", got)
	}
	if len(res.Warnings) != 2 || !bytes.Contains([]byte(res.Warnings[0].Error()), []byte("export.json:7:")) {
		t.Errorf("warnings %v: want two naming export.json:7", res.Warnings)
	}
}

// A crash can leave whole blocks of NULs before a file's first record, more
// than the head Detect is shown: the registry looks past them, up to
// MaxLeadingNULs.
func TestDetectPastLeadingNULs(t *testing.T) {
	dir := t.TempDir()
	reg := parsers.NewRegistry(stopEarly{})
	for _, tt := range []struct {
		name string
		data []byte
		want bool
	}{
		{"no damage", []byte("EARLY rest"), true},
		{"a block of NULs", append(make([]byte, 4096), "EARLY rest"...), true},
		{"NULs past three heads", append(make([]byte, 3*parsers.HeadSize+17), "EARLY rest"...), true},
		{"NULs then the record cut by the head", append(make([]byte, parsers.HeadSize-2), "EARLY rest"...), true},
		{"only NULs", make([]byte, 10000), false},
		{"NULs past the limit", append(make([]byte, parsers.MaxLeadingNULs+parsers.HeadSize), "EARLY rest"...), false},
		{"empty", nil, false},
	} {
		path := filepath.Join(dir, fmt.Sprintf("%d.txt", len(tt.data)))
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := reg.DetectFile(path)
		if got := err == nil && p != nil; got != tt.want {
			t.Errorf("%s: DetectFile = %v, %v; want detected %v", tt.name, p, err, tt.want)
		}
		if tt.want {
			head, err := parsers.ReadHead(path)
			if err != nil || !bytes.HasPrefix(head, []byte("EARLY rest")) {
				t.Errorf("%s: ReadHead = %q, %v; want it to start at the record", tt.name, head[:min(len(head), 20)], err)
			}
		}
		_, _, err = reg.ParseFile(context.Background(), path, nil)
		if tt.want && err != nil {
			t.Errorf("%s: ParseFile: %v", tt.name, err)
		}
		if !tt.want && !errors.Is(err, parsers.ErrFormat) {
			t.Errorf("%s: ParseFile: %v, want ErrFormat", tt.name, err)
		}
	}
}

// TestReadErrorNamesThePathOnce: an error met reading a file names it once,
// though reading an *os.File gives an error that names it already ("read
// X: read X: is a directory" before).
func TestReadErrorNamesThePathOnce(t *testing.T) {
	other := &os.PathError{Op: "read", Path: "/elsewhere", Err: errors.New("boom")}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"names the path", &os.PathError{Op: "read", Path: "/f", Err: errors.New("is a directory")}, "read /f: is a directory"},
		{"names another path", other, "read /f: read /elsewhere: boom"},
		{"names none", io.ErrUnexpectedEOF, "read /f: unexpected EOF"},
	} {
		err := parsers.ReadError("/f", tc.err)
		if err.Error() != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s: ReadError = %q, want %q wrapping the error", tc.name, err, tc.want)
		}
	}
	// A file that opens but cannot be read: the registry's own wrapping.
	const mem = "/proc/self/mem" // reading it at 0 is an I/O error
	if _, err := os.Stat(mem); err != nil {
		t.Skipf("no %s here", mem)
	}
	_, _, err := parsers.NewRegistry(stopEarly{}).ParseFile(context.Background(), mem, nil)
	if err == nil || bytes.Count([]byte(err.Error()), []byte(mem)) != 1 {
		t.Errorf("ParseFile(%s) = %v, want an error naming it once", mem, err)
	}
}
