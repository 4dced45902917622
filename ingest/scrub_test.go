package ingest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/redact"
)

// quotingParser quotes its file's second line in a warning, or in its
// error when the first line says FAIL, as parsers quote an odd value.
type quotingParser struct{}

func (quotingParser) Info() parsers.Info {
	return parsers.Info{Name: "quoting", Version: 1, Description: "test", Detection: "QUOTE header"}
}

func (quotingParser) Detect(path string, head []byte) bool {
	return bytes.HasPrefix(head, []byte("QUOTE"))
}

func (quotingParser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	b, _ := io.ReadAll(r)
	head, value, _ := strings.Cut(string(b), "\n")
	if head == "QUOTE FAIL" {
		return nil, parsers.Errorf(path, 2, parsers.ErrShape, "unknown role %q", value)
	}
	res := &parsers.Result{Conversations: []*conversation.Conversation{{ID: filepath.Base(path), Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "hello"}}}}}
	res.Warn(parsers.Errorf(path, 2, parsers.ErrShape, "unknown role %q: read as a user message", value))
	return res, nil
}

// TestErrorsAndWarningsAreRedacted: what a parser's error or warning quotes
// of the file has its secrets taken out before it is kept (index.json, the
// index) or returned, and still reads as the error it was.
func TestErrorsAndWarningsAreRedacted(t *testing.T) {
	const token = "ghp_R0LE1234567890abcdefghijABCDEFGHIJ12"
	root := t.TempDir()
	for name, content := range map[string]string{"warn.q": "QUOTE\n" + token, "fail.q": "QUOTE FAIL\n" + token} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	in := New(parsers.NewRegistry(quotingParser{}), ix, nil, Options{Redactor: redact.New()})
	s, err := in.Reconcile(context.Background(), []string{root})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, e := range append(s.Errors, s.Warnings...) {
		said = append(said, e.Err)
	}
	for _, f := range ix.Files() {
		said = append(append(said, f.Error), f.Warnings...)
	}
	if len(said) < 4 {
		t.Fatalf("want the error and the warning in the summary and the records, got %q", said)
	}
	for _, m := range said {
		if strings.Contains(m, "R0LE12345") {
			t.Errorf("the token is kept: %q", m)
		} else if m != "" && !strings.Contains(m, "[redacted: ") {
			t.Errorf("no marker in %q", m)
		}
	}
}
