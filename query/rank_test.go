package query_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// Plain questions find the conversation that answers them first, grouped
// by conversation, whether or not a document holds every word of the
// question; the result is Relaxed only when none does.
func TestQuestionsRankTheAnsweringConversationFirst(t *testing.T) {
	e := newEngine(t)
	tests := []firstCase{
		{"why did we pick BCa over the percentile bootstrap?", "boot", true},
		{"What retry policy did we settle on for the ledger worker?", "retry", true},
		{"which search library did we choose, Bleve or SQLite?", "index", true},
		// The boot conversation's title holds skewed, revenue and intervals.
		{"tell me what we said about skewed revenue intervals", "boot", false},
		{"skewed revenue intervals", "boot", false},
		{"skewed revenue intervals?", "boot", false},
		{"skewed revenue jitter", "boot", true},
		// Two words without a question mark keep every-word-must-match.
		{"percentile bootstrap", "boot", false},
	}
	checkFirstConversation(t, e, tests)
}

// Grouped results are the same from one search to the next, whatever order
// equal scores come back in.
func TestGroupedRankingIsStable(t *testing.T) {
	e := newEngine(t)
	req := query.Request{Query: "what about exponential backoff?", Group: true}
	first, err := e.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		res, err := e.Search(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := convOrder(res), convOrder(first); !slices.Equal(got, want) {
			t.Fatalf("order %v, then %v", want, got)
		}
	}
}

func convOrder(r *query.Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.ConversationID)
	}
	return out
}

// File and attachment names are found by their words, and by the whole
// name; a phrase keeps its words in order.
func TestFileNamesSearchableByTheirWords(t *testing.T) {
	day := time.Date(2025, 4, 1, 9, 0, 0, 0, time.UTC)
	c := &conversation.Conversation{
		ID: "files", Source: "portable", Title: "Coding the interviews", Date: day, File: "/fixtures/files.json",
		Messages: []conversation.Message{
			{Role: conversation.RoleUser, Content: "Here is the coding scheme.", Timestamp: day,
				Attachments: []conversation.Attachment{{Name: "codebook.pdf", Type: "application/pdf"}, {Name: "ZebraMigrationPlan.pdf"}, {Name: "revenue-forecast2025.xlsx"}}},
			{Role: conversation.RoleAssistant, Content: "I changed retry_policy in dispatcher.go and bumped v1.8.5.", Timestamp: day},
		},
	}
	c.Renumber()
	e := engineOver(t, query.Options{}, fileChanges(c)...)
	tests := []messageCase{
		{"codebook", []string{"m:files#0"}},
		{"codebook.pdf", []string{"m:files#0"}},
		{"pdf", []string{"m:files#0"}},
		{"zebra migration", []string{"m:files#0"}}, // words run together in a name
		{"forecast", []string{"m:files#0"}},
		{"ZebraMigrationPlan", []string{"m:files#0"}},
		{"dispatcher", []string{"m:files#1"}},
		{"retry", []string{"m:files#1"}},
		{"retry_policy", []string{"m:files#1"}},
		{`"retry policy"`, []string{"m:files#1"}},
		{`"policy retry"`, []string{}},
		{"1.8.5", []string{"m:files#1"}},
	}
	checkMessageHits(t, e, tests, false)
}

