package query_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// decisionsEngine is an engine over conversations whose decisions were
// taken on known days, two of them on one day.
func decisionsEngine(t *testing.T) *query.Engine {
	t.Helper()
	day := func(d int) time.Time { return time.Date(2025, 5, d, 9, 0, 0, 0, time.UTC) }
	conv := func(id, project string, d int, decisions ...string) *conversation.Conversation {
		c := &conversation.Conversation{ID: id, Source: "portable", Title: "about " + id, Date: day(d), Project: project, File: "/fixtures/" + id + ".json",
			Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "what shall we do about " + id, Timestamp: day(d)}}}
		for _, text := range decisions {
			c.Decisions = append(c.Decisions, conversation.Decision{Decision: text, Rationale: "it is simpler", MessageIndex: 0, Origin: conversation.OriginExplicit, Timestamp: day(d)})
		}
		c.Renumber()
		return c
	}
	return engineOver(t, query.Options{}, fileChanges(
		conv("cache", "web", 3, "use a write-through cache"),
		conv("queue", "jobs", 9, "retry failed jobs twice", "drop jobs older than a week"),
		conv("auth", "web", 9, "keep sessions in cookies"),
		conv("logs", "jobs", 1, "ship logs as JSON"),
	)...)
}

// TestDecisionsOfCommonWordsOnly: decisions refuse a query of only common
// words, punctuation or symbols, as search does, rather than list every
// decision as a match; a listing, with no query or with common words and
// a filter of the caller's, is newest first, ties by id.
func TestDecisionsOfCommonWordsOnly(t *testing.T) {
	e := decisionsEngine(t)
	newest := []string{"d/auth/0", "d/queue/0", "d/queue/1", "d/cache/0", "d/logs/0"}
	for _, c := range []struct {
		name    string
		req     query.DecisionsRequest
		want    []string // hit ids in order; nil: refused
		refused bool
	}{
		{name: "the", req: query.DecisionsRequest{Query: "the"}, refused: true},
		{name: "question of common words", req: query.DecisionsRequest{Query: "what is it?"}, refused: true},
		{name: "punctuation", req: query.DecisionsRequest{Query: "!!!"}, refused: true},
		{name: "common words since", req: query.DecisionsRequest{Query: "the", Since: time.Date(2025, 5, 2, 0, 0, 0, 0, time.UTC)}, want: newest[:4]},
		{name: "no query", req: query.DecisionsRequest{}, want: newest},
		{name: "blank query", req: query.DecisionsRequest{Query: "  "}, want: newest},
		{name: "no query, a project", req: query.DecisionsRequest{Projects: []string{"jobs"}}, want: []string{"d/queue/0", "d/queue/1", "d/logs/0"}},
		{name: "common words, a project", req: query.DecisionsRequest{Query: "the", Projects: []string{"jobs"}}, want: []string{"d/queue/0", "d/queue/1", "d/logs/0"}},
		{name: "a word", req: query.DecisionsRequest{Query: "jobs"}, want: []string{"d/queue/0", "d/queue/1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Decisions(context.Background(), c.req)
			var se *query.SyntaxError
			if c.refused {
				if !errors.As(err, &se) {
					t.Fatalf("got %v, %v; want a *query.SyntaxError", res, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range res.Hits {
				got = append(got, h.ID)
			}
			if c.req.Query == "jobs" {
				slices.Sort(got) // by relevance: which first is the ranking's
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestDecisionsAndTopicsPage: decisions and topics page with offset, each
// page following the one before (the decisions' next_offset), and refuse
// an offset that is negative or deeper than search's.
func TestDecisionsAndTopicsPage(t *testing.T) {
	ctx := context.Background()
	de, te := decisionsEngine(t), newEngine(t)
	allTopics, err := te.Topics(ctx, query.TopicsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var topicNames []string
	for _, tc := range allTopics {
		topicNames = append(topicNames, tc.Name)
	}
	newest := []string{"d/auth/0", "d/queue/0", "d/queue/1", "d/cache/0", "d/logs/0"}
	for _, c := range []struct {
		offset int
		want   []string // decisions of the page of 2; nil: refused
		next   int      // the decisions' next_offset
	}{
		{0, newest[:2], 2},
		{2, newest[2:4], 4},
		{4, newest[4:], 0},
		{5, []string{}, 0},
		{query.MaxOffset, []string{}, 0},
		{-1, nil, 0},
		{query.MaxOffset + 1, nil, 0},
	} {
		res, err := de.Decisions(ctx, query.DecisionsRequest{Limit: 2, Offset: c.offset})
		if c.want == nil {
			if err == nil {
				t.Errorf("decisions at offset %d: no error", c.offset)
			}
		} else if err != nil {
			t.Errorf("decisions at offset %d: %v", c.offset, err)
		} else {
			got := []string{}
			for _, h := range res.Hits {
				got = append(got, h.ID)
			}
			if !slices.Equal(got, c.want) || res.Total != 5 || res.NextOffset != c.next {
				t.Errorf("decisions at offset %d: %v of %d, next_offset %d; want %v of 5, next_offset %d", c.offset, got, res.Total, res.NextOffset, c.want, c.next)
			}
		}

		topics, err := te.Topics(ctx, query.TopicsRequest{Limit: 2, Offset: c.offset})
		if c.want == nil {
			if err == nil {
				t.Errorf("topics at offset %d: no error", c.offset)
			}
			continue
		}
		if err != nil {
			t.Errorf("topics at offset %d: %v", c.offset, err)
			continue
		}
		got := []string{}
		for _, tc := range topics {
			got = append(got, tc.Name)
		}
		want := topicNames[min(c.offset, len(topicNames)):min(c.offset+2, len(topicNames))]
		if !slices.Equal(got, want) {
			t.Errorf("topics at offset %d: %v, want %v", c.offset, got, want)
		}
	}
}
