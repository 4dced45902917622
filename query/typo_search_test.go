package query_test

import (
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
	checkConversations(t, e, []convCase{
		{"activty~", []string{"target"}},
		{"dependncies~", []string{"target"}},
		{"bootstrp~", []string{"target"}},
		{"actr~", []string{"apart"}},  // act (acts), one letter out
		{"bootz~", []string{"apart"}}, // boot (boots), one replaced
		{"zzyzx~", nil},
	})
}
