package query_test

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/query"
)

// TestNextOffset checks where the next page starts, for every interface's
// answer: none after the last page, none after a last page that is full
// (the hits an exact multiple of the limit), grouped pages going by More
// (Total counts documents, more than the conversations), none past
// MaxOffset, none with After.
func TestNextOffset(t *testing.T) {
	hits := func(n int) []query.Hit { return make([]query.Hit, n) }
	for _, tt := range []struct {
		name  string
		r     query.Request
		res   query.Result
		shown int // -1: every hit of res
		next  int
		more  bool
	}{
		{"a first page of more", query.Request{Limit: 2}, query.Result{Total: 5, Hits: hits(2)}, -1, 2, true},
		{"a middle page", query.Request{Limit: 2, Offset: 2}, query.Result{Total: 5, Hits: hits(2)}, -1, 4, true},
		{"the last page, short", query.Request{Limit: 2, Offset: 4}, query.Result{Total: 5, Hits: hits(1)}, -1, 0, false},
		{"the last page, full: an exact multiple", query.Request{Limit: 2, Offset: 2}, query.Result{Total: 4, Hits: hits(2)}, -1, 0, false},
		{"one page holds all", query.Request{Limit: 20}, query.Result{Total: 3, Hits: hits(3)}, -1, 0, false},
		{"no hit", query.Request{Limit: 20}, query.Result{Hits: hits(0)}, -1, 0, false},
		{"past the end", query.Request{Limit: 2, Offset: 8}, query.Result{Total: 5, Hits: hits(0)}, -1, 0, false},
		{"grouped: documents left, no conversation", query.Request{Limit: 2, Group: true}, query.Result{Total: 40, Hits: hits(2)}, -1, 0, false},
		{"grouped: more conversations", query.Request{Limit: 2, Offset: 2, Group: true}, query.Result{Total: 40, Hits: hits(2), More: true}, -1, 4, true},
		{"grouped: the last page, full", query.Request{Limit: 2, Offset: 2, Group: true}, query.Result{Total: 4, Hits: hits(2)}, -1, 0, false},
		{"a page cut short has more", query.Request{Limit: 4}, query.Result{Total: 4, Hits: hits(4)}, 3, 3, true},
		{"grouped, cut short", query.Request{Limit: 4, Group: true}, query.Result{Total: 9, Hits: hits(4)}, 1, 1, true},
		{"up to MaxOffset", query.Request{Limit: 10, Offset: query.MaxOffset - 10}, query.Result{Total: 1 << 20, Hits: hits(10)}, -1, query.MaxOffset, true},
		{"past MaxOffset", query.Request{Limit: 10, Offset: query.MaxOffset - 5}, query.Result{Total: 1 << 20, Hits: hits(10)}, -1, 0, true},
		{"grouped past MaxOffset", query.Request{Limit: 10, Offset: query.MaxOffset, Group: true}, query.Result{Total: 1 << 20, Hits: hits(10), More: true}, -1, 0, true},
		{"after pages with Sort", query.Request{Limit: 2, After: []string{"x", "y"}}, query.Result{Total: 9, Hits: hits(2)}, -1, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			shown := tt.shown
			if shown < 0 {
				shown = len(tt.res.Hits)
			}
			next, more := query.NextOffset(tt.r, &tt.res, shown)
			if next != tt.next || more != tt.more {
				t.Errorf("NextOffset = %d, %v; want %d, %v", next, more, tt.next, tt.more)
			}
		})
	}
}

// TestSearchNextOffset pages searches of the fixture by their answers'
// NextOffset: every hit once, in the order of one big page, and the last
// page (full when the limit divides the hits) says none follows. Grouped,
// Total counts more documents than there are conversations.
func TestSearchNextOffset(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	const q = "bleve OR backoff OR bootstrap"
	for _, tt := range []struct {
		name  string
		group bool
		limit int // 0: the hits' count, one full page
	}{
		{"every hit, one at a time", false, 1},
		{"every hit, two at a time", false, 2},
		{"every hit, a full page", false, 0},
		{"grouped, one at a time", true, 1},
		{"grouped, two at a time", true, 2},
		{"grouped, a full page", true, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			all, err := e.Search(ctx, query.Request{Query: q, Group: tt.group, Limit: query.MaxLimit})
			if err != nil {
				t.Fatal(err)
			}
			if all.NextOffset != 0 {
				t.Errorf("one page of every hit says next_offset %d", all.NextOffset)
			}
			if tt.group && all.Total <= uint64(len(all.Hits)) {
				t.Fatalf("grouped: %d documents, %d conversations: the fixture does not tell them apart", all.Total, len(all.Hits))
			}
			limit := tt.limit
			if limit == 0 {
				limit = len(all.Hits)
			}
			var paged []string
			offset, pages := 0, 0
			for {
				res, err := e.Search(ctx, query.Request{Query: q, Group: tt.group, Limit: limit, Offset: offset})
				if err != nil {
					t.Fatal(err)
				}
				pages++
				if pages > len(all.Hits)+1 {
					t.Fatalf("next_offset never ends: %v", paged)
				}
				if len(res.Hits) == 0 {
					t.Fatalf("offset %d, a next_offset, gave an empty page", offset)
				}
				paged = append(paged, hitIDs(res)...)
				if res.NextOffset == 0 {
					break
				}
				if res.NextOffset != offset+len(res.Hits) {
					t.Fatalf("next_offset %d after %d hits at %d", res.NextOffset, len(res.Hits), offset)
				}
				offset = res.NextOffset
			}
			if want := hitIDs(all); !slices.Equal(paged, want) {
				t.Errorf("paged by next_offset:\n%v\nwant\n%v", paged, want)
			}
			if want := (len(all.Hits) + limit - 1) / limit; pages != want {
				t.Errorf("%d pages, want %d", pages, want)
			}
		})
	}
}
