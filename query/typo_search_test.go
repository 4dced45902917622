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

// A commit's short hash (git log --oneline) finds the hash written whole.
func TestShortHashFindsTheHash(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "reverted a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0 on main"),
		chat("apart", "the decade 1990s and cafe babe"),
	)...)
	checkConversations(t, e, []convCase{
		{"a1b2c3d", []string{"target"}},
		{"a1b2c3d4e5f6", []string{"target"}},
		{"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0", []string{"target"}},
		{"b2c3d4e", nil}, // a hash begins so, not holds it
		{"decade", []string{"apart"}},
	})
}

// A prefix with an accent begins the words the index holds folded.
func TestAccentedPrefix(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "the café opens at eight, the crème brûlée is sold out"),
		chat("apart", "a cabin and a cream"),
	)...)
	checkConversations(t, e, []convCase{
		{"café*", []string{"target"}},
		{"caf*", []string{"target"}},
		{"crèm*", []string{"target"}},
		{"brûl*", []string{"target"}},
	})
}