// A question asked in broader words finds the conversation that names the
// thing ("which dish" finds goulash) ahead of one that only shares the
// question's everyday words; a keyword search keeps to the words typed.
func TestQuestionsFindNarrowerWords(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("goulash", "My grandma taught me her goulash recipe, the secret is smoked paprika.", "That sounds delicious."),
		chat("lisbon", "My sister just moved to Lisbon for a new job at a hospital.", "Big change for her!"),
		chat("chatter", "Grandma came over and we talked about which city is nicer.", "Ha, families.",
			"I finally learned to fix the dishwasher.", "Nice."),
	)...)
	for _, tt := range []struct{ q, want string }{
		{"Which dish did I learn from grandma?", "goulash"},
		{"Which city did my sister relocate to?", "lisbon"},
		// the broader word last, with the question mark on it
		{"My sister relocated to which city?", "lisbon"},
		{"What did grandma teach me, which dish?", "goulash"},
	} {
		t.Run(tt.q, func(t *testing.T) { askFirst(t, e, tt.q, tt.want) })
	}
	res, err := e.Search(context.Background(), query.Request{Query: "dish", Types: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(res), []string{}; !slices.Equal(got, want) {
		t.Errorf("keyword dish = %v, want %v: a keyword is not widened", got, want)
	}
}

// A question in the present finds a story told in the past with an
// irregular verb ("go" / "went", "buy" / "bought") ahead of a conversation
// that has the question's other words in the present or the future.
func TestQuestionsMeetIrregularPastForms(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		// Without base forms, "phone" comes first: "scooter" is common here,
		// "buy" is not. ("support group" side by side finds "went" either way.)
		chat("went", "Caroline: I went to the support group yesterday, it was powerful.", "So glad you did."),
		chat("hiking", "Caroline: we go hiking with the group on Sundays.", "Lovely."),
		chat("thanks", "Thanks for the support, it means a lot.", "Support from friends matters."),
		chat("bought", "Kofi: I bought a used scooter to get around the city.", "Fun!"),
		chat("phone", "Kofi: I'd buy a new phone if it were cheaper.", "Wait for the sale."),
		chat("scooters", "Scooters everywhere downtown lately.", "The scooter lanes help."),
	)...)
	for _, tt := range []struct{ q, want string }{
		{"When did Caroline go to the support group?", "went"},
		{"What scooter did Kofi buy?", "bought"},
	} {
		t.Run(tt.q, func(t *testing.T) { askFirst(t, e, tt.q, tt.want) })
	}
}

// chat is a conversation "Catching up" of the given lines, the user's and
// the assistant's in turn.
func chat(id string, lines ...string) *conversation.Conversation {
	return chatOn(id, time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC), lines...)
}

