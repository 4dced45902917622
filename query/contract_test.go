package query_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// fileSource reads conversations "again" as their files hold them: without
// the topics and decisions extract derived at ingest.
type fileSource struct{}

func (fileSource) ReadConversations(_ context.Context, _, path string) ([]*conversation.Conversation, error) {
	var out []*conversation.Conversation
	for _, c := range fixture() {
		if c.File == path {
			c.Topics, c.Decisions = nil, nil
			out = append(out, c)
		}
	}
	return out, nil
}

func newEngineWith(t *testing.T, src query.Source) *query.Engine {
	t.Helper()
	return newEngineOpts(t, query.Options{Source: src})
}

// newEngineOpts returns an engine with opts over an index of the fixture.
func newEngineOpts(t testing.TB, opts query.Options) *query.Engine {
	t.Helper()
	return engineOver(t, opts, fileChanges(fixture()...)...)
}

// fileChanges makes each conversation its own file's change.
func fileChanges(convs ...*conversation.Conversation) []indexer.Change {
	var changes []indexer.Change
	for _, c := range convs {
		changes = append(changes, indexer.Change{State: indexer.FileState{Path: c.File, Parser: c.Source}, Conversations: []*conversation.Conversation{c}})
	}
	return changes
}

// engineOver returns an engine with opts over a new index that changes
// were applied to.
func engineOver(t testing.TB, opts query.Options, changes ...indexer.Change) *query.Engine {
	t.Helper()
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if err := ix.Apply(context.Background(), changes); err != nil {
		t.Fatal(err)
	}
	e, err := query.New(ix, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// sharedFile reads every conversation of the fixture from any file: one
// file that holds many conversations.
type sharedFile struct{}

func (sharedFile) ReadConversations(context.Context, string, string) ([]*conversation.Conversation, error) {
	return fixture(), nil
}

// TestLoadFinishesTheConversationAsked: Options.Finish (the daemon's
// redaction) is done to the conversation Load returns, and not to the
// others its file holds.
func TestLoadFinishesTheConversationAsked(t *testing.T) {
	var finished []string
	e := newEngineOpts(t, query.Options{Source: sharedFile{}, Finish: func(c *conversation.Conversation) {
		finished = append(finished, c.ID)
		c.Title = "finished"
	}})
	c, fromIndex, err := e.Load(context.Background(), indexer.MessageDocID("retry", 1))
	if err != nil {
		t.Fatal(err)
	}
	if fromIndex || c.ID != "retry" || c.Title != "finished" || !reflect.DeepEqual(finished, []string{"retry"}) {
		t.Errorf("Load: %s %q (from index %v); finished %v, want [retry]", c.ID, c.Title, fromIndex, finished)
	}
}

// TestLoadShowsIndexedTopicsAndDecisions: a conversation shows the topics
// and decisions the index holds for it (derived ones included), whether it
// is read again from its file or rebuilt from the index, and by a hit's id.
func TestLoadShowsIndexedTopicsAndDecisions(t *testing.T) {
	want := fixture()[1] // "retry": an extracted topic and decision
	for _, tc := range []struct {
		name      string
		src       query.Source
		id        string
		fromIndex bool
	}{
		{"file read again", fileSource{}, "retry", false},
		{"rebuilt from the index", nil, "retry", true},
		{"by a message hit's id", fileSource{}, indexer.MessageDocID("retry", 1), false},
		{"by a decision hit's id", nil, indexer.DecisionDocID("retry", 0), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, fromIndex, err := newEngineWith(t, tc.src).Load(context.Background(), tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if c.ID != "retry" || fromIndex != tc.fromIndex {
				t.Errorf("id %s, from index %v; want retry, %v", c.ID, fromIndex, tc.fromIndex)
			}
			if !reflect.DeepEqual(c.Topics, want.Topics) {
				t.Errorf("topics\n got %+v\nwant %+v", c.Topics, want.Topics)
			}
			if !reflect.DeepEqual(c.Decisions, want.Decisions) {
				t.Errorf("decisions\n got %+v\nwant %+v", c.Decisions, want.Decisions)
			}
		})
	}
}

func TestHitIDsNameTheirConversation(t *testing.T) {
	e := newEngineWith(t, nil)
	ctx := context.Background()
	for _, id := range []string{"boot", "c/boot", "m/boot/2", "d/boot/0", "t/boot/bca"} {
		info, err := e.Conversation(ctx, id)
		if err != nil || info.ID != "boot" {
			t.Errorf("Conversation(%q) = %+v, %v; want boot", id, info, err)
		}
	}
	if _, err := e.Conversation(ctx, "m/nosuch/1"); err == nil {
		t.Error("Conversation(m/nosuch/1): no error")
	}
	res, err := e.Related(ctx, "m/retry/0", 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.ConversationID == "retry" {
			t.Errorf("Related(m/retry/0) lists retry itself")
		}
	}
}

func TestPlainSnippet(t *testing.T) {
	for _, tc := range []struct {
		frag string
		want query.Snippet
	}{
		{"plain", query.Snippet{Text: "plain"}},
		{"<mark>boot</mark>", query.Snippet{Text: "boot", Matches: [][2]int{{0, 4}}}},
		{`b &lt;- <mark>boot</mark>(x, type = &#34;perc&#34;)`, query.Snippet{Text: `b <- boot(x, type = "perc")`, Matches: [][2]int{{5, 9}}}},
		{"…é <mark>naïve</mark> &amp; <mark>x</mark>", query.Snippet{Text: "…é naïve & x", Matches: [][2]int{{3, 8}, {11, 12}}}},
		{"a < b <mark>c</mark>", query.Snippet{Text: "a < b c", Matches: [][2]int{{6, 7}}}},
		{"<mark></mark>x</mark>", query.Snippet{Text: "x"}},
	} {
		if got := query.PlainSnippet(tc.frag); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("PlainSnippet(%q) = %+v, want %+v", tc.frag, got, tc.want)
		}
	}
	sn := query.PlainSnippet("one <mark>two</mark> three <mark>four</mark>")
	if got, cut := sn.Clip(12); !cut || got.Text != "one two thr…" || !reflect.DeepEqual(got.Matches, [][2]int{{4, 7}}) {
		t.Errorf("Clip(12) = %+v, %v", got, cut)
	}
}
