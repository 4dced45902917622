package parsertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
)

// recorder is a testing.TB that keeps the failures it is told of.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Error(args ...any) {
	r.failures = append(r.failures, fmt.Sprint(args...))
}
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// fake claims .json files and reads any input as one conversation, stopping
// on a cancelled context unless it is told to ignore it.
type fake struct{ ignoreCtx bool }

func (fake) Info() parsers.Info                   { return parsers.Info{Name: "fake", Version: 1} }
func (fake) Detect(path string, head []byte) bool { return filepath.Ext(path) == ".json" }
func (f fake) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if err := ctx.Err(); err != nil && !f.ignoreCtx {
		return nil, parsers.Wrap(path, 0, err)
	}
	return &parsers.Result{Conversations: []*conversation.Conversation{{ID: "x"}}}, nil
}

func TestCheckError(t *testing.T) {
	good := parsers.Errorf("a.json", 3, parsers.ErrSyntax, "bad")
	tests := []struct {
		name string
		err  error
		ok   bool
	}{
		{"as wanted", good, true},
		{"wrapped", fmt.Errorf("context: %w", good), true},
		{"nil", nil, false},
		{"plain error", errors.New("a.json:3: syntax error"), false},
		{"other line", parsers.Errorf("a.json", 4, parsers.ErrSyntax, "bad"), false},
		{"other file", parsers.Errorf("b.json", 3, parsers.ErrSyntax, "bad"), false},
		{"other kind", parsers.Errorf("a.json", 3, parsers.ErrShape, "bad"), false},
	}
	for _, tt := range tests {
		r := &recorder{}
		if got := CheckError(r, tt.err, "a.json", 3, parsers.ErrSyntax); got != tt.ok || (len(r.failures) == 0) != tt.ok {
			t.Errorf("%s: CheckError = %v with failures %q, want %v", tt.name, got, r.failures, tt.ok)
		}
	}
}

func TestCheckCancel(t *testing.T) {
	r := &recorder{}
	CheckCancel(r, fake{}, "a.json", []byte("{}"))
	if len(r.failures) != 0 {
		t.Errorf("a parser that stops: failures %q", r.failures)
	}
	CheckCancel(r, fake{ignoreCtx: true}, "a.json", []byte("{}"))
	if len(r.failures) != 1 {
		t.Errorf("a parser that goes on: failures %q, want one", r.failures)
	}
}

func TestDetectTree(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.json", "sub/b.json", "c.txt", "fuzz/d.json"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &recorder{}
	n := DetectTree(r, fake{}, func(path string) bool { return filepath.Ext(path) == ".json" }, dir)
	if n != 2 || len(r.failures) != 0 {
		t.Errorf("claimed %d, failures %q; want 2 and none (fuzz/ skipped)", n, r.failures)
	}
	n = DetectTree(r, fake{}, func(path string) bool { return filepath.Base(path) == "a.json" }, dir)
	if n != 1 || len(r.failures) != 1 {
		t.Errorf("claimed %d, failures %q; want 1 and one for sub/b.json", n, r.failures)
	}
}

func TestParseOne(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := ParseOne(t, fake{}, file); c.ID != "x" {
		t.Errorf("ParseOne = %+v", c)
	}
	if res := ParseFile(t, fake{}, file); len(res.Conversations) != 1 {
		t.Errorf("ParseFile = %+v", res)
	}
	if res := ParseValid(t, fake{}, file); len(res.Conversations) != 1 {
		t.Errorf("ParseValid = %+v", res)
	}
}

// twins gives two conversations the same id, which Invariants forbids.
type twins struct{ fake }

func (twins) Parse(context.Context, string, io.Reader) (*parsers.Result, error) {
	return &parsers.Result{Conversations: []*conversation.Conversation{{ID: "x"}, {ID: "x"}}}, nil
}

// fatalRecorder is a recorder whose Fatalf records and ends the goroutine,
// as testing's does.
type fatalRecorder struct{ recorder }

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func TestParseValid(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &fatalRecorder{recorder{TB: t}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ParseValid(r, twins{}, file)
	}()
	<-done
	if len(r.failures) != 1 {
		t.Errorf("failures %q, want one for the repeated id", r.failures)
	}
}
