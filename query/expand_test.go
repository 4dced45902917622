package query

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// expandEngine returns an engine over one conversation whose messages hold
// 26 words starting with "zet" (zetab…zetaz, one message each) and the
// words "alpha" and "beta" in 20 messages each.
func expandEngine(t *testing.T) *Engine {
	t.Helper()
	var texts []string
	for i := range 26 {
		text := fmt.Sprintf("zeta%s note", strings.Repeat(string(rune('a'+i)), 3))
		if i < 20 {
			text += " alpha beta"
		}
		texts = append(texts, text)
	}
	return messagesEngine(t, texts)
}

// messagesEngine returns an engine over one conversation of user messages
// holding texts, in that order.
func messagesEngine(t *testing.T, texts []string) *Engine {
	t.Helper()
	ix, err := indexer.Open(indexer.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	day := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	c := &conversation.Conversation{ID: "x", Source: "rao", Title: "Words", Date: day, Project: "p", File: "/fixtures/x.json"}
	for _, text := range texts {
		c.Messages = append(c.Messages, conversation.Message{Role: conversation.RoleUser, Content: text, Timestamp: day})
	}
	c.Renumber()
	if err := ix.Apply(context.Background(), []indexer.Change{{State: indexer.FileState{Path: c.File, Parser: c.Source}, Conversations: []*conversation.Conversation{c}}}); err != nil {
		t.Fatal(err)
	}
	e, err := New(ix, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestPrefixCap: a query whose prefixes expand past the caps (lowered here
// to 10 terms and 30 places) is refused as a syntax error at the prefix
// that passed them, asking for more letters; one within them finds what it
// finds without the caps.
func TestPrefixCap(t *testing.T) {
	e := expandEngine(t)
	saved := prefixCaps
	t.Cleanup(func() { prefixCaps = saved })
	for _, tt := range []struct {
		q       string
		refused int // the byte offset of the prefix refused; -1: none
	}{
		{"zet*", 0},               // 26 terms
		{"alp*", -1},              // 1 term in 20 places
		{"zetaaa*", -1},           // 1 term
		{"alp* bet*", 5},          // 20 places each, 40 together
		{"alp* zzzz", -1},         // found nowhere whole: relaxed, alp* counted once
		{"note alp* OR zet*", 13}, // the terms
		{"title:zet*", -1},        // not in titles
		{"decision:zet*", -1},
	} {
		t.Run(tt.q, func(t *testing.T) {
			prefixCaps = saved
			want, err := e.Search(context.Background(), Request{Query: tt.q})
			if err != nil {
				t.Fatalf("without the lowered caps: %v", err)
			}
			prefixCaps.terms, prefixCaps.postings = 10, 30
			got, err := e.Search(context.Background(), Request{Query: tt.q})
			if tt.refused < 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got.Total != want.Total || !slices.Equal(hitIDs(got), hitIDs(want)) {
					t.Errorf("got %d hits %v, want %d %v", got.Total, hitIDs(got), want.Total, hitIDs(want))
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, %v; want a syntax error", got, err)
			}
			if se.Pos != tt.refused || !strings.Contains(se.Msg, "give it more letters") {
				t.Errorf("error at %d: %v; want at %d, asking for more letters", se.Pos, se, tt.refused)
			}
		})
	}
}

func hitIDs(res *Result) []string {
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}
