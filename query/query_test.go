package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// fixture is a small, hand-made corpus whose every count is known.
func fixture() []*conversation.Conversation {
	day := func(d int) time.Time { return time.Date(2025, 3, d, 9, 0, 0, 0, time.UTC) }
	msg := func(role conversation.Role, text string, ts time.Time) conversation.Message {
		return conversation.Message{Role: role, Content: text, Timestamp: ts}
	}
	u, a := conversation.RoleUser, conversation.RoleAssistant
	convs := []*conversation.Conversation{
		{
			ID: "boot", Source: "rao", Title: "Bootstrap confidence intervals for skewed revenue", Date: day(1), Project: "analytics",
			Messages: []conversation.Message{
				msg(u, "Should we use the percentile bootstrap or BCa for the revenue confidence intervals?", day(1)),
				msg(a, "The revenue data is heavily skewed, so the percentile method undercovers. BCa corrects bias and skewness.", day(1)),
				msg(u, "OK, we'll use BCa because the distribution is skewed.", day(1)),
				msg(a, "Running 10000 resamples now with the boot package.", day(1)),
			},
			Topics:    []conversation.Topic{{Name: "bootstrap confidence intervals", Origin: conversation.OriginExplicit}, {Name: "BCa", Origin: conversation.OriginExplicit}},
			Decisions: []conversation.Decision{{Decision: "use BCa intervals", Rationale: "the distribution is skewed", MessageIndex: 2, Origin: conversation.OriginExplicit, Timestamp: day(1)}},
		},
		{
			ID: "retry", Source: "studio", Title: "Retry policy for the ledger sync worker", Date: day(10), Project: "ledger",
			Messages: []conversation.Message{
				msg(u, "The ledger API returns 503 under load. How should the worker retry?", day(10)),
				msg(a, "Use exponential backoff with full jitter, capped at 30 seconds.", day(10)),
				msg(u, "Let's go with exponential backoff and jitter.", day(10)),
			},
			Topics:    []conversation.Topic{{Name: "exponential backoff", Origin: conversation.OriginExtracted}},
			Decisions: []conversation.Decision{{Decision: "exponential backoff with full jitter", Rationale: "avoid thundering herd", MessageIndex: 2, Origin: conversation.OriginExtracted, Timestamp: day(10)}},
		},
		{
			ID: "index", Source: "claude-code", Title: "Choosing a local search index", Date: day(20), Project: "convsearch",
			Messages: []conversation.Message{
				msg(u, "Bleve or SQLite FTS5 for searching conversations locally?", day(20)),
				msg(a, "Bleve gives highlighting and facets; FTS5 is smaller. For phrase search both work.", day(20)),
				{Role: conversation.RoleSystem, Content: "<environment_context>cwd /home/me/convsearch</environment_context>", Hidden: true, Timestamp: day(20)},
				msg(u, "We decided to use Bleve since we need facets.", day(20)),
				{Role: a, Content: "Done.", Timestamp: day(20), ToolCalls: []conversation.ToolCall{{Name: "Bash", Arguments: `{"command":"go get github.com/blevesearch/bleve/v2"}`}}},
			},
			Topics: []conversation.Topic{{Name: "bleve", Origin: conversation.OriginExtracted}, {Name: "exponential backoff", Origin: conversation.OriginExtracted}},
		},
	}
	for _, c := range convs {
		c.Renumber()
		c.File = "/fixtures/" + c.ID + ".json"
	}
	return convs
}

func newEngine(t testing.TB) *query.Engine {
	t.Helper()
	return newEngineOpts(t, query.Options{})
}

// ids renders hits as kind:conversation[#index], sorted, for comparison.
// messageCase is a query and the message hits it finds.
type messageCase struct {
	q    string
	want []string
}

