package bench

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryPhaseKeepsTheIndex runs the query phase on an index built as
// `convsearch index` builds it (redaction on): the queries find what the
// corpus holds, and the index still holds its documents after. The phase
// opened the index as a writer without the redaction rules, which rebuilt
// it empty and timed queries that found nothing.
func TestQueryPhaseKeepsTheIndex(t *testing.T) {
	ctx := context.Background()
	const size = 1000
	dir := t.TempDir()
	corpus := filepath.Join(dir, fmt.Sprintf("corpus-%d", size))
	data := filepath.Join(dir, fmt.Sprintf("data-%d", size))
	if _, err := ensureCorpus(corpus, filepath.Join(dir, fmt.Sprintf("claude-code-%d", size)), size, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	_, done, err := indexRoots(ctx, data, []string{corpus})
	if err != nil {
		t.Fatal(err)
	}
	done()
	before := documents(t, data)
	if before == 0 {
		t.Fatal("the corpus indexed to nothing")
	}
	rep, err := Run(ctx, size, Options{Dir: dir, Phases: []string{"query"}, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Queries) == 0 {
		t.Fatal("no query figures")
	}
	for _, q := range rep.Queries {
		if q.Class == "rare term" {
			continue // 1 message in 100k: none in this corpus
		}
		if q.Hits == 0 {
			t.Errorf("%s %q (highlight %v): no hits", q.Class, q.Query, q.Highlight)
		}
	}
	if after := documents(t, data); after != before {
		t.Errorf("the index held %d documents before the query phase, %d after", before, after)
	}
}

func documents(t *testing.T, data string) uint64 {
	t.Helper()
	ix, err := openReader(data) // as the query phase opens it
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	s, err := ix.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s.Documents
}

// TestRunRefusesUnknownPhases: a misspelt phase measured nothing and said
// nothing; Run names it, before generating anything.
func TestRunRefusesUnknownPhases(t *testing.T) {
	for _, phases := range [][]string{{"foo"}, {"index", "qeury"}, {""}} {
		dir := t.TempDir()
		_, err := Run(context.Background(), 100, Options{Dir: dir, Phases: phases})
		if err == nil || !strings.Contains(err.Error(), "unknown phase") || !strings.Contains(err.Error(), strings.Join(Phases, ", ")) {
			t.Errorf("phases %q: %v, want an error naming the phases", phases, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("phases %q: %d entries written to the work folder, want none", phases, len(entries))
		}
	}
	if err := CheckPhases(Phases); err != nil {
		t.Errorf("CheckPhases(Phases): %v", err)
	}
}
