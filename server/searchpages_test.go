package server

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
)

// TestAPISearchNextOffset: /api/search on a real index says next_offset
// while a page follows, and following it reads every hit once, in the
// order of one big page, grouped (Total counts the messages, more than the
// conversations) or not; the last page, full or not, says none.
func TestAPISearchNextOffset(t *testing.T) {
	root := t.TempDir()
	for c := range 5 {
		msgs := make([]string, 3)
		for i := range msgs {
			// Each says wombat a different number of times: no two
			// scores tie, and ties have no order that holds from one
			// page to the next.
			msgs[i] = strings.Repeat("wombat ", c*3+i+1) + "burrow"
		}
		id := fmt.Sprintf("wombats-%d", c)
		if err := convtest.WriteAtomic(filepath.Join(root, id+".json"), convtest.Portable(id, "Burrows", msgs...)); err != nil {
			t.Fatal(err)
		}
	}
	e, sum := convtest.Engine(t, root)
	if sum.Conversations != 5 {
		t.Fatalf("index: %+v", sum)
	}
	h := NewHandler(HandlerOptions{Backend: e})
	search := func(params string) query.Result {
		t.Helper()
		code, body := get(t, h, "/api/search?q=wombat&type=message&"+params)
		if code != 200 {
			t.Fatalf("%s: %d %s", params, code, body)
		}
		var res query.Result
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, tc := range []struct {
		name, params string
		limit, pages int
	}{
		{"every hit", "group=0", 4, 4},             // 15 messages: 4, 4, 4, 3
		{"every hit, a multiple", "group=0", 5, 3}, // 5, 5, 5
		{"grouped", "group=1", 2, 3},               // 5 conversations: 2, 2, 1
		{"grouped, a multiple", "group=1", 5, 1},   // one full page, 15 messages left behind
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := search(tc.params + "&limit=1000")
			if all.NextOffset != 0 {
				t.Errorf("every hit in one page, next_offset %d", all.NextOffset)
			}
			paged, pages := convtest.FollowPages(t, len(all.Hits)+1, func(offset int) ([]string, int) {
				res := search(fmt.Sprintf("%s&limit=%d&offset=%d", tc.params, tc.limit, offset))
				return hitIDs(res.Hits), res.NextOffset
			})
			if pages != tc.pages {
				t.Errorf("%d pages, want %d", pages, tc.pages)
			}
			if want := hitIDs(all.Hits); !slices.Equal(paged, want) {
				t.Errorf("paged by next_offset:\n%v\nwant\n%v", paged, want)
			}
		})
	}
}

func hitIDs(hits []query.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
