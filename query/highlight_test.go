package query

import (
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/search"
)

// TestBoundPlaces: a field keeps its first places in the text, value by
// value, in the order they came; a field with few keeps them all, whatever
// another field has.
func TestBoundPlaces(t *testing.T) {
	loc := func(field string, start uint64, ap ...uint64) search.FieldTermLocation {
		return search.FieldTermLocation{Field: field, Term: "x", Location: search.Location{Start: start, ArrayPositions: ap}}
	}
	for _, c := range []struct {
		name string
		in   []search.FieldTermLocation
		n    int
		want []string
	}{
		{"few", []search.FieldTermLocation{loc("content", 9), loc("content", 3)}, 2, []string{"content@9[]", "content@3[]"}},
		{"first in text", []search.FieldTermLocation{loc("content", 9), loc("content", 3), loc("content", 6)}, 2, []string{"content@3[]", "content@6[]"}},
		{"by value", []search.FieldTermLocation{loc("content", 1, 1), loc("content", 5, 0), loc("content", 9, 0)}, 2, []string{"content@5[0]", "content@9[0]"}},
		{"by field", []search.FieldTermLocation{loc("title", 4), loc("content", 9), loc("title", 2), loc("content", 3), loc("content", 6)}, 2,
			[]string{"title@4[]", "title@2[]", "content@3[]", "content@6[]"}},
		{"ties at the n-th", []search.FieldTermLocation{loc("content", 5), loc("content", 3), loc("content", 5), loc("content", 5)}, 2, []string{"content@5[]", "content@3[]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dm := &search.DocumentMatch{FieldTermLocations: c.in}
			boundPlaces(dm, c.n)
			var got []string
			for _, l := range dm.FieldTermLocations {
				got = append(got, fmt.Sprintf("%s@%d%v", l.Field, l.Location.Start, l.Location.ArrayPositions))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
