package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
)

// corpusRoots are the repository's real-shaped conversation files: every
// format's examples and the test corpus, read through the parsers.
var corpusRoots = []string{"../examples", "../testdata/corpus"}

// loadCorpus parses the conversation files under roots, in walk (lexical)
// order, at most maxFiles of them when maxFiles > 0.
func loadCorpus(tb testing.TB, maxFiles int, roots ...string) []*conversation.Conversation {
	tb.Helper()
	reg := all.Registry()
	ctx := context.Background()
	var out []*conversation.Conversation
	files := 0
	for _, root := range roots {
		var paths []string
		err := reg.Walk(ctx, root, func(path string, p parsers.Parser, err error) error {
			if err == nil && p != nil {
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil {
			tb.Fatalf("walk %s: %v", root, err)
		}
		for _, path := range paths {
			if maxFiles > 0 && files == maxFiles {
				return out
			}
			files++
			_, res, err := reg.ParseFile(ctx, path, nil)
			if err != nil {
				tb.Logf("skip %s: %v", path, err)
				continue
			}
			out = append(out, res.Conversations...)
		}
	}
	return out
}

// dumpExtraction writes what e extracts from each conversation, one block
// per conversation, in a form a reviewer can diff.
func dumpExtraction(b *bytes.Buffer, e *Extractor, convs []*conversation.Conversation, root string) {
	for _, src := range convs {
		c := *src
		c.Topics, c.Decisions = nil, nil
		e.Apply(&c)
		name, err := filepath.Rel(root, c.File)
		if err != nil {
			name = c.File
		}
		fmt.Fprintf(b, "== %s %s (%d messages)\n", filepath.ToSlash(name), c.ID, len(c.Messages))
		for _, tp := range c.Topics {
			fmt.Fprintf(b, "topic %s %.3f\n", tp.Name, tp.Score)
		}
		for _, d := range c.Decisions {
			j, _ := json.Marshal(d.Rationale)
			fmt.Fprintf(b, "decision [%d] %s\n  because %s\n", d.MessageIndex, d.Decision, j)
		}
	}
}

// TestCorpusGolden compares what is extracted from every conversation of the
// repository's examples and test corpus with testdata/corpus.golden: the
// labelled set is small, and the speed-ups of the scanner and the patterns'
// prefilters must not change a single topic or decision on real text.
// Rewrite it with
//
//	go test ./extract/ -run TestCorpusGolden -update
func TestCorpusGolden(t *testing.T) {
	convs := loadCorpus(t, 0, corpusRoots...)
	if len(convs) < 20 {
		t.Fatalf("only %d conversations in %v", len(convs), corpusRoots)
	}
	var b bytes.Buffer
	dumpExtraction(&b, New(nil, Options{}), convs, "..")
	golden.Check(t, filepath.Join("testdata", "corpus.golden"), b.Bytes())
}

// BenchmarkApplyCorpus extracts from the repository's real-shaped
// conversations (every format's examples and the test corpus).
func BenchmarkApplyCorpus(b *testing.B) {
	benchApply(b, loadCorpus(b, 0, corpusRoots...))
}

// benchClaudeCode is a generated Claude Code corpus (`convsearch bench
// --phases gen`), used when present.
const benchClaudeCode = "/tmp/benchdir/claude-code-10000"

// BenchmarkApplyClaudeCode extracts from the first files of a generated
// Claude Code corpus, the shape of the profile; skipped without one.
func BenchmarkApplyClaudeCode(b *testing.B) {
	if _, err := os.Stat(benchClaudeCode); err != nil {
		b.Skipf("no corpus at %s", benchClaudeCode)
	}
	benchApply(b, loadCorpus(b, 20, benchClaudeCode))
}

func benchApply(b *testing.B, convs []*conversation.Conversation) {
	e := New(nil, Options{})
	msgs := 0
	for _, c := range convs {
		msgs += len(c.Messages)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, src := range convs {
			c := *src
			c.Topics, c.Decisions = nil, nil
			e.Apply(&c)
		}
		n += msgs
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "msgs/s")
}
