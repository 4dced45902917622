package query_test

import (
	"context"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/convsearch/convsearch/query"
)

// FuzzSearch runs any text as a query against a small index: the query
// language is read from untrusted callers (HTTP, MCP), so it must never
// panic, and a syntax error must point inside the query.
func FuzzSearch(f *testing.F) {
	for _, seed := range []string{
		"bootstrap confidence", `"connection pool"`, "retry -jitter", "retry NOT jitter", "bleve OR sqlite",
		"(bleve | sqlite) facets", "migrat*", "bootstrp~2", "role:user project:ledger", `title:"retry policy"`,
		"decision:jitter", `"unclosed`, "(a OR", "a)", "OR", "- a", "*", "a*b", "w~3", "()", "type:bogus", "topic:",
		"((((a))))", "a -(b OR -c)", "\x00\xff", "é* ü~", `"is skewed"`, `"for the ledger"`, `decision:"the is"`, `"the a of"`,
	} {
		f.Add(seed)
	}
	e := newEngine(f)
	f.Fuzz(func(t *testing.T, q string) {
		_, err := e.Search(context.Background(), query.Request{Query: q, Limit: 5, Facets: true})
		var se *query.SyntaxError
		if errors.As(err, &se) {
			if se.Pos < 0 || se.Pos > len(q) || se.Msg == "" {
				t.Fatalf("%q: syntax error at %d of %d: %q", q, se.Pos, len(q), se.Msg)
			}
			if utf8.ValidString(q) {
				_ = se.Caret() // must not panic
			}
			return
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%q: %v", q, err)
		}
	})
}
