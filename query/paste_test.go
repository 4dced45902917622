package query_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// TestPastedText checks that what developers paste (commands with flags,
// code, SQL errors) is searched as its text: the message that has it is
// found, not excluded, and no syntax error stops it.
func TestPastedText(t *testing.T) {
	c := &conversation.Conversation{ID: "paste", Source: "rao", Title: "notes", File: "/fixtures/paste.json",
		Messages: []conversation.Message{
			{Role: conversation.RoleUser, Content: "I ran git commit --no-verify and then git reset --hard HEAD~3 by mistake."},
			{Role: conversation.RoleAssistant, Content: "Use git reflog. And rm -rf node_modules then reinstall; npm test -- --watch=false; gcc -O2 -std=c++17."},
			{Role: conversation.RoleUser, Content: "sqlite3.IntegrityError: NOT NULL constraint failed: users.email; DO NOT MERGE this PR."},
			{Role: conversation.RoleAssistant, Content: "Fixed with console.log() debugging; fn main() {}; SELECT * FROM users; def f(*args, **kwargs); items || []."},
			{Role: conversation.RoleUser, Content: "1) install deps 2) run tests; ssh user@host:~/repo; type: module in package.json."},
			{Role: conversation.RoleAssistant, Content: "The redis cluster and a retry with jitter."},
		}}
	c.Renumber()
	e := engineOver(t, query.Options{}, fileChanges(c)...)
	for _, tt := range []struct {
		q    string
		want string // the message to find first ("among ID": found), "" for none
	}{
		{"git commit --no-verify", "m:paste#0"},
		{"--no-verify", "m:paste#0"},
		{"git reset --hard HEAD~3", "m:paste#0"},
		{"HEAD~3", "m:paste#0"},
		{"rm -rf node_modules", "m:paste#1"},
		{"--watch=false", "m:paste#1"},
		{"gcc -O2 -std=c++17", "m:paste#1"},
		{"NOT NULL constraint failed", "m:paste#2"},
		{"NOT NULL constraint failed: users.email", "m:paste#2"},
		{"DO NOT MERGE", "m:paste#2"},
		{"console.log()", "m:paste#3"},
		{"fn main() {}", "m:paste#3"},
		{"SELECT * FROM users", "m:paste#3"},
		{"def f(*args, **kwargs)", "m:paste#3"},
		{"**kwargs", "m:paste#3"},
		{"items || []", "m:paste#3"},
		{"1) install deps 2) run tests", "among m:paste#4"}, // ranked as a question
		{"user@host:~/repo", "among m:paste#4"},
		{"type: module", "m:paste#4"},
		// The documented syntax still works.
		{"retry -cluster", ""},
		{"redis -jitter", ""},
		{"redis NOT jitter", ""},
		{"redis cluster", "m:paste#5"},
		{"redis -(jitter OR retry)", ""},
		{`retry -"redis cluster"`, ""},
		{"reflo*", "m:paste#1"},
		{"jiter~", "m:paste#5"},
		{"jiter~1", "m:paste#5"},
		{"(jitter | reflog) retry", "m:paste#5"},
		{"type:message jitter", "m:paste#5"},
	} {
		res, err := e.Search(context.Background(), query.Request{Query: tt.q, Types: []string{"message"}})
		if err != nil {
			t.Errorf("%q: %v", tt.q, err)
			continue
		}
		got := ids(res)
		if tt.want == "" {
			if len(got) != 0 {
				t.Errorf("%q: %v, want nothing", tt.q, got)
			}
			continue
		}
		if among, ok := strings.CutPrefix(tt.want, "among "); ok {
			if !slices.Contains(got, among) {
				t.Errorf("%q: %v, want %s among them", tt.q, got, among)
			}
			continue
		}
		if len(got) == 0 || got[0] != tt.want {
			t.Errorf("%q: %v, want %s first", tt.q, got, tt.want)
		}
	}
}