// checkMessageHits runs each query over messages only and compares the
// hits' ids with want: in order, or as a set when anyOrder.
func checkMessageHits(t *testing.T, e *query.Engine, tests []messageCase, anyOrder bool) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			res, err := e.Search(context.Background(), query.Request{Query: tt.q, Types: []string{"message"}})
			if err != nil {
				t.Fatal(err)
			}
			got, want := ids(res), tt.want
			if anyOrder {
				slices.Sort(got)
				want = slices.Sorted(slices.Values(want))
			}
			if !slices.Equal(got, want) {
				t.Errorf("Search(%q) = %v, want %v", tt.q, got, want)
			}
		})
	}
}

// firstCase is a question, the conversation it should find first and
// whether its result is relaxed (no document holds every content word).
type firstCase struct {
	q, want string
	relaxed bool
}

// checkFirstConversation runs each query grouped and checks the first
// conversation and Relaxed.
func checkFirstConversation(t *testing.T, e *query.Engine, tests []firstCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			res, err := e.Search(context.Background(), query.Request{Query: tt.q, Group: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || res.Hits[0].ConversationID != tt.want {
				t.Fatalf("first conversation of %v, want %s", ids(res), tt.want)
			}
			if res.Relaxed != tt.relaxed {
				t.Errorf("Relaxed = %v, want %v", res.Relaxed, tt.relaxed)
			}
		})
	}
}

