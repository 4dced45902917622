package query_test

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/query"
)

// checkPlain checks the conversations each query finds, grouped, in any
// order, and that they are found as a plain match, not relaxed.
func checkPlain(t *testing.T, e *query.Engine, cases []convCase) {
	t.Helper()
	for _, tt := range cases {
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
			if res.Relaxed {
				t.Errorf("found relaxed, want a plain match")
			}
		})
	}
}

// A version number finds it written with or without its "v", and after
// the word version.
func TestVersionNumbers(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("tagged", "we tagged v1.2.3 yesterday"),
		chat("bare", "upgrade the library to 1.2.3 first"),
		chat("worded", "the changelog of version 1.2.3 is long"),
		chat("capital", "Release V1.2.3 is out"),
		chat("other", "version 1.2.4 shipped; v2.3 and 1.3 later"),
	)...)
	checkPlain(t, e, []convCase{
		{"1.2.3", []string{"bare", "capital", "tagged", "worded"}},
		{"v1.2.3", []string{"bare", "capital", "tagged", "worded"}},
		{"V1.2.3", []string{"bare", "capital", "tagged", "worded"}},
		{"version 1.2.3", []string{"worded"}},
		{"1.2.4", []string{"other"}},
		// A phrase of numbers: 2.3 is also the end of 1.2.3, with or
		// without its v.
		{"v2.3", []string{"bare", "capital", "other", "tagged", "worded"}},
		{"2.3", []string{"bare", "capital", "other", "tagged", "worded"}},
	})
}
