package query_test

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/query"
)

// One typo finds the word even when the typo stems otherwise than the word
// (activty → activti, the index holding activ for activity).
func TestTypoFindsTheWordItsStemMisses(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "the activity log lists the dependencies of bootstrap"),
		chat("apart", "an actor acts, pending on the boots"),
	)...)
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"activty~", []string{"target"}},
		{"dependncies~", []string{"target"}},
		{"bootstrp~", []string{"target"}},
		{"actr~", []string{"apart"}},  // act (acts), one letter out
		{"bootz~", []string{"apart"}}, // boot (boots), one replaced
		{"zzyzx~", nil},
	} {
		t.Run(tt.q, func(t *testing.T) {
			res, err := e.Search(context.Background(), query.Request{Query: tt.q, Group: true, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			got := convOrder(res)
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("conversations %v, want %v", got, tt.want)
			}
		})
	}
}
