package parsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
)

// The helpers below are what a family's own tests keep needing beside Run.

// ReadFile returns the bytes of file, failing the test when it cannot be read.
func ReadFile(t testing.TB, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// ParseFile parses file with p, failing the test on an error.
func ParseFile(t testing.TB, p parsers.Parser, file string) *parsers.Result {
	t.Helper()
	return parse(t, p, file, ReadFile(t, file))
}

// ParseValid parses file with p, failing the test on an error or when the
// result breaks the Invariants every result must keep.
func ParseValid(t testing.TB, p parsers.Parser, file string) *parsers.Result {
	t.Helper()
	res := ParseFile(t, p, file)
	if err := Invariants(res); err != nil {
		t.Fatalf("Parse(%s): %v", file, err)
	}
	return res
}

// ParseOne parses file with p and returns its conversation, failing the test
// on an error or unless there is exactly one.
func ParseOne(t testing.TB, p parsers.Parser, file string) *conversation.Conversation {
	t.Helper()
	res := ParseFile(t, p, file)
	if len(res.Conversations) != 1 {
		t.Fatalf("Parse(%s): %d conversations, want 1", file, len(res.Conversations))
	}
	return res.Conversations[0]
}

// CheckError fails the test unless err is a *parsers.Error for path and line
// whose cause is kind (ErrSyntax, ErrShape, …): what a parser must return
// for input it cannot read, and the shape of its warnings. It reports whether
// err passed.
func CheckError(t testing.TB, err error, path string, line int, kind error) bool {
	t.Helper()
	pe, ok := errors.AsType[*parsers.Error](err)
	if !ok || pe.Path != path || pe.Line != line || !errors.Is(err, kind) {
		t.Errorf("error %v: want a *parsers.Error for %s, line %d, wrapping %v", err, path, line, kind)
		return false
	}
	return true
}

// CheckCancel parses data as path with p under a context already cancelled:
// the parse must stop with an error wrapping context.Canceled.
func CheckCancel(t testing.TB, p parsers.Parser, path string, data []byte) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, path, bytes.NewReader(data)); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse(%s) with a cancelled context: error %v, want context.Canceled", path, err)
	}
}

// DetectTree runs p.Detect over the head of every file under roots and fails
// the test for each file where it differs from mine(path), path being as the
// walk from its root gives it. Folders named fuzz are skipped: fuzz inputs
// are arbitrary bytes. It returns how many files mine claimed.
func DetectTree(t testing.TB, p parsers.Parser, mine func(path string) bool, roots ...string) int {
	t.Helper()
	claimed, files := 0, 0
	var wrong []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "fuzz" {
					return filepath.SkipDir
				}
				return nil
			}
			head, err := parsers.ReadHead(path)
			if err != nil {
				return err
			}
			files++
			want := mine(path)
			if got := p.Detect(path, head); got != want {
				wrong = append(wrong, fmt.Sprintf("Detect(%s) = %v, want %v", path, got, want))
			}
			if want {
				claimed++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files == 0 {
		t.Errorf("DetectTree: no file under %v: nothing was checked", roots)
	}
	// Reported here, not in the walk's function, so the failure points at
	// the caller.
	for _, w := range wrong {
		t.Error(w)
	}
	return claimed
}
