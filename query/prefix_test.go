package query

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/indexer"
)

// TestPrefixOfAStemmedWord: the index holds stems ("retri" for retry and
// retries, "manag" for manage and managed), so a prefix typed as a whole
// word whose stem differs found nothing of it; it finds the word's forms
// now, and still what begins with the prefix.
func TestPrefixOfAStemmedWord(t *testing.T) {
	texts := []string{
		"we retry twice",       // 0
		"the retries failed",   // 1
		"retrying now",         // 2
		"retrieving the logs",  // 3
		"manage the team",      // 4
		"managed it well",      // 5
		"a manageable backlog", // 6
		"happy days",           // 7
		"happiness",            // 8
	}
	e := messagesEngine(t, texts)
	for _, tt := range []struct {
		q    string
		want []int // message indexes
	}{
		{"retry*", []int{0, 1, 2}}, // not retrieving
		{"retr*", []int{0, 1, 2, 3}},
		{"manage*", []int{4, 5, 6}},
		{"happy*", []int{7, 8}}, // happiness is "happi" too
		{"happ*", []int{7, 8}},
		{"the*", nil}, // a stop word: its prefix alone
	} {
		t.Run(tt.q, func(t *testing.T) {
			res, err := e.Search(context.Background(), Request{Query: tt.q, Types: []string{indexer.KindMessage}, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, h := range res.Hits {
				got = append(got, *h.MessageIndex)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: messages %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}
