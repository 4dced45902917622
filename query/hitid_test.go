package query_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// TestHitIDInRange checks that a hit's id naming a message, decision or
// topic its conversation does not have is an error wherever an id goes,
// not the conversation as if it had been asked for. boot has 4 messages,
// one decision and the topics "bootstrap confidence intervals" and "BCa".
func TestHitIDInRange(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	for _, tt := range []struct {
		id   string
		want string // "" for no error, else a part of the error
	}{
		{"boot", ""},
		{"c/boot", ""},
		{"m/boot/0", ""},
		{"m/boot/3", ""},
		{"m/boot/4", "conversation boot has 4 messages (0 to 3); no message 4 (m/boot/4)"},
		{"m/boot/999", "no message 999"},
		{"d/boot/0", ""},
		{"d/boot/1", "conversation boot has 1 decision (0); no decision 1 (d/boot/1)"},
		{"d/boot/99", "no decision 99"},
		{"d/index/0", "conversation index has no decisions; no decision 0"},
		{"t/boot/bca", ""},
		{"t/boot/nope", `conversation boot has no topic "nope"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			check := func(what string, err error) {
				t.Helper()
				switch {
				case tt.want == "" && err != nil:
					t.Errorf("%s: %v, want no error", what, err)
				case tt.want == "":
				case err == nil:
					t.Errorf("%s: no error, want %q", what, tt.want)
				case !errors.Is(err, query.ErrNotFound) || !strings.Contains(err.Error(), tt.want):
					t.Errorf("%s: %v, want ErrNotFound saying %q", what, err, tt.want)
				}
			}
			_, err := e.Conversation(ctx, tt.id)
			check("Conversation", err)
			_, _, err = e.Load(ctx, tt.id)
			check("Load", err)
			_, err = e.Related(ctx, tt.id, 5)
			check("Related", err)
			_, err = e.Search(ctx, query.Request{Query: "bootstrap", Conversations: []string{tt.id}})
			check("Search in the conversation", err)
		})
	}
	// A conversation filter naming no conversation keeps nothing, as before.
	res, err := e.Search(ctx, query.Request{Query: "bootstrap", Conversations: []string{"m/nope/3"}})
	if err != nil {
		t.Fatalf("Search in m/nope/3: %v", err)
	}
	if len(res.Hits) != 0 {
		t.Errorf("Search in m/nope/3 = %v, want no hits", ids(res))
	}
}

// TestGoneHit: a hit's id past what the file, read again, holds is an
// error naming the file (a message or a decision), counted as not found;
// the conversation's own id, another's and a hit it holds are not.
func TestGoneHit(t *testing.T) {
	c := &conversation.Conversation{ID: "stale-1", File: "/x/stale.json",
		Messages:  []conversation.Message{{Content: "a"}, {Content: "b"}, {Content: "c"}},
		Decisions: []conversation.Decision{{Decision: "use x", MessageIndex: 1}}}
	for _, tt := range []struct {
		id   string
		says string // "" for no error
	}{
		{"stale-1", ""},
		{"m/stale-1/2", ""},
		{"d/stale-1/0", ""},
		{"m/other/9", ""},
		{"m/stale-1/8", "no message 8 in stale-1: it is no longer in /x/stale.json, which has 3 messages (0 to 2) now"},
		{"d/stale-1/4", "no decision 4 in stale-1: it is no longer in /x/stale.json, which has 1 decision (0) now"},
	} {
		err := query.GoneHit(c, tt.id)
		switch {
		case tt.says == "" && err != nil:
			t.Errorf("GoneHit(%s) = %v, want nil", tt.id, err)
		case tt.says != "" && (err == nil || !strings.Contains(err.Error(), tt.says) || !errors.Is(err, query.ErrNotFound)):
			t.Errorf("GoneHit(%s) = %v, want a not-found error saying %q", tt.id, err, tt.says)
		}
	}
}
