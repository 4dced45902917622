package query

import (
	"fmt"
	"strings"
	"testing"

	bq "github.com/blevesearch/bleve/v2/search/query"
)

// TestRelatedQueryBounded checks that what Related asks for is bounded
// whatever the conversation carries: 400 topics once took 27 s and 3.4 GB.
func TestRelatedQueryBounded(t *testing.T) {
	words := func(n int, w string) string { return strings.TrimSpace(strings.Repeat(w+" ", n)) }
	topics := func(n int, text func(i int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = text(i)
		}
		return out
	}
	numbered := func(i int) string { return fmt.Sprintf("topic %d", i) }
	for _, tt := range []struct {
		name     string
		info     ConversationInfo
		minTexts int // leaf queries, at least: the topics still count
		clauses  int // leaf queries, at most
	}{
		// Three clauses a topic, two for the title, one to leave out itself.
		{"few topics", ConversationInfo{ID: "a", Title: "retry policy", Topics: topics(2, numbered)}, 2*3 + 2 + 1, 2*3 + 2 + 1},
		{"400 topics", ConversationInfo{ID: "a", Title: "retry policy", Topics: topics(400, numbered)}, 10*3 + 2 + 1, 20*3 + 2 + 1},
		{"2000 topics", ConversationInfo{ID: "a", Title: "retry policy", Topics: topics(2000, numbered)}, 10*3 + 2 + 1, 20*3 + 2 + 1},
		{"one topic many times", ConversationInfo{ID: "a", Title: "x", Topics: topics(500, func(int) string { return "Backoff" })}, 3 + 2 + 1, 3 + 2 + 1},
		{"long topics and title", ConversationInfo{ID: "a", Title: words(5000, "title"), Topics: topics(50, func(int) string { return words(1000, "word") })}, 3 + 2 + 1, 3 + 2 + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			leaves, longest := 0, 0
			walk(relatedQuery(&tt.info), func(text string) {
				leaves++
				longest = max(longest, len(strings.Fields(text)))
			})
			if leaves > tt.clauses || leaves < tt.minTexts {
				t.Errorf("%d clauses, want %d to %d", leaves, tt.minTexts, tt.clauses)
			}
			if longest > 32 {
				t.Errorf("a clause of %d words, want at most 32", longest)
			}
		})
	}
}

// walk calls leaf with the text of each leaf query of q.
func walk(q bq.Query, leaf func(text string)) {
	switch q := q.(type) {
	case *bq.BooleanQuery:
		for _, c := range []bq.Query{q.Must, q.Should, q.MustNot, q.Filter} {
			if c != nil {
				walk(c, leaf)
			}
		}
	case *bq.DisjunctionQuery:
		for _, c := range q.Disjuncts {
			walk(c, leaf)
		}
	case *bq.ConjunctionQuery:
		for _, c := range q.Conjuncts {
			walk(c, leaf)
		}
	case *bq.MatchQuery:
		leaf(q.Match)
	case *bq.MatchPhraseQuery:
		leaf(q.MatchPhrase)
	case *bq.TermQuery:
		leaf(q.Term)
	default:
		leaf(fmt.Sprint(q))
	}
}
