package query_test

import (
	"testing"

	"github.com/convsearch/convsearch/query"
)

// The parts of a camelCase word typed as a phrase of their own find it
// ("user profile card" finds UserProfileCard), in their order, and only in
// a word the index split: "data base" is not database. The word's
// neighbours in the phrase are its neighbours in the text.
func TestCamelCasePhrase(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("camel", "the UserProfileCard renders twice"),
		chat("open", "open UserProfileCard now"),
		chat("getter", "call api.getUserById there; an HTMLParser too"),
		chat("lower", "userprofilecard in lower case, and the database is down"),
		chat("apart", "a user, then a profile card"),
	)...)
	checkConversations(t, e, []convCase{
		{`"user profile card"`, []string{"camel", "open"}},
		{`"user profile"`, []string{"camel", "open"}},
		{`"profile card"`, []string{"apart", "camel", "open"}},
		{`"open user profile card"`, []string{"open"}},
		{`"user profile card renders"`, []string{"camel"}},
		{`"user profile card now"`, []string{"open"}},
		{`"get user by id"`, []string{"getter"}},
		{`"api get user by id"`, []string{"getter"}},
		{`"html parser"`, []string{"getter"}},
		{`"card profile user"`, nil},
		{`"profile user"`, nil},
		{`"data base"`, nil},
		{`"user profile card renders twice now"`, nil},
		// What the docs promise still holds.
		{"what calls api.getUserById?", []string{"getter"}},
		{"api.getUs*", []string{"getter"}},
		{`"api.getUserById"`, []string{"getter"}},
		{"UserProfileCard", []string{"camel", "lower", "open"}},
	})
}
