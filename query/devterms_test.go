package query_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/query"
)

// Language names written with symbols are words of their own: C++ finds the
// C++ conversation first, not C# or C, quoted or not, and C keeps finding C.
// Accents are folded: cafe finds café and café finds cafe.
func TestDeveloperTerms(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("cpp", "How do I move a std::vector in C++ without a copy?", "Use std::move; C++11 and later."),
		chat("cs", "In C# on .NET 8, how do I await a list of tasks?", "Task.WhenAll."),
		chat("fs", "F# pattern matching on a discriminated union", "Use match ... with."),
		chat("c", "A C program segfaults on free()", "You freed the pointer twice."),
		chat("net", "Network NET admin notes for the office", "The router is in the closet."),
		chat("accent", "We met at the café for a crème brûlée", "Lovely."),
		chat("plain", "The cafe on the corner opens at eight", "Good to know."),
		chat("cjk", "数据库连接池 and カフェ", "ok"),
	)...)
	checkRanked(t, e, []convCase{
		{"C++", []string{"cpp"}},
		{`"C++"`, []string{"cpp"}},
		{"c++ vector", []string{"cpp"}},
		{"C#", []string{"cs"}},
		{`"C#"`, []string{"cs"}},
		{"F#", []string{"fs"}},
		{".NET", []string{"cs"}},
		{"C", []string{"c"}},
		{"net", []string{"net"}},
		{"cafe", []string{"accent", "plain"}},
		{"café", []string{"accent", "plain"}},
		{"creme brulee", []string{"accent"}},
		{"Crème", []string{"accent"}},
		{"カフェ", []string{"cjk"}},
		{"数据库", []string{"cjk"}},
	})
}

// checkRanked checks the conversations each query finds, grouped: want
// is every one, the best first, in order; a last "" says more may follow
// them.
func checkRanked(t *testing.T, e *query.Engine, cases []convCase) {
	t.Helper()
	for _, tt := range cases {
		res, err := e.Search(context.Background(), query.Request{Query: tt.q, Group: true})
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		got := convOrder(res)
		want, more := tt.want, tt.want[len(tt.want)-1] == ""
		if more {
			want = want[:len(want)-1]
		}
		if len(got) < len(want) || !slices.Equal(got[:len(want)], want) || !more && len(got) != len(want) {
			t.Errorf("%s: found %v, want %v", tt.q, got, tt.want)
		}
	}
}

// A highlight shows the text as written: the symbols of C++ and the
// accents of café.
func TestDeveloperTermsHighlight(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("cpp", "Templates in C++ are compiled per use"),
		chat("accent", "Meet me at the café"),
	)...)
	for q, want := range map[string]string{"C++": "<mark>C++</mark>", "cafe": "<mark>café</mark>"} {
		res, err := e.Search(context.Background(), query.Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || len(res.Hits[0].Fragments) == 0 || !strings.Contains(res.Hits[0].Fragments[0], want) {
			t.Errorf("%s: hits %+v, want a fragment with %s", q, res.Hits, want)
		}
	}
}

// A camelCase or PascalCase word in message text is found by its parts
// too, and the word typed whole finds the conversation that has it first.
func TestCamelCaseWords(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("card", "Read src/components/UserProfileCard.tsx and fix getUserById() there", "Done; onClick now calls it."),
		chat("prose", "Get the user by id from the account page", "The card shows the user name."),
		chat("html", "The HTMLParser chokes on utf8Decode output", "Use XMLHttpRequest instead."),
	)...)
	checkRanked(t, e, []convCase{
		{"profile", []string{"card"}},
		{"ProfileCard", []string{"card"}},
		{"UserProfileCard", []string{"card"}},
		{"UserProfileCard.tsx", []string{"card"}},
		{"userprofilecard", []string{"card"}},
		{"user profile card", []string{"card", ""}},
		{"getUserById", []string{"card"}},
		{"getUserByld~", []string{"card"}},
		{"getUser*", []string{"card"}},
		{"getuserbyid", []string{"card"}},
		{`"getUserById"`, []string{"card", ""}},
		{`"fix getUserById there"`, []string{"card"}},
		{"UserById", []string{"card"}},
		{"click", []string{"card"}},
		{"onClick", []string{"card"}},
		{"parser", []string{"html"}},
		{"HTMLParser", []string{"html"}},
		{"decode", []string{"html"}},
		{"http request", []string{"html"}},
	})
}

// A quoted phrase with a camelCase word and common words is checked
// against the stored text like any other.
func TestCamelCasePhrases(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("card", "The UserProfileCard is broken after getUserById of the admin"),
		chat("other", "The UserProfileCard was fine and getUserById for an admin"),
	)...)
	checkConversations(t, e, []convCase{
		{`"UserProfileCard is broken"`, []string{"card"}},
		{`"getUserById of the admin"`, []string{"card"}},
		{`"getUserById for an admin"`, []string{"other"}},
		{`"the UserProfileCard was"`, []string{"other"}},
		{`"user profile card is broken"`, nil},
	})
}
