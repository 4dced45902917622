package query_test

import (
	"testing"

	"github.com/convsearch/convsearch/query"
)

// The markers that replace secrets are not words of the text: password
// finds the messages about passwords, not every redacted secret.
func TestRedactionMarkersNotWords(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("secret", "DB_HOST=db1 DB_PASS=[redacted: password], the login admin [redacted: url-password] key [redacted: aws-access-key-id]"),
		chat("about", "how do I reset my password on the router"),
	)...)
	checkPlain(t, e, []convCase{
		{"password", []string{"about"}},
		{"db_host", []string{"secret"}},
		{"login", []string{"secret"}},
		{`"login admin"`, []string{"secret"}},
		{"aws", nil},
		{"url", nil},
		{"redacted", nil},
		// A phrase does not run across a secret.
		{`"admin key"`, nil},
	})
}

// Nor do a marker's words give concepts: a question about a secret word
// does not find a message whose only secret is redacted.
func TestRedactionMarkersNoConcepts(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("secret", "here: DB_PASS=[redacted: password] ok"),
		chat("other", "the weather is nice today"),
	)...)
	checkConversations(t, e, []convCase{
		{"where did I put the secret word?", nil},
		{"what was the watchword?", nil},
	})
}
