package query_test

import (
	"context"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/query"
)

// A prefix of a word whose parts are joined by punctuation finds the word:
// its whole parts, then a part that starts with the last, next to each
// other (the index holds the parts, never pg_stat_activity whole).
func TestJoinedPrefix(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "check pg_stat_activity, then open src/components/Button.tsx and rm -rf node_modules"),
		chat("apart", "pg tables have stats; a button in tsx; the node has modules; src of the components"),
	)...)
	checkConversations(t, e, []convCase{
		{"pg_stat*", []string{"target"}},
		{"pg_stat_act*", []string{"target"}},
		{"Button.ts*", []string{"target"}},
		{"node_mod*", []string{"target"}},
		{"src/comp*", []string{"target"}},
		{"src/components/Butt*", []string{"target"}},
		// Nothing after the joiner: the word before it (the index cannot
		// tell pg_ from pg).
		{"pg_*", []string{"apart", "target"}},
		{"pg_zebra*", nil},
		{"stat*", []string{"apart", "target"}},
	})
}

// A word joined by a hyphen to a common word the index leaves out
// ("no-verify") is checked as its phrase, not searched as the other word.
func TestHyphenWithCommonWord(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "git commit --no-verify skips the hooks; keep the docs up-to-date"),
		chat("apart", "verify the signature, then date the release; no hooks up there"),
	)...)
	checkConversations(t, e, []convCase{
		{"no-verify", []string{"target"}},
		{"up-to-date", []string{"target"}},
		{"verify", []string{"apart", "target"}},
	})
}

// convCase is a query and the conversations a grouped search for it finds,
// in any order.
type convCase struct {
	q    string
	want []string
}

// checkConversations checks the conversations each query finds, grouped,
// in any order.
func checkConversations(t *testing.T, e *query.Engine, cases []convCase) {
	t.Helper()
	checkFound(t, e, cases, false)
}

// checkPlain is checkConversations, and each query is found as a plain
// match, not relaxed.
func checkPlain(t *testing.T, e *query.Engine, cases []convCase) {
	t.Helper()
	checkFound(t, e, cases, true)
}

func checkFound(t *testing.T, e *query.Engine, cases []convCase, plain bool) {
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
			if plain && res.Relaxed {
				t.Errorf("found relaxed, want a plain match")
			}
		})
	}
}

// A prefix of joined parts whose last part is a whole word finds its stem
// (src/components* is src compon); common words in it are gaps; a joiner
// before any word is dropped; camelCase words meet their neighbours; and
// fields take the same forms.
func TestJoinedPrefixForms(t *testing.T) {
	c := chat("target", "see src/components/UserProfileCard.tsx, call api.getUserById, get_the_value from __init__.py, and the migration of pg_stat_activity")
	c.Title = "Sample.txt migration"
	e := engineOver(t, query.Options{}, fileChanges(
		c,
		chat("apart", "source components, an api to get users, the value of init, a sample text on migrating stats"),
	)...)
	checkConversations(t, e, []convCase{
		{"src/components*", []string{"target"}},
		{"pg_stat_activity*", []string{"target"}},
		{"api.getUser*", []string{"target"}},
		{"components/UserProf*", []string{"target"}},
		{"get_the_val*", []string{"target"}},
		{"the_val*", []string{"apart", "target"}}, // val* alone: found nothing
		{"__init*", []string{"apart", "target"}},
		{"title:sample.tx*", []string{"target"}},
		{"title:migraton~", []string{"target"}},
		{"what calls api.getUserById?", []string{"target"}},
	})
}

// A prefix of joined parts whose last part begins a common word the
// index leaves out ("send_aft*" for send_after) finds it.
func TestJoinedPrefixCommonWord(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "call send_after(5) then api.getUserById"),
		chat("later", "use send_aftermath for the report"),
		chat("apart", "send it after lunch; the api gets users"),
	)...)
	checkPlain(t, e, []convCase{
		{"send_aft*", []string{"later", "target"}},
		{"send_af*", []string{"later", "target"}},
		{"send_after*", []string{"later", "target"}},
		{"api.getUs*", []string{"target"}},
	})
}
