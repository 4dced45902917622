package convtest

import (
	"slices"
	"testing"
)

// FollowPages reads a listing by its next_offset from offset 0: page
// returns the ids of the page at offset and its next_offset (0: the last).
// It fails tb when a page repeats an id read before or its next_offset is
// not where the page ends, and returns every id read, in order, and how many
// pages it took. It stops after maxPages pages, so a listing that never ends
// is a failure of the caller's page count, not a hang.
func FollowPages(tb testing.TB, maxPages int, page func(offset int) (ids []string, next int)) (ids []string, pages int) {
	tb.Helper()
	offset := 0
	for pages < maxPages {
		got, next := page(offset)
		pages++
		for _, id := range got {
			if slices.Contains(ids, id) {
				tb.Errorf("the page at %d repeats %s", offset, id)
			}
			ids = append(ids, id)
		}
		if next == 0 {
			break
		}
		if next != offset+len(got) {
			tb.Fatalf("next_offset %d after %d hits at %d", next, len(got), offset)
		}
		offset = next
	}
	return ids, pages
}
