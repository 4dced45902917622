package query

import (
	"math"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/indexer"
)

// TestGroupRankedKinds checks how a grouped search weighs a conversation's
// best hit by its kind: a topic counts as a message (its one or two words
// already rank high), a decision half again.
func TestGroupRankedKinds(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hits  []Hit
		first string
	}{
		{"a topic does not outrank a better message", []Hit{
			{ID: "t/a/sock", ConversationID: "a", Kind: indexer.KindTopic, Score: 0.9},
			{ID: "m/z/0", ConversationID: "z", Kind: indexer.KindMessage, Score: 1.0},
		}, "z"},
		{"a topic outranks a worse message", []Hit{
			{ID: "t/z/sock", ConversationID: "z", Kind: indexer.KindTopic, Score: 1.0},
			{ID: "m/a/0", ConversationID: "a", Kind: indexer.KindMessage, Score: 0.9},
		}, "z"},
		{"a decision outranks a message up to half again its score", []Hit{
			{ID: "m/a/0", ConversationID: "a", Kind: indexer.KindMessage, Score: 1.4},
			{ID: "d/z/0", ConversationID: "z", Kind: indexer.KindDecision, Score: 1.0},
		}, "z"},
		{"equal scores go to the conversation id", []Hit{
			{ID: "m/z/0", ConversationID: "z", Kind: indexer.KindMessage, Score: 1.0},
			{ID: "t/a/sock", ConversationID: "a", Kind: indexer.KindTopic, Score: 1.0},
		}, "a"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := groupRanked(tt.hits, 0, 10, true)
			if len(got) != 2 || got[0].ConversationID != tt.first {
				t.Errorf("groupRanked = %+v, want %s first", got, tt.first)
			}
		})
	}
}

func TestWordParts(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"dish?", []string{"dish"}}, {"City", []string{"city"}}, {"Grandma's", []string{"grandma", "s"}},
		{"grandma’s", []string{"grandma", "s"}}, {"(therapy),", []string{"therapy"}}, {"ex-wife", []string{"ex", "wife"}},
		{"dog/cat?", []string{"dog", "cat"}}, {"?", nil},
	} {
		if got := wordParts(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("wordParts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGroupedScoreIsTheOneThatChose checks that a conversation's best hit
// reports the score it was chosen and ranked by: a decision's weighted one
// beat a message of a higher raw score, and the page is in the order of the
// scores it shows.
func TestGroupedScoreIsTheOneThatChose(t *testing.T) {
	hits := []Hit{
		{ID: "m/a/12", ConversationID: "a", Kind: indexer.KindMessage, Score: 2.085},
		{ID: "m/b/1", ConversationID: "b", Kind: indexer.KindMessage, Score: 2.5},
		{ID: "d/a/0", ConversationID: "a", Kind: indexer.KindDecision, Score: 1.963},
		{ID: "t/c/x", ConversationID: "c", Kind: indexer.KindTopic, Score: 1.0},
	}
	got, _ := groupRanked(hits, 0, 10, true)
	want := []struct {
		id    string
		score float64
	}{{"d/a/0", 1.963 * 1.5}, {"m/b/1", 2.5}, {"t/c/x", 1.0}}
	if len(got) != len(want) {
		t.Fatalf("groupRanked = %+v, want %d conversations", got, len(want))
	}
	for i, w := range want {
		if got[i].ID != w.id || math.Abs(got[i].Score-w.score) > 1e-9 {
			t.Errorf("conversation %d: %s score %.4f, want %s score %.4f", i, got[i].ID, got[i].Score, w.id, w.score)
		}
	}
}