// askFirst asks q as a grouped search and wants conversation want first.
func askFirst(t *testing.T, e *query.Engine, q, want string) {
	t.Helper()
	res, err := e.Search(context.Background(), query.Request{Query: q, Group: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].ConversationID != want {
		t.Fatalf("first conversation of %v, want %s", convOrder(res), want)
	}
}

// A grouped search reaches every conversation, however many hits another
// has; counts a conversation's hits whatever the page's size; says whether
// more conversations follow; and keeps a date order when asked for one.
func TestGroupedSearchReachesEveryConversation(t *testing.T) {
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("zebrafish note %d", i))
	}
	long := chat("long", lines...)
	small := chatOn("small", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "One zebrafish line here.", "Ok.")
	old := chatOn("old", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), "Zebrafish in the old lab.", "Sure.")
	e := engineOver(t, query.Options{}, fileChanges(long, small, old)...)
	search := func(r query.Request) *query.Result {
		t.Helper()
		r.Query, r.Group = "zebrafish", true
		res, err := e.Search(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := search(query.Request{Limit: 10})
	if got := convOrder(res); len(got) != 3 {
		t.Fatalf("conversations %v, want all 3", got)
	}
	if res.More {
		t.Errorf("More = true on the only page")
	}
	for _, limit := range []int{1, 2, 10} {
		found := false
		for _, h := range search(query.Request{Limit: limit}).Hits {
			if h.ConversationID == "long" {
				found = true
				if h.Count != 300 {
					t.Errorf("limit %d: long has Count %d, want 300", limit, h.Count)
				}
			}
		}
		if !found {
			t.Errorf("limit %d: long not on the page, its Count unchecked", limit)
		}
	}
	if p := search(query.Request{Limit: 2}); !p.More || len(p.Hits) != 2 {
		t.Errorf("first page of 2: %v, More %v; want 2 and more", convOrder(p), p.More)
	}
	if p := search(query.Request{Limit: 2, Offset: 2}); p.More || len(p.Hits) != 1 {
		t.Errorf("second page of 2: %v, More %v; want 1 and no more", convOrder(p), p.More)
	}
	if got, want := convOrder(search(query.Request{Limit: 10, Sort: query.SortNewest})), []string{"small", "long", "old"}; !slices.Equal(got, want) {
		t.Errorf("newest first %v, want %v", got, want)
	}
	if got, want := convOrder(search(query.Request{Limit: 10, Sort: query.SortOldest})), []string{"old", "long", "small"}; !slices.Equal(got, want) {
		t.Errorf("oldest first %v, want %v", got, want)
	}
	// A hit's id filters to its conversation, as a conversation id does.
	if got, want := convOrder(search(query.Request{Limit: 10, Conversations: []string{"m/small/0"}})), []string{"small"}; !slices.Equal(got, want) {
		t.Errorf("within m/small/0: %v, want %v", got, want)
	}
}

// A hit's id points at its message: a message hit's index, a decision hit's
// message; the conversation's own id and other conversations' hits at none.
func TestHitMessage(t *testing.T) {
	c := chat("conv", "one", "two", "three", "four")
	c.Decisions = []conversation.Decision{{Decision: "use Redis", MessageIndex: 2}, {Decision: "gone", MessageIndex: 9}}
	for _, tt := range []struct {
		id   string
		want int
	}{
		{"m/conv/3", 3},
		{"d/conv/0", 2},
		{"d/conv/1", -1}, // its message is not in the conversation
		{"d/conv/7", -1},
		{"t/conv/redis", -1},
		{"c/conv", -1},
		{"conv", -1},
		{"m/other/1", -1},
		{"m/conv/9", -1},
	} {
		if got := query.HitMessage(c, tt.id); got != tt.want {
			t.Errorf("HitMessage(%q) = %d, want %d", tt.id, got, tt.want)
		}
	}
}

// A short turn with the speaker's name and one word of the question does
// not outrank a long turn that holds more of the question's words: chat
// turns are short and of like length, and the length of a match's field
// weighs little (the indexer's BM25 b). Under a full length norm the
// six-word turn came first.
func TestShortTurnDoesNotOutrankAnswer(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("answer", "Fraser: long week. on tuesday we had to rush Pudding to the emergency vet in bearsden, the greyhound ate a whole sock and they kept her in overnight for observation, she is fine now but the bill was brutal. rachel says we should have kept the sock drawer shut, and she is right, but who expects a retired racer to go looking for laundry at two in the morning while everyone else in the close is asleep.", "Marta: poor Pudding!"),
		chat("short", "Fraser: vet bills, ugh.", "Marta: ouch."),
		chat("school", "Fraser: parents evening at school tonight, wish me luck with the chemistry parents.", "Marta: good luck!"),
		chat("choir", "Fraser: choir was fun, the basses finally got the ABBA song right after weeks of practice.", "Marta: bravo"),
	)...)
	askFirst(t, e, "When did Fraser take the greyhound to the vet?", "answer")
}

// A question whose words are split between a turn and its reply ("And
// Pudding?" "She ate a sock on Tuesday") finds that conversation before one
// where the same words stand in turns far apart: a message counts its
// neighbours' words (indexer.FieldContext). The answer's turns are the
// longer ones, and its id loses ties: only the neighbours put it first.
func TestQuestionSplitAcrossTurns(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("z1", "And how is Pudding doing these days?", "She ate a whole sock on Tuesday, we went to the vet."),
		chat("a1", "Pudding loves the park.", "Nice.", "The weather is grim.", "Yes.", "I lost a sock."),
	)...)
	askFirst(t, e, "When did Pudding swallow the sock?", "z1")
}

// A question's word that is no noun ("second" in "her second cat") is not
// looked up among the concepts, where it would meet "moments" (WordNet's
// moment is a minute, a second, an instant) and outrank the answer.
func TestConceptsOnlyForNouns(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("z1", "Nadine: I adopted another cat from the shelter.", "Lauren: no way"),
		chat("a1", "Nadine: The talk went well, people laughed at the right moments.", "Lauren: told you"),
	)...)
	askFirst(t, e, "Where did Nadine get her second cat?", "z1")
}