func ids(res *query.Result) []string {
	out := make([]string, 0, len(res.Hits))
	for _, h := range res.Hits {
		s := h.Kind[:1] + ":" + h.ConversationID
		if h.Kind == indexer.KindMessage && h.MessageIndex != nil {
			s += fmt.Sprintf("#%d", *h.MessageIndex)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestSearch(t *testing.T) {
	e := newEngine(t)
	since := time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		req  query.Request
		want []string
	}{
		{"stemmed word", query.Request{Query: "resamples", Types: []string{"message"}}, []string{"m:boot#3"}},
		{"all words must match", query.Request{Query: "bleve facets", Types: []string{"message"}}, []string{"m:index#1", "m:index#3"}},
		{"phrase", query.Request{Query: `"full jitter"`}, []string{"d:retry", "m:retry#1"}},
		{"phrase in order only", query.Request{Query: `"jitter full"`}, []string{}},
		// The index drops stop words; a phrase keeps them.
		{"phrase with a leading stop word", query.Request{Query: `"for the ledger"`}, []string{"c:retry"}},
		{"phrase with a stop word before the last", query.Request{Query: `"is skewed"`}, []string{"d:boot", "m:boot#2"}},
		{"phrase of stop words around a word", query.Request{Query: `"the ledger"`, Types: []string{"message"}}, []string{"m:retry#0"}},
		{"phrase with a wrong stop word", query.Request{Query: `"are skewed"`}, []string{}},
		{"phrase in a field, stop words kept", query.Request{Query: `decision:"is skewed"`}, []string{"d:boot"}},
		{"phrase in a field, wrong stop word", query.Request{Query: `decision:"was skewed"`}, []string{}},
		{"negation", query.Request{Query: "bleve -facets", Types: []string{"message"}}, []string{"m:index#0", "m:index#4"}},
		{"OR", query.Request{Query: "resamples OR 503"}, []string{"m:boot#3", "m:retry#0"}},
		{"grouping", query.Request{Query: "(resamples OR 503) ledger", Types: []string{"message"}}, []string{"m:retry#0"}},
		{"prefix", query.Request{Query: "resampl*"}, []string{"m:boot#3"}},
		{"fuzzy", query.Request{Query: "jiter~", Types: []string{"message"}}, []string{"m:retry#1", "m:retry#2"}},
		{"role field", query.Request{Query: "bleve role:user"}, []string{"m:index#0", "m:index#3"}},
		{"role filter", query.Request{Query: "bleve", Roles: []string{"assistant"}}, []string{"m:index#1", "m:index#4"}},
		{"project field", query.Request{Query: "project:ledger type:conversation"}, []string{"c:retry"}},
		{"source filter", query.Request{Query: "skewed", Sources: []string{"rao"}, Types: []string{"message"}}, []string{"m:boot#1", "m:boot#2"}},
		{"type decision", query.Request{Query: "type:decision"}, []string{"d:boot", "d:retry"}},
		{"decision field", query.Request{Query: "decision:jitter"}, []string{"d:retry"}},
		{"topic field joins to conversations", query.Request{Query: "topic:backoff role:user"}, []string{"m:index#0", "m:index#3", "m:retry#0", "m:retry#2"}},
		{"title field joins to conversations", query.Request{Query: "title:ledger decided OR jitter", Types: []string{"message"}}, []string{"m:retry#1", "m:retry#2"}},
		{"since", query.Request{Query: "type:conversation", Since: since}, []string{"c:index", "c:retry"}},
		{"until", query.Request{Query: "type:conversation", Until: since}, []string{"c:boot"}},
		{"tool name", query.Request{Query: "tool:Bash"}, []string{"m:index#4"}},
		{"tool name in any case", query.Request{Query: "tool:bash"}, []string{"m:index#4"}},
		{"tool name prefix in any case", query.Request{Query: "tool:BA*"}, []string{"m:index#4"}},
		{"hidden kept by default", query.Request{Query: "environment_context"}, []string{"m:index#2"}},
		{"hidden excluded", query.Request{Query: "environment_context", ExcludeHidden: true}, []string{}},
		{"stop words only match nothing special", query.Request{Query: "the", Types: []string{"conversation"}}, []string{"c:boot", "c:index", "c:retry"}},
		{"id field", query.Request{Query: "id:retry type:topic"}, []string{"t:retry"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Limit = 50
			res, err := e.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(res); !slices.Equal(got, tt.want) {
				t.Errorf("Search(%q) = %v, want %v", tt.req.Query, got, tt.want)
			}
			if res.Total != uint64(len(tt.want)) {
				t.Errorf("Total = %d, want %d", res.Total, len(tt.want))
			}
		})
	}
}

// TestPhraseOfStopWords checks that a quoted phrase of only common words,
// which the index does not hold, is refused rather than matching everything.
func TestPhraseOfStopWords(t *testing.T) {
	e := newEngine(t)
	for _, q := range []string{`"to be or not to be"`, `bleve "is it"`, `"the"`} {
		_, err := e.Search(context.Background(), query.Request{Query: q, Limit: 5})
		var se *query.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Search(%q) error %v, want a syntax error", q, err)
			continue
		}
		if !strings.Contains(se.Msg, "common words") || q[se.Pos] != '"' {
			t.Errorf("Search(%q): %q at %d, want the common-words message at the phrase", q, se.Msg, se.Pos)
		}
	}
	// Punctuation alone is no phrase: still nothing to search for, no error.
	if _, err := e.Search(context.Background(), query.Request{Query: `bleve "--"`, Limit: 5}); err != nil {
		t.Errorf(`Search("bleve \"--\""): %v`, err)
	}
}

func TestRelaxedFallback(t *testing.T) {
	e := newEngine(t)
	res, err := e.Search(context.Background(), query.Request{Query: "why did we pick BCa over the percentile bootstrap"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Relaxed {
		t.Error("no document has every word, yet the result is not marked relaxed")
	}
	if len(res.Hits) == 0 || res.Hits[0].ConversationID != "boot" {
		t.Fatalf("top hit %v, want the bootstrap conversation", ids(res))
	}
	// A query whose words all match somewhere is not relaxed.
	res, err = e.Search(context.Background(), query.Request{Query: "percentile bootstrap"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Relaxed {
		t.Error("relaxed although documents match every word")
	}
}

func TestRankingBoostsTitlesAndTopics(t *testing.T) {
	e := newEngine(t)
	res, err := e.Search(context.Background(), query.Request{Query: "bootstrap"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Kind == indexer.KindMessage {
		t.Errorf("top hit for a title/topic word is %v; want the conversation or its topic first", ids(res))
	}
}

func TestHighlightFragmentsContainMatchedWords(t *testing.T) {
	e := newEngine(t)
	res, err := e.Search(context.Background(), query.Request{Query: "skewed", Types: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range res.Hits {
		if len(h.Fragments) == 0 {
			t.Errorf("hit %s has no fragment", h.ID)
			continue
		}
		if !strings.Contains(h.Fragments[0], "<mark>skewed</mark>") {
			t.Errorf("fragment %q does not mark the matched word", h.Fragments[0])
		}
		if h.Title == "" || h.File == "" || h.Date.IsZero() {
			t.Errorf("hit %s lacks its conversation's title, file or date: %+v", h.ID, h)
		}
	}
}

// TestPhraseHighlightsStopWords checks that a phrase's stop words, which the
// index does not hold, are marked with the rest of the match.
func TestPhraseHighlightsStopWords(t *testing.T) {
	e := newEngine(t)
	res, err := e.Search(context.Background(), query.Request{Query: `"for the ledger"`})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || len(res.Hits[0].Fragments) == 0 {
		t.Fatalf("hits %v, want one with a fragment", ids(res))
	}
	frag := res.Hits[0].Fragments[0]
	for _, w := range []string{"for", "the", "ledger"} {
		if !strings.Contains(frag, "<mark>"+w+"</mark>") {
			t.Errorf("fragment %q does not mark %q", frag, w)
		}
	}
	// Only where the whole phrase is: not "ledger" elsewhere in the text.
	res, err = e.Search(context.Background(), query.Request{Query: `"is skewed"`, Types: []string{"decision"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || len(res.Hits[0].Fragments) == 0 {
		t.Fatalf("hits %v, want one with a fragment", ids(res))
	}
	if frag := res.Hits[0].Fragments[0]; strings.Count(frag, "<mark>") != 2 {
		t.Errorf("fragment %q marks other than the two words of the phrase", frag)
	}
}

func TestFacets(t *testing.T) {
	e := newEngine(t)
	res, err := e.Search(context.Background(), query.Request{Query: "bleve OR bootstrap", Facets: true, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	count := func(facet, value string) int {
		for _, f := range res.Facets[facet] {
			if f.Value == value {
				return f.Count
			}
		}
		return 0
	}
	// Count the hits themselves and compare with the facets.
	if len(res.Hits) == 0 {
		t.Fatal("no hits: the facets below would be compared with nothing")
	}
	want := map[string]int{}
	for _, h := range res.Hits {
		want["type/"+h.Kind]++
		want["source/"+h.Source]++
	}
	for key, n := range want {
		facet, value, _ := strings.Cut(key, "/")
		if got := count(facet, value); got != n {
			t.Errorf("facet %s=%s: %d, want %d", facet, value, got, n)
		}
	}
	if uint64(len(res.Hits)) != res.Total {
		t.Fatalf("limit too small for this test: %d of %d", len(res.Hits), res.Total)
	}
}

func TestSortAndPaging(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	res, err := e.Search(ctx, query.Request{Query: "type:conversation", Sort: query.SortNewest})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, h := range res.Hits {
		order = append(order, h.ConversationID)
	}
	if want := []string{"index", "retry", "boot"}; !slices.Equal(order, want) {
		t.Errorf("newest first: %v, want %v", order, want)
	}
	res, err = e.Search(ctx, query.Request{Query: "type:conversation", Sort: query.SortOldest, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hits[0].ConversationID != "boot" {
		t.Fatalf("oldest: %s", res.Hits[0].ConversationID)
	}
	next, err := e.Search(ctx, query.Request{Query: "type:conversation", Sort: query.SortOldest, Limit: 1, After: res.Hits[0].Sort})
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Hits) != 1 || next.Hits[0].ConversationID != "retry" {
		t.Errorf("search-after gave %v, want retry", ids(next))
	}
	off, err := e.Search(ctx, query.Request{Query: "type:conversation", Sort: query.SortOldest, Limit: 1, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if off.Hits[0].ConversationID != "retry" {
		t.Errorf("offset 1 gave %v, want retry", ids(off))
	}

	// Paging every hit one at a time with After gives each once, in the
	// order of one big page, and the cursors are printable.
	every := []string{"conversation", "message", "topic", "decision"} // an empty query needs a filter
	all, err := e.Search(ctx, query.Request{Types: every, Sort: query.SortNewest, Limit: query.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var paged []string
	var after []string
	for range len(all.Hits) + 1 {
		page, err := e.Search(ctx, query.Request{Types: every, Sort: query.SortNewest, Limit: 1, After: after})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Hits) == 0 {
			break
		}
		h := page.Hits[0]
		for _, v := range h.Sort {
			if strings.IndexFunc(v, func(r rune) bool { return !unicode.IsPrint(r) || r == ',' }) >= 0 {
				t.Fatalf("cursor %q of %s is not printable", v, h.ID)
			}
		}
		paged, after = append(paged, h.ID), h.Sort
	}
	if got, want := paged, hitIDs(all); !slices.Equal(got, want) {
		t.Errorf("paged with after:\n%v\nwant\n%v", got, want)
	}
	if rel, _ := e.Search(ctx, query.Request{Query: "retry"}); len(rel.Hits) == 0 || rel.Hits[0].Sort != nil {
		t.Errorf("relevance hits carry a cursor they cannot be paged with: %+v", rel.Hits)
	}
}

func hitIDs(r *query.Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.ID)
	}
	return out
}

func TestGroup(t *testing.T) {
	e := newEngine(t)
	res, err := e.Search(context.Background(), query.Request{Query: "bleve OR backoff OR bootstrap", Group: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	total := 0
	for _, h := range res.Hits {
		if seen[h.ConversationID] {
			t.Errorf("conversation %s appears twice in a grouped result", h.ConversationID)
		}
		seen[h.ConversationID] = true
		total += h.Count
	}
	if len(seen) != 3 {
		t.Errorf("%d conversations, want 3", len(seen))
	}
	if uint64(total) != res.Total {
		t.Errorf("group counts add up to %d, want the %d hits", total, res.Total)
	}
}

func TestSyntaxErrors(t *testing.T) {
	e := newEngine(t)
	tests := []struct {
		q   string
		pos int
		msg string
	}{
		{`"unclosed`, 0, "unclosed quote"},
		{`(a OR b`, 0, "unclosed '('"},
		{`a)`, 0, "nothing to search for"}, // a ')' that closes nothing is text: "1) install"
		{`a OR`, 2, "OR needs something"},
		{`OR a`, 0, "OR needs something"},
		{`- apple`, 0, ""}, // "- apple" is a dash word and a word: not an error
		{`apple -`, 6, ""},
		// Nothing the index holds: not every document.
		{`a -`, 0, "nothing to search for"},
		{`what is it?`, 0, "nothing to search for"},
		{`!!! 🎉`, 0, "nothing to search for"},
		{`role:`, -1, ""}, // a word, as "Note:" is: "type: module"
		{`type:bogus`, 0, "type:bogus"},
		{`*`, 0, "nothing to search for"}, // text: "SELECT * FROM"
		{`a*b`, -1, ""},                   // text: "**kwargs"
		{`word~3`, -1, ""},                // text: "HEAD~3"
		{`(a OR b`, 0, `put it in double quotes: "(a OR b"`},
		{`()`, 0, "nothing to search for"}, // text: "console.log()"
		// Limits: no query may cost without bound.
		{strings.Repeat("a* ", 8) + "b*", 24, "too many prefix"},
		{strings.Repeat("a~ ", 8) + "b*", 24, "too many prefix"},
		{strings.Repeat("a* ", 8), -1, ""}, // eight is allowed
		{strings.Repeat("w ", query.MaxQueryParts) + "last", 2 * query.MaxQueryParts, "too many words"},
		{strings.Repeat("w ", query.MaxQueryParts), -1, ""},
		{strings.Repeat("x", query.MaxQueryBytes+1), query.MaxQueryBytes - 1, "too long"},
		{"a " + strings.Repeat("r", query.MaxFuzzyRunes+1) + "~2", 2, "fuzzy (~) word is at most"}, // found by FuzzSearch
		{strings.Repeat("r", query.MaxFuzzyRunes) + "~2", -1, ""},
	}
	for _, tt := range tests {
		_, err := e.Search(context.Background(), query.Request{Query: tt.q})
		var se *query.SyntaxError
		if tt.msg == "" {
			if errors.As(err, &se) {
				t.Errorf("%q: unexpected syntax error %v", tt.q, err)
			}
			continue
		}
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a SyntaxError", tt.q, err)
			continue
		}
		if se.Pos != tt.pos || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: %v (pos %d), want %q at %d", tt.q, se, se.Pos, tt.msg, tt.pos)
		}
	}
}

func TestRequestValidation(t *testing.T) {
	e := newEngine(t)
	bad := []query.Request{
		{Query: "x", Limit: -1},
		{Query: "x", Limit: query.MaxLimit + 1},
		{Query: "x", Sort: "random"},
		{Query: "x", Types: []string{"file"}},
		{Query: "x", Since: time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Query: "x", Offset: -3},
		{Query: "x", Offset: query.MaxOffset + 1},
		{Query: "x", Offset: 1<<63 - 1}, // Bleve panicked making offset+limit slots
		{Query: "x", After: []string{"1"}},
		// Cursors: one value of two (Bleve would panic), not ours, and a
		// grouped search.
		{Query: "x", Sort: query.SortNewest, After: []string{"x"}},
		{Query: "x", Sort: query.SortNewest, After: []string{"x", "_score"}},
		{Query: "x", Sort: query.SortNewest, After: []string{"bS9jLzE", "not base64!"}},
		{Query: "x", Sort: query.SortNewest, After: []string{"IAEYQA", "bS9jLzE", "bS9jLzE"}},
		{Query: "x", Sort: query.SortNewest, Group: true, After: []string{"IAEYQA", "bS9jLzE"}},
		// Nothing asked for: not every document.
		{},
		{Query: "   \t\n"},
		{Sort: query.SortNewest, Facets: true, ExcludeHidden: true},
	}
	for _, r := range bad {
		if _, err := e.Search(context.Background(), r); err == nil {
			t.Errorf("Search(%+v) accepted a bad request", r)
		}
	}
	// An empty query with a filter lists what the filter keeps.
	day := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	for _, r := range []query.Request{
		{Types: []string{"conversation"}},
		{Query: " ", Projects: []string{"ledger"}},
		{Sources: []string{"rao"}},
		{Roles: []string{"user"}},
		{Conversations: []string{"retry"}},
		{Since: day},
		{Until: day},
	} {
		if res, err := e.Search(context.Background(), r); err != nil || len(res.Hits) == 0 {
			t.Errorf("Search(%+v): %v, want hits", r, err)
		}
	}
}

func TestTopicsDecisionsAndMessages(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	topics, err := e.Topics(ctx, query.TopicsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) != 4 || topics[0].Name != "exponential backoff" || topics[0].Conversations != 2 {
		t.Errorf("topics = %+v, want exponential backoff (2) first of 4", topics)
	}
	topics, err = e.Topics(ctx, query.TopicsRequest{Projects: []string{"analytics"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) != 2 {
		t.Errorf("topics of analytics = %+v, want 2", topics)
	}

	dec, err := e.Decisions(ctx, query.DecisionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dec.Hits) != 2 || dec.Hits[0].ConversationID != "retry" || dec.Hits[0].Rationale == "" || dec.Hits[0].Text == "" {
		t.Errorf("decisions = %+v, want the newest (retry) first with text and rationale", dec.Hits)
	}
	dec, err = e.Decisions(ctx, query.DecisionsRequest{Query: "skewed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(dec.Hits) != 1 || dec.Hits[0].ConversationID != "boot" {
		t.Errorf("decisions matching 'skewed' = %v", ids(dec))
	}

	msgs, err := e.Messages(ctx, "boot", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Index != 1 || msgs[1].Index != 2 {
		t.Errorf("Messages(boot, 1, 2) = %+v", msgs)
	}
	if _, err := e.Conversation(ctx, "nope"); !errors.Is(err, query.ErrNotFound) {
		t.Errorf("Conversation(nope) = %v, want ErrNotFound", err)
	}
	// Without a Source, Load rebuilds the conversation from the index.
	c, fromIndex, err := e.Load(ctx, "retry")
	if err != nil {
		t.Fatal(err)
	}
	if !fromIndex || len(c.Messages) != 3 || c.Messages[2].Content != "Let's go with exponential backoff and jitter." {
		t.Errorf("Load(retry) = %+v (from index %v)", c, fromIndex)
	}
	rel, err := e.Related(ctx, "retry", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(rel.Hits) == 0 || rel.Hits[0].ConversationID != "index" {
		t.Errorf("related to retry: %v, want index (shares a topic) first", ids(rel))
	}
	for _, h := range rel.Hits {
		if h.ConversationID == "retry" {
			t.Error("a conversation is related to itself")
		}
	}
}

func TestParseWhen(t *testing.T) {
	now := time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2025-01-31", time.Date(2025, 1, 31, 0, 0, 0, 0, time.UTC)},
		{"2025-01-31T10:00:00Z", time.Date(2025, 1, 31, 10, 0, 0, 0, time.UTC)},
		// Without a zone, UTC.
		{"2025-01-31T10:00:00", time.Date(2025, 1, 31, 10, 0, 0, 0, time.UTC)},
		{"2025-06-30T23:59", time.Date(2025, 6, 30, 23, 59, 0, 0, time.UTC)},
		// A minute with a zone.
		{"2025-07-01T06:30+02:00", time.Date(2025, 7, 1, 4, 30, 0, 0, time.UTC)},
		{"2025-07-01 06:30-05:00", time.Date(2025, 7, 1, 11, 30, 0, 0, time.UTC)},
		{"2025-07-01T06:30Z", time.Date(2025, 7, 1, 6, 30, 0, 0, time.UTC)},
		// A month, a year: their start.
		{"2025-02", time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)},
		{"2025", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"7d", now.AddDate(0, 0, -7)},
		{"36h", now.Add(-36 * time.Hour)},
		{"2w", now.AddDate(0, 0, -14)},
		{"3mo", now.AddDate(0, -3, 0)},
		{"1y", now.AddDate(-1, 0, 0)},
		{"90m", now.Add(-90 * time.Minute)},
		{"0d", now},
		// Past what a Duration holds (292 years), and past any index:
		// counted by the calendar, then held at 10000 years back.
		{"2562048h", now.AddDate(0, 0, -2562048/24)},
		{"2562047h", now.Add(-2562047 * time.Hour)},
		{"9223372036854775807y", now.AddDate(-10000, 0, 0)},
		{"99999999999999999999999d", now.AddDate(-10000, 0, 0)},
		{"9223372036854775807mo", now.AddDate(-10000, 0, 0)},
		{"9223372036854775807m", now.AddDate(-10000, 0, 0)},
	}
	for _, tt := range tests {
		got, err := query.ParseWhen(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseWhen(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"yesterday", "7x", "-3d", "2025-13-01", "25", "20250", "2025-07-01T06:30+2"} {
		if _, err := query.ParseWhen(bad, now); err == nil {
			t.Errorf("ParseWhen(%q) accepted", bad)
		}
	}
}

func TestFarDatesAreClamped(t *testing.T) {
	e := newEngine(t)
	for _, r := range []query.Request{
		{Query: "type:conversation", Since: time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Query: "type:conversation", Until: time.Date(1200, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		res, err := e.Search(context.Background(), r)
		if err != nil {
			t.Errorf("%+v: %v", r, err)
			continue
		}
		if res.Total != 0 {
			t.Errorf("%+v: %d hits, want none", r, res.Total)
		}
	}
}

func TestAddContext(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	res, err := e.Search(ctx, query.Request{Query: "resamples"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddContext(ctx, res.Hits, 2); err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].MessageIndex == nil || *res.Hits[0].MessageIndex != 3 {
		t.Fatalf("hits %v, want message 3 of boot", ids(res))
	}
	var got []int
	for _, m := range res.Hits[0].Context {
		got = append(got, m.Index)
	}
	// Message 3 is the last of four: two before it, none after.
	if !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("context indexes %v, want [1 2 3]", got)
	}
}