// TestPastedParse checks how the parser reads dashes, NOT, '*', '~' and
// parentheses: as syntax where they are written as such, as text where
// they are part of pasted text.
func TestPastedParse(t *testing.T) {
	w := func(s string) query.Node { return &query.Term{Text: s} }
	not := func(n query.Node) query.Node { return &query.Not{Clause: n} }
	and := func(ns ...query.Node) query.Node { return &query.And{Clauses: ns} }
	for _, tt := range []struct {
		q    string
		want query.Node
	}{
		{"--no-verify", w("--no-verify")},
		{"git --no-verify", and(w("git"), w("--no-verify"))},
		{"rm -rf x", and(w("rm"), w("-rf"), w("x"))},
		{"ls -la", and(w("ls"), w("-la"))},
		{"-rf", and(not(w("rf")))},                             // nothing before: an exclusion (refused alone)
		{"redis -cluster", and(w("redis"), not(w("cluster")))}, // four letters or more: an exclusion
		{"redis NOT go", and(w("redis"), not(w("go")))},        // NOT for a short one
		{"java -Xmx=4g", and(w("java"), w("-Xmx=4g"))},
		{"e-mail", w("e-mail")},
		{"- apple", and(w("-"), w("apple"))},
		{"NOT NULL constraint", and(w("NOT"), w("NULL"), w("constraint"))},
		{"x IS NOT NULL", and(w("x"), w("IS"), w("NOT"), w("NULL"))},
		{"DO NOT MERGE", and(w("DO"), w("NOT"), w("MERGE"))},
		{"kafka NOT AWS", and(w("kafka"), not(w("AWS")))},
		{"NOT jitter", and(not(w("jitter")))},
		{"console.log()", and(w("console.log"), w("("), w(")"))},
		{"a) b", and(w("a"), w(")"), w("b"))},
		{"*", w("*")},
		{"a*b", w("a*b")},
		{"**kwargs", w("**kwargs")},
		{"boot*", &query.Term{Text: "boot", Prefix: true}},
		{"HEAD~3", w("HEAD~3")},
		{"HEAD~1", w("HEAD~1")},
		{"ECONNREFUSD~", &query.Term{Text: "ECONNREFUSD", Fuzziness: 1}},
		{"bootstrp~2", &query.Term{Text: "bootstrp", Fuzziness: 2}},
		{"word~3", w("word~3")},
		{"~/repo", w("~/repo")},
		{"items || []", and(w("items"), w("||"), w("[]"))},
		{"type: module", and(w("type:"), w("module"))},
	} {
		got, err := query.Parse(tt.q)
		if err != nil {
			t.Errorf("%q: %v", tt.q, err)
			continue
		}
		clearPos(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %s, want %s", tt.q, show(got), show(tt.want))
		}
	}
}

func clearPos(n query.Node) {
	switch n := n.(type) {
	case *query.And:
		for _, c := range n.Clauses {
			clearPos(c)
		}
	case *query.Or:
		for _, c := range n.Clauses {
			clearPos(c)
		}
	case *query.Not:
		clearPos(n.Clause)
	case *query.Term:
		n.Pos = 0
	case *query.Phrase:
		n.Pos = 0
	}
}

func show(n query.Node) string {
	switch n := n.(type) {
	case *query.And:
		var s []string
		for _, c := range n.Clauses {
			s = append(s, show(c))
		}
		return "AND(" + strings.Join(s, " ") + ")"
	case *query.Not:
		return "NOT(" + show(n.Clause) + ")"
	case *query.Term:
		s := n.Text
		if n.Prefix {
			s += "*"
		}
		if n.Fuzziness > 0 {
			s += "~" + string(rune('0'+n.Fuzziness))
		}
		return "[" + s + "]"
	}
	return "?"
}

// TestPastedRefusals checks what is still refused: a query that only
// excludes, and syntax errors, each saying how to search for the text as
// written.
func TestPastedRefusals(t *testing.T) {
	e := newEngine(t)
	for _, tt := range []struct{ q, says string }{
		{"-rf", "only says what must not match"},
		{"-jitter -bootstrap", "only says what must not match"},
		{"DO NOT bleve", "only says what must not match"},
		{"the -bleve", "only says what must not match"},
		{"react OR -vue", "as one side of an OR"},
		{"react OR NOT vue", "as one side of an OR"},
		{"(a OR b", `put it in double quotes: "(a OR b"`},
		{"a OR", `put it in double quotes: "a OR"`},
		{"OR a", `put it in double quotes: "OR a"`},
		{"bleve NOT", `put it in double quotes: "bleve NOT"`},
		{`"unclosed`, `without its own: "unclosed"`},
		{"role:bogus", `put it in double quotes: "role:bogus"`},
		{"type:bogus", `put it in double quotes: "type:bogus"`},
		{"-rf", `put it in double quotes: "-rf"`},
	} {
		_, err := e.Search(context.Background(), query.Request{Query: tt.q})
		var se *query.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a syntax error", tt.q, err)
			continue
		}
		if !strings.Contains(se.Msg, tt.says) {
			t.Errorf("%q: %q, want it to say %q", tt.q, se.Msg, tt.says)
		}
	}
	// With a filter, exclusions list what the filter keeps but them.
	if _, err := e.Search(context.Background(), query.Request{Query: "-jitter type:conversation"}); err != nil {
		t.Errorf("-jitter type:conversation: %v", err)
	}
}