// A grouped question counts each conversation's hits as the question's own
// search finds them, though it counts with a cheaper query than it ranks
// with (its words alone).
func TestQuestionCountsItsHits(t *testing.T) {
	var convs []*conversation.Conversation
	for i := range 30 {
		convs = append(convs, chat(fmt.Sprintf("c%02d", i),
			"We cleaned the zebrafish tank today.", "Which filter did you use?", fmt.Sprintf("The sponge filter, batch %d, for the zebrafish.", i)))
	}
	e := engineOver(t, query.Options{}, fileChanges(convs...)...)
	const q = "Which filter did we use for the zebrafish tank?"
	res, err := e.Search(context.Background(), query.Request{Query: q, Group: true, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 3 {
		t.Fatalf("%d conversations, want 3", len(res.Hits))
	}
	for _, h := range res.Hits {
		one, err := e.Search(context.Background(), query.Request{Query: q, Conversations: []string{h.ConversationID}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if uint64(h.Count) != one.Total || h.Count < 3 {
			t.Errorf("%s: count %d, its own search finds %d", h.ConversationID, h.Count, one.Total)
		}
	}
}

// on is the evening of a day, when the test chats are held.
func on(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 18, 0, 0, 0, time.UTC) }

// chatOn is a chat of lines, user and assistant in turn, held on day.
func chatOn(id string, day time.Time, lines ...string) *conversation.Conversation {
	c := &conversation.Conversation{ID: id, Source: "portable", Title: "Catching up", Date: day, File: "/fixtures/" + id + ".json"}
	for i, l := range lines {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		c.Messages = append(c.Messages, conversation.Message{Role: role, Content: l, Timestamp: day})
	}
	c.Renumber()
	return c
}

// yesterdayNoon is noon yesterday where the test runs: "yesterday" in a
// question is the user's yesterday.
func yesterdayNoon() time.Time {
	n := time.Now()
	return time.Date(n.Year(), n.Month(), n.Day()-1, 12, 0, 0, 0, n.Location())
}

// A question that says when ("in July", "on 3 May 2023") prefers the
// conversations held then, even when others match its words better and
// outnumber them beyond the first page of hits; without a time, the words
// decide.
func TestQuestionsThatSayWhenPreferThatTime(t *testing.T) {
	convs := []*conversation.Conversation{
		chatOn("july", on(2023, 7, 17), "We went camping by the lake at last.", "Sounds lovely."),
		chatOn("may3", on(2023, 5, 4), "We had dinner with my mum, and we go camping with her next.", "Nice."),
		chatOn("yday", yesterdayNoon(), "Bought a camping stove.", "Fun."),
	}
	// Many conversations in other months that hold more of the words.
	for i := range 80 {
		convs = append(convs, chatOn(fmt.Sprintf("other%02d", i), on(2023, 9, 1+i%28),
			"We go camping with the kids every weekend, we go camping whatever the weather.", "Camping forever."))
	}
	e := engineOver(t, query.Options{}, fileChanges(convs...)...)
	for _, tt := range []struct{ q, want string }{
		{"When did we go camping in July?", "july"},
		{"What did we go camping on May 3, 2023?", "may3"},
		{"What camping trip happened in 2023-07?", "july"},
		{"What camping gear did we get yesterday?", "yday"},
	} {
		t.Run(tt.q, func(t *testing.T) { askFirst(t, e, tt.q, tt.want) })
	}
	res, err := e.Search(context.Background(), query.Request{Query: "When did we go camping with the kids?", Group: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || !strings.HasPrefix(res.Hits[0].ConversationID, "other") {
		t.Errorf("without a time, first conversation of %v, want one of the camping ones", convOrder(res)[:min(3, len(res.Hits))])
	}
}

// A short page of a dated question is the start of a longer one: the
// conversations found within the dates do not stop the reading of better
// ones further down the hits (a case found in review).
func TestDatedQuestionPagesAgree(t *testing.T) {
	var convs []*conversation.Conversation
	for _, id := range []string{"a", "b"} {
		var lines []string
		for range 30 {
			lines = append(lines, "camping with the kids, camping with the kids")
		}
		convs = append(convs, chatOn(id, on(2023, 9, 3), lines...))
	}
	convs = append(convs, chatOn("c", on(2023, 9, 5), "We went camping with the kids last weekend.", "ok"))
	for _, id := range []string{"j1", "j2"} {
		convs = append(convs, chatOn(id, on(2023, 7, 5), "I read a long article about gardening, cooking, travel, baking, painting, sailing, and camping in the hills, among many other things people enjoy doing outdoors on weekends.", "ok"))
	}
	e := engineOver(t, query.Options{}, fileChanges(convs...)...)
	const q = "What camping did we do with the kids in July?"
	short, err := e.Search(context.Background(), query.Request{Query: q, Group: true, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	long, err := e.Search(context.Background(), query.Request{Query: q, Group: true, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := convOrder(short), convOrder(long)[:min(3, len(long.Hits))]; !slices.Equal(got, want) {
		t.Errorf("limit 3 gives %v, limit 10 starts %v", got, want)
	}
}

// Pages of a grouped search by relevance are disjoint and, together, the
// one long page, whatever their size: a conversation ranked by a weighted
// hit (a decision's) from deeper than the hits that fill a shallow page must
// not be reached only by the deeper pages' scans, or they repeat and skip.
func TestGroupedPagesAreOneRanking(t *testing.T) {
	var convs []*conversation.Conversation
	for i := range 60 {
		var lines []string
		for j := range i%9 + 1 {
			// Fillers of varied length spread the scores of the hits.
			lines = append(lines, "kestrel "+strings.Repeat("field note ", (i*7+j*3)%13))
		}
		c := chat(fmt.Sprintf("c%02d", i), lines...)
		if i%3 == 0 {
			c.Decisions = []conversation.Decision{{Decision: "ring the kestrel " + strings.Repeat("chick ", i%11), MessageIndex: 0}}
		}
		convs = append(convs, c)
	}
	e := engineOver(t, query.Options{}, fileChanges(convs...)...)
	search := func(offset, limit int) *query.Result {
		t.Helper()
		res, err := e.Search(context.Background(), query.Request{Query: "kestrel", Group: true, Offset: offset, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	all := convOrder(search(0, 100))
	if len(all) != 60 {
		t.Fatalf("one page holds %d conversations, want 60", len(all))
	}
	for _, limit := range []int{1, 2, 3, 5, 7, 10} {
		var paged []string
		for off := 0; ; off += limit {
			p := search(off, limit)
			paged = append(paged, convOrder(p)...)
			if !p.More {
				break
			}
		}
		if !slices.Equal(paged, all) {
			t.Errorf("pages of %d: %v\nwant the long page's %v", limit, paged, all)
		}
	}
}

// One pasted token of parts joined by punctuation (an address, a dotted
// name, a path) is its parts next to each other, however many: not a
// question of its parts, found anywhere apart.
func TestPastedTokenIsItsPartsInARow(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("target", "psql cannot reach 127.0.0.1 port 5432, os.path.exists says the socket is there, see src/components/Button.tsx"),
		chat("apart", "release 127 had 0 errors on day 1; the os team chose a path that exists; src of the components: one button, tsx files"),
	)...)
	checkConversations(t, e, []convCase{
		{"127.0.0.1", []string{"target"}},
		{"os.path.exists", []string{"target"}},
		{"src/components/Button.tsx", []string{"target"}},
		{"what about 127.0.0.1 on port 5432?", []string{"target"}},
	})
	// Words joined by a hyphen are words of prose, each its own in a question.
	res, err := e.Search(context.Background(), query.Request{Query: "which components had one-button tsx files?", Group: true, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := convOrder(res); !slices.Contains(got, "apart") {
		t.Errorf("conversations %v, want apart among them", got)
	}
}
