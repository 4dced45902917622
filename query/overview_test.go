package query_test

import (
	"context"
	"testing"
	"time"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

func TestOverview(t *testing.T) {
	e := newEngine(t)
	ov, err := e.Overview(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The fixture spans 1 to 20 March 2025: weekly buckets from Monday 24 February.
	if ov.Bucket != "week" || len(ov.Starts) != 4 || !ov.Starts[0].Equal(time.Date(2025, 2, 24, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("buckets: %s %v", ov.Bucket, ov.Starts)
	}
	want := map[string]struct {
		week        int
		convs, msgs uint64
	}{
		"rao":         {0, 1, 4},
		"studio":      {2, 1, 3},
		"claude-code": {3, 1, 5},
	}
	if len(ov.BySource) != len(want) {
		t.Errorf("%d sources, want %d: %+v", len(ov.BySource), len(want), ov.BySource)
	}
	for _, s := range ov.BySource {
		w, ok := want[s.Name]
		if !ok {
			t.Errorf("unexpected source %q", s.Name)
			continue
		}
		if s.TotalConversations != w.convs || s.TotalMessages != w.msgs || s.Conversations[w.week] != w.convs || s.Messages[w.week] != w.msgs {
			t.Errorf("%s: %+v, want %d conversation(s) and %d messages in week %d", s.Name, s, w.convs, w.msgs, w.week)
		}
	}
	projects := map[string]uint64{}
	for _, p := range ov.ByProject {
		projects[p.Name] = p.TotalConversations
	}
	for _, p := range []string{"analytics", "ledger", "convsearch"} {
		if projects[p] != 1 {
			t.Errorf("project %s: %d conversations, want 1 (%v)", p, projects[p], projects)
		}
	}
	if ov.Files != 3 || len(ov.Failed) != 0 {
		t.Errorf("files %d, failed %v; want 3 and none", ov.Files, ov.Failed)
	}
}

func TestOverviewListsFailedFiles(t *testing.T) {
	e2 := engineOver(t, query.Options{}, indexer.Change{State: indexer.FileState{Path: "/x/broken.json", Parser: "chatgpt", Error: "unexpected end of JSON input"}})
	ov, err := e2.Overview(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ov.Failed) != 1 || ov.Failed[0].Path != "/x/broken.json" || ov.Failed[0].Error == "" {
		t.Errorf("failed files: %+v", ov.Failed)
	}
	if len(ov.Starts) != 0 || len(ov.BySource) != 0 {
		t.Errorf("an index without conversations has a chart: %+v", ov)
	}
}
