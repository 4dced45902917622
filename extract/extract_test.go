package extract

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
)

// conv builds a conversation from alternating user/assistant texts, starting
// with the user.
func conv(texts ...string) *conversation.Conversation {
	c := &conversation.Conversation{ID: "t"}
	t0 := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
	for i, s := range texts {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		c.Messages = append(c.Messages, conversation.Message{Index: i, Role: role, Content: s, Timestamp: t0.Add(time.Duration(i) * time.Minute)})
	}
	return c
}

func TestDecisionPatterns(t *testing.T) {
	type want struct {
		idx       int
		text, why string // substrings of the decision and rationale
	}
	tests := []struct {
		name  string
		texts []string
		want  []want
	}{
		// Positives.
		{"we'll use", []string{"We'll use Postgres advisory locks because we already run Postgres."},
			[]want{{0, "We'll use Postgres advisory locks", "we already run Postgres"}}},
		{"we will go with", []string{"We will go with BCa intervals, since the data is skewed."},
			[]want{{0, "We will go with BCa intervals", "the data is skewed"}}},
		{"let's go with", []string{"Let's go with token buckets in Redis."}, []want{{0, "token buckets in Redis", ""}}},
		{"decided to", []string{"We decided to keep the monolith so that deploys stay simple."},
			[]want{{0, "decided to keep the monolith", "deploys stay simple"}}},
		{"decided not to", []string{"We decided not to shard the index."}, []want{{0, "not to shard the index", ""}}},
		{"the decision is", []string{"The decision is to move logs to Loki."}, []want{{0, "move logs to Loki", ""}}},
		{"Decision label", []string{"**Decision:** uv for every new service.\nRationale: faster installs."},
			[]want{{0, "uv for every new service", ""}}},
		{"Decision heading with list", []string{"## Decisions\n\n- Use cursor pagination\n- Drop the OFFSET endpoint\n\nOther notes follow."},
			[]want{{0, "Use cursor pagination", ""}, {0, "Drop the OFFSET endpoint", ""}}},
		{"I'll go with", []string{"I'll go with the smaller instance type."}, []want{{0, "smaller instance type", ""}}},
		{"going with", []string{"Going with KEDA for autoscaling."}, []want{{0, "KEDA for autoscaling", ""}}},
		{"we chose", []string{"We chose SQLite for the desktop app. It keeps installation to a single file."},
			[]want{{0, "We chose SQLite for the desktop app", "It keeps installation to a single file"}}},
		{"settled on", []string{"After the benchmark we settled on zstd level 3."}, []want{{0, "settled on zstd level 3", ""}}},
		{"agreed", []string{"We agreed to freeze the API until March."}, []want{{0, "agreed to freeze the API until March", ""}}},
		{"curly apostrophe", []string{"We’ll use gRPC for internal calls."}, []want{{0, "gRPC for internal calls", ""}}},
		{"user commitment", []string{"Ok, we'll stratify the sample by region."}, []want{{0, "We'll stratify the sample by region", ""}}},
		{"accepted proposal", []string{"Which CI cache?", "I recommend caching the Go build cache keyed on go.sum because it halves build times.", "Sounds good."},
			[]want{{2, "caching the Go build cache keyed on go.sum", "it halves build times"}}},
		{"accepted with let's do it", []string{"How do I bound goroutines?", "I suggest we use errgroup with SetLimit.", "Let's do it. Can you write it?"},
			[]want{{2, "errgroup with SetLimit", ""}}},
		{"anaphor resolves to proposal", []string{"Which one?", "I'd recommend Playwright for the cross-origin flow.", "OK, let's go with that."},
			[]want{{2, "Playwright for the cross-origin flow", ""}}},
		{"reason in next sentence", []string{"We'll use one index with a type field. This keeps term statistics comparable."},
			[]want{{0, "one index with a type field", "This keeps term statistics comparable"}}},
		{"two decisions in one message", []string{"We'll use Redis for sessions. Let's go with Postgres for the audit log."},
			[]want{{0, "Redis for sessions", ""}, {0, "Postgres for the audit log", ""}}},
		{"hard wrap inside a paragraph", []string{"After the load test we decided to move the session store\nfrom Redis to Postgres, because the\nfailover story is simpler.\n\nNext we looked at logs."},
			[]want{{0, "decided to move the session store from Redis to Postgres", "the failover story is simpler"}}},
		{"wrapped list item", []string{"Decisions:\n- Use cursor pagination for every\n  list endpoint\n- Drop OFFSET"},
			[]want{{0, "Use cursor pagination for every list endpoint", ""}, {0, "Drop OFFSET", ""}}},
		{"blank line ends the sentence", []string{"We'll use Redis for the queue\n\nand the cache later maybe"},
			[]want{{0, "We'll use Redis for the queue", ""}}},
		{"list item starts a new sentence", []string{"We decided to keep\n- the monolith\n- the cron jobs"},
			[]want{{0, "decided to keep", ""}}},

		// Negatives.
		{"question", []string{"Should we use Kafka here?"}, nil},
		{"question without mark", []string{"Should we use Kafka or RabbitMQ for this"}, nil},
		{"question with we'll", []string{"So we'll use Kafka?"}, nil},
		{"hypothetical", []string{"If we decided to use GraphQL, the mobile team would be happier."}, nil},
		{"what if", []string{"What if we go with RabbitMQ streams instead?"}, nil},
		{"suppose", []string{"Suppose we went with GraphQL for mobile only."}, nil},
		{"negated", []string{"We haven't decided yet."}, nil},
		{"negated will", []string{"We're not going with Vault."}, nil},
		{"didn't agree", []string{"We didn't agree on the schema."}, nil},
		{"tentative", []string{"We might go with Loki later."}, nil},
		{"deferral", []string{"We'll decide at the meeting on Thursday."}, nil},
		{"we'll see", []string{"We'll see how it goes."}, nil},
		{"quoted", []string{`The vendor said "we'll use Elasticsearch for everything" in the call.`}, nil},
		{"blockquote", []string{"> We decided to use MongoDB.\n\nThat was the old team's note."}, nil},
		{"code block", []string{"Here:\n\n```python\n# we'll use COPY here because it's faster\ncur.copy_expert(sql, f)\n```"}, nil},
		{"inline code", []string{"The comment says `we'll use the cache` but it never does."}, nil},
		{"indented code", []string{"Example:\n\n    decided := true; // we decided to use it\n"}, nil},
		{"walkthrough", []string{"How does this work?", "Now we'll use the helper to parse each line."}, nil},
		{"empty label", []string{"Decision: TBD"}, nil},
		{"proposal not accepted", []string{"Which?", "I recommend Redux Toolkit.", "Hmm, what about Zustand?"}, nil},
		{"proposal rejected", []string{"Which?", "I recommend strict mode.", "Ok but strict mode breaks two partners."}, nil},
		{"bare ok with question", []string{"Which?", "I'd suggest weekly backups.", "Ok. How long do restores take?"}, nil},
		{"recommend against", []string{"Which?", "I'd recommend against sharding for now.", "Sounds good."}, nil},
		{"assistant uses", []string{"Explain the code", "This function uses a map to count words."}, nil},
	}
	e := New(nil, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.Decisions(conv(tt.texts...))
			if len(got) != len(tt.want) {
				t.Fatalf("got %d decisions %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.MessageIndex != w.idx || !strings.Contains(g.Decision, w.text) || !strings.Contains(g.Rationale, w.why) {
					t.Errorf("decision %d = [%d] %q (why %q), want [%d] containing %q (why containing %q)", i, g.MessageIndex, g.Decision, g.Rationale, w.idx, w.text, w.why)
				}
				if w.why == "" && g.Rationale != "" && !strings.Contains(tt.name, "reason") {
					t.Logf("decision %d has rationale %q", i, g.Rationale)
				}
				if g.Origin != conversation.OriginExtracted {
					t.Errorf("origin = %q, want extracted", g.Origin)
				}
				if !g.Timestamp.Equal(time.Date(2025, 5, 1, 10, w.idx, 0, 0, time.UTC)) {
					t.Errorf("timestamp = %v, want the message's", g.Timestamp)
				}
			}
		})
	}
}

func TestDecisionsSkipHiddenToolSidechain(t *testing.T) {
	c := conv("x", "y", "z", "w")
	c.Messages[0].Content, c.Messages[0].Hidden = "We decided to use MySQL.", true
	c.Messages[1].Content, c.Messages[1].Role = "Decision: abort", conversation.RoleTool
	c.Messages[2].Content, c.Messages[2].Sidechain = "We'll use the grep tool.", true
	c.Messages[3].Content, c.Messages[3].Role = "We'll use Postgres.", conversation.RoleSystem
	if got := New(nil, Options{}).Decisions(c); len(got) != 0 {
		t.Errorf("got %+v, want none", got)
	}
}

func TestDecisionsDedupeAndLimit(t *testing.T) {
	c := conv("We'll use Postgres advisory locks.", "ok", "Decision: use Postgres advisory locks.")
	got := New(nil, Options{}).Decisions(c)
	if len(got) != 1 || got[0].MessageIndex != 0 {
		t.Errorf("got %+v, want one decision at message 0", got)
	}
	// A changed number is a change of mind, not a repeat.
	c = conv("We're going for the 5 year fix.", "ok", "We're switching to the 2 year fix after all.")
	if got := New(nil, Options{}).Decisions(c); len(got) != 2 {
		t.Errorf("got %+v, want the 5 year fix and then the 2 year fix", got)
	}
	long := "We'll use " + strings.Repeat("a very long name ", 40) + "for everything."
	got = New(nil, Options{}).Decisions(conv(long))
	if len(got) != 1 || utf8.RuneCountInString(got[0].Decision) > 200 || !strings.HasSuffix(got[0].Decision, "…") {
		t.Errorf("got %+v, want one decision cut to 200 runes", got)
	}
	var many []string
	for i := range 10 {
		many = append(many, fmt.Sprintf("We'll use tool%c for job%c.", 'a'+i, 'a'+i), "ok")
	}
	if got := New(nil, Options{MaxDecisions: 3}).Decisions(conv(many...)); len(got) != 3 {
		t.Errorf("MaxDecisions 3: got %d", len(got))
	}
}

func TestTopics(t *testing.T) {
	c := conv(
		"Our job scheduler runs twice because every replica runs the cron job. Can advisory locks help?",
		"Yes: Postgres advisory locks make sure only one replica runs the job. See https://www.postgresql.org/docs/current/explicit-locking.html and /etc/postgresql/16/main/postgresql.conf, commit 3f9a2c1d8e.\n\n```sql\nSELECT pg_try_advisory_lock(42);\nSELECT pg_try_advisory_lock(42);\nSELECT pg_try_advisory_lock(42);\n```\nAn advisory lock held by a session is released when the connection drops. Use `pg_try_advisory_xact_lock` behind pgbouncer.",
		"And with pgbouncer in transaction pooling mode the session-level advisory lock breaks?",
		"Right: transaction pooling hands the server connection back after each transaction, so use the transaction-level advisory lock or bypass pgbouncer. 2024 12345 0xdeadbeef.",
	)
	c.Title = "Advisory locks for the job scheduler"
	e := New(nil, Options{})
	got := e.Topics(c)
	if len(got) == 0 || len(got) > 5 {
		t.Fatalf("got %d topics %+v, want 1..5", len(got), got)
	}
	var names []string
	for i, tp := range got {
		names = append(names, tp.Name)
		if tp.Origin != conversation.OriginExtracted || tp.Score <= 0 {
			t.Errorf("topic %+v: want origin extracted and a positive score", tp)
		}
		if i > 0 && (got[i-1].Score < tp.Score || got[i-1].Score == tp.Score && got[i-1].Name > tp.Name) {
			t.Errorf("topics not ordered by score then name: %q", names)
		}
	}
	if names[0] != "advisory locks" {
		t.Errorf("first topic = %q, want %q (plurals folded, shown as most often written); all %q", names[0], "advisory locks", names)
	}
	joined := strings.Join(names, "|")
	for _, noise := range []string{"pg_try", "select", "http", "postgresql.org", "etc", "3f9a2c1d8e", "2024", "12345", "deadbeef", "conf"} {
		if strings.Contains(joined, noise) {
			t.Errorf("topics %q contain noise %q", names, noise)
		}
	}
	if !slices.ContainsFunc(names, func(n string) bool {
		return strings.Contains(n, "pgbouncer") || strings.Contains(n, "transaction pooling")
	}) {
		t.Errorf("topics %q miss pgbouncer / transaction pooling", names)
	}
	// Deterministic.
	for range 5 {
		if again := e.Topics(c); !slices.Equal(again, got) {
			t.Fatalf("topics changed between runs: %+v then %+v", got, again)
		}
	}
	if got := New(nil, Options{MaxTopics: 2}).Topics(c); len(got) != 2 {
		t.Errorf("MaxTopics 2: got %d", len(got))
	}
}

func TestTopicsLittleText(t *testing.T) {
	e := New(nil, Options{})
	for _, c := range []*conversation.Conversation{
		{},
		conv("hi", "Hello! How can I help?"),
		conv("```\nfunc main() {}\n```", "$ go run . 2>&1 | tee /tmp/out.log"),
	} {
		if got := e.Topics(c); len(got) != 0 {
			t.Errorf("Topics(%+v) = %+v, want none", c.Messages, got)
		}
	}
}

// fakeBackground makes "widget" common and everything else unknown.
type fakeBackground struct{}

func (fakeBackground) DocFreq(term string) (int, int) {
	if term == "widget" {
		return 900, 1000
	}
	return 0, 1000
}

func TestCustomBackground(t *testing.T) {
	c := conv("The widget sprocket broke again.", "Widget sprockets fail when the gearbox overheats; check the gearbox.", "The gearbox is fine, the widget is not.")
	got := New(fakeBackground{}, Options{MaxTopics: 3}).Topics(c)
	if len(got) == 0 || got[0].Name == "widget" {
		t.Errorf("got %+v: a word common in the background should not lead", got)
	}
}

func TestApply(t *testing.T) {
	e := New(nil, Options{})
	c := conv("Which queue?", "Use SQS.", "We'll use SQS with a dead-letter queue because retries need a parking place.")
	c.Topics = []conversation.Topic{{Name: "queues", Origin: conversation.OriginExplicit}}
	e.Apply(c)
	if len(c.Topics) != 1 || c.Topics[0].Name != "queues" {
		t.Errorf("explicit topics replaced: %+v", c.Topics)
	}
	if len(c.Decisions) != 1 || c.Decisions[0].MessageIndex != 2 {
		t.Errorf("decisions = %+v, want one at message 2", c.Decisions)
	}
	// Explicit decisions stay; extracted ones are refreshed.
	c.Decisions = []conversation.Decision{{Decision: "keep", MessageIndex: -1, Origin: conversation.OriginExplicit}}
	c.Topics = []conversation.Topic{{Name: "stale", Origin: conversation.OriginExtracted}}
	e.Apply(c)
	if len(c.Decisions) != 1 || c.Decisions[0].Decision != "keep" {
		t.Errorf("explicit decisions replaced: %+v", c.Decisions)
	}
	if slices.ContainsFunc(c.Topics, func(t conversation.Topic) bool { return t.Name == "stale" }) {
		t.Errorf("stale extracted topics kept: %+v", c.Topics)
	}
}

func TestConcurrentUse(t *testing.T) {
	e := New(nil, Options{})
	want := e.Topics(benchConversation(50))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				c := benchConversation(50)
				e.Apply(c)
				if !slices.Equal(c.Topics, want) {
					t.Errorf("concurrent Topics differ: %+v vs %+v", c.Topics, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestDefaultBackground(t *testing.T) {
	bg := DefaultBackground()
	df, n := bg.DocFreq("error")
	if n < 1000 || df < 100 || df > n {
		t.Errorf("DocFreq(error) = %d, %d: background not loaded", df, n)
	}
	if df2, _ := bg.DocFreq("zzqx-not-a-word"); df2 != 0 {
		t.Errorf("unknown word df = %d", df2)
	}
	if pdf, _ := bg.DocFreq("error message"); pdf == 0 {
		t.Errorf("phrase df missing")
	}
}

func FuzzDecisions(f *testing.F) {
	for _, s := range []string{
		"We'll use Postgres because it's there.",
		"Decision: uv\nRationale: speed",
		"## Decisions\n- a\n- b",
		"```\nwe'll use x\n```",
		"I recommend BCa. It corrects bias.",
		"Should we use \"x\"? “we'll use y” e.g. i.e. 3.5.",
		"\xff\xfe we’ll go with \x00",
		"Want me to switch the cache to Redis?",
		"SQS it is, and Redis for the cache.",
		"OK, decided: x. It's decided— y",
		"Perfect. SQS for the queue, Redis for the cache.",
		"Final plan:\n1. a\n2. b\nOK here's what we'll do. X.",
		"Let's not do that. Yes, but keep it. We won't go with",
		// The reply forms of replies.go.
		"12 partitions keyed by customer_id, yep. lru-cache as direct dep fine. status page, absolutely not",
		"a sentence longer than sixty bytes with no yes in it at all, nothing to take here",
		"1. WorkOS.\n2. no\n3 - yes, do it\n5-7. later\nA and C, go ahead. no to D, yes to B",
		"Where we landed:\n- no X: y\n- Shard count: not settled\nok:\n- a -> b",
		"Yeah ok, X with Y — so: Z it is: w. Algolia's out — x. Run:ai is out on cost. the app stays on Jest; b",
		"Long day. Ok, here's the plan:\n- use Postgres\n**1. a**\nb\n1 and 2 yes. report → x. A hard no to y.",
		// This session's reply forms.
		"A. Use Redis\nB. Use Postgres\n\nAdd a composite index on (a, b). I'd partition by month; it is cheaper.",
		"PgBouncer then, pool size 20, and the probe. Vite gets the nod; no. Nunito for the wordmark — why. Make the flag 60 days, not 45.",
		"Agreed — but raw stays 180 days. Fine, go ahead with that, minus the double points. Do that, except skip the email. Polyester's fine.",
		"B, but with a 30 day retention. X and Y — yes, let's set it up that way. A, b: that's our setup. so hourly it is from today.",
		"Auto-suspend drops to 60 seconds. The diff goes into CI, failing it. Leave the deposit out, though — my customers pay. —",
		"It failed — so per-instance breakers, no shared state. So it's the scanner, with labels. Simplest: do it. X is exactly what we need, so I'll take that. I'm not touching it until I've heard.",
	} {
		f.Add(s, "sounds good")
	}
	// Options, names and acronyms resolved across turns, with runes whose
	// lower case is longer or shorter than they are.
	f.Add("- **(a)** run it in the office.\n- **(b)** run it at the hotel.\n\n| Hotel near Marquês | 9 |\n\nAn Employer of Record (EOR) hires. The EOR pays. EOR costs.",
		"We'll do the ȺȺȺȺ team's pick, (b). İstanbul gets option (b). The hotel it is. Talked it over with İrem and we're going with the EOR.")
	e := New(nil, Options{})
	f.Fuzz(func(t *testing.T, a, b string) {
		c := conv("start", a, b, a)
		c.Title = b
		ds := e.Decisions(c)
		for _, d := range ds {
			if d.MessageIndex < 0 || d.MessageIndex >= len(c.Messages) {
				t.Fatalf("MessageIndex %d out of range", d.MessageIndex)
			}
			if utf8.RuneCountInString(d.Decision) > 200 || utf8.RuneCountInString(d.Rationale) > 200 {
				t.Fatalf("text too long: %q", d.Decision)
			}
			if d.Decision == "" {
				t.Fatalf("empty decision")
			}
		}
		for _, tp := range e.Topics(c) {
			name := tp.Name
			if long, acr, ok := strings.Cut(name, " ("); ok && strings.HasSuffix(acr, ")") {
				name = strings.TrimSuffix(acr, ")") // "employer of record (eor)": the acronym is the phrase
				if long == "" || strings.Contains(name, " ") {
					t.Fatalf("bad acronym topic %q", tp.Name)
				}
			}
			if name == "" || strings.Count(name, " ") > 2 {
				t.Fatalf("bad topic %q", tp.Name)
			}
		}
	})
}

// benchConversation builds a realistic conversation of n messages: prose,
// code blocks, tool output and a few decisions.
func benchConversation(n int) *conversation.Conversation {
	r := rand.New(rand.NewPCG(1, 2))
	prose := []string{
		"The retry policy uses capped exponential backoff with full jitter, so clients don't synchronise into waves.",
		"Postgres advisory locks make sure only one replica runs the billing job; pgbouncer in transaction mode needs the xact variant.",
		"Bootstrap confidence intervals with BCa correct for skew in the revenue distribution.",
		"Should we shard the index by month, or keep one index with a date field?",
		"We'll use keyset pagination on (created_at, id) because OFFSET gets slower with every page.",
		"I recommend tail sampling in the collector because it keeps every error trace.",
		"See https://example.com/docs/guide?x=1 and ./internal/index/mapping.go for the details, commit 3f9a2c1.",
		"Sounds good, let's do that.",
		"The heap snapshot comparison shows closures retained by EventEmitter listeners added per request.",
		"Decision: move application logs to Loki with 30-day retention in S3.",
	}
	code := "```go\nfunc retry(ctx context.Context, f func() error) error {\n\tfor i := 0; i < 5; i++ {\n\t\tif err := f(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn errRetries\n}\n```"
	c := &conversation.Conversation{ID: "bench", Title: "Retry policy and index layout"}
	for i := range n {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		var b strings.Builder
		for range 2 + r.IntN(5) {
			b.WriteString(prose[r.IntN(len(prose))])
			b.WriteString(" ")
		}
		if role == conversation.RoleAssistant && r.IntN(3) == 0 {
			b.WriteString("\n\n" + code + "\n\n")
			b.WriteString(prose[r.IntN(len(prose))])
		}
		m := conversation.Message{Index: i, Role: role, Content: b.String()}
		if i%10 == 9 {
			m.Role = conversation.RoleTool
			m.ToolResults = []conversation.ToolResult{{Content: "ok"}}
		}
		c.Messages = append(c.Messages, m)
	}
	return c
}

func BenchmarkApply(b *testing.B) {
	e := New(nil, Options{})
	src := benchConversation(200)
	c := *src
	b.ReportAllocs()
	msgs := 0
	for b.Loop() {
		c.Topics, c.Decisions = nil, nil
		e.Apply(&c)
		msgs += len(c.Messages)
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
}

func ExampleExtractor_Decisions() {
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Index: 0, Role: conversation.RoleUser, Content: "Kafka or RabbitMQ for order events? We need a 7-day replay."},
		{Index: 1, Role: conversation.RoleAssistant, Content: "I'd recommend Kafka with 7-day retention because consumers can replay from any offset."},
		{Index: 2, Role: conversation.RoleUser, Content: "Sounds good. Should we also use Avro?"},
	}}
	for _, d := range New(nil, Options{}).Decisions(c) {
		fmt.Printf("[%d] %s (because %s)\n", d.MessageIndex, d.Decision, d.Rationale)
	}
	// Output:
	// [2] Kafka with 7-day retention (because consumers can replay from any offset)
}

// TestPatternsCompile compiles every decision pattern: they compile when
// first used, so a bad one must fail here rather than in a user's index.
func TestPatternsCompile(t *testing.T) {
	for _, l := range []*lazyRE{reDirect, reUserWill, reUserLets, reUserCommit, reUserRule, reUserPlan, reUserVerdict,
		reImperative, reNotImperative, reAnyAnaphor, reItIs, rePlanLabel, reStartGo, reLabel, reProposal, reProposalLead,
		reQuestionStart, reHypothetical, reTentative, reNegation, reWalkthrough, reLead, reReasonIn, reReasonSo,
		reReasonNext, reAcceptStrong, reAcceptWeak, reContrast, reAnaphor, reOption, reOptionRef, reProposalLabel,
		reCompanion, reEmptyLabel, reUserI, reUserWont, reUserNo, reUserDone, reAnaphorBut, reAnaphorHow, reAcceptBut, reOffer, reEvalChoice, reOptionPick,
		reSuggested, reBareRefusal, reLabelledDecidedNo, reParaTopic, reOnIt, reTakenOver, reOptionLabel, reDashAfter,
		reSoNo, reNopeAfter, reDangling, reFineAfter, reAcceptedAfter, reStays, reFlatNo, reYesTo, reInlineLabel} {
		if _, err := regexp.Compile(l.pattern); err != nil {
			t.Errorf("%.40s…: %v", l.pattern, err)
		}
	}
}

// TestBackgroundMadeWhenFirstNeeded checks that New does not parse the
// built-in background (a process that only searches builds an Extractor),
// and that the first topics make it.
func TestBackgroundMadeWhenFirstNeeded(t *testing.T) {
	e := New(nil, Options{})
	if e.bg != nil || e.table != nil {
		t.Fatal("New made the background before any topic was asked for")
	}
	e.Decisions(benchConversation(3))
	if e.bg != nil {
		t.Error("decisions, which need no background, made it")
	}
	e.Topics(benchConversation(3))
	if e.table == nil || e.table.n < 2 {
		t.Errorf("after Topics the built-in background is %+v, want the parsed table", e.table)
	}
}

// TestDecisionForms checks ways of settling a choice in a reply to the
// assistant's options, each alone, and replies that settle nothing.
func TestDecisionForms(t *testing.T) {
	e := New(nil, Options{})
	tests := []struct {
		reply   string
		want    string // the decision; "" for none
		wantWhy string
	}{
		{"Settled: Kafka with 7-day retention.", "Kafka with 7-day retention", ""},
		{"We're switching the order events to Kafka.", "We're switching the order events to Kafka", ""},
		{"I'm migrating the billing jobs over to Kafka.", "I'm migrating the billing jobs over to Kafka", ""},
		{"We chose Kafka because of replay.", "We chose Kafka", "replay"},
		{"Order events go to Kafka from now on.", "Order events go to Kafka from now on", ""},
		{"All PRs need a second review going forward.", "All PRs need a second review going forward", ""},
		{"I'll do that from now on.", "", ""},
		{"Are we switching the order events to Kafka?", "", ""},
		{"Settled:", "", ""},
		// Decisions against, with any verb; predictions and idioms are not.
		{"We won't migrate this quarter.", "We won't migrate this quarter", ""},
		{"We're not going to bother with RabbitMQ.", "We're not going to bother with RabbitMQ", ""},
		{"We won't make the deadline with Kafka.", "", ""},
		{"We won't need replay after all.", "", ""},
		{"We won't be using RabbitMQ.", "We won't be using RabbitMQ", ""},
		{"I won't be around next week.", "", ""},
		{"No RabbitMQ for now.", "No RabbitMQ for now", ""},
		{"£1,000 of it is going on a family holiday; that's settled and not up for debate.", "£1,000 of it is going on a family holiday; that's settled and not up for debate", ""},
		{"Is the budget settled?", "", ""},
		{"The committee met last night and went with Ticket Tailor, mostly because of the fees.", "The committee met last night and went with Ticket Tailor", "the fees"},
		{"They met last night and went with Ticket Tailor.", "", ""},
		{"The plan is 24 cameras in round one, then 12 in round two.", "The plan is 24 cameras in round one, then 12 in round two", ""},
		{"I'm adding caching for the pnpm store today.", "I'm adding caching for the pnpm store today", ""},
		{"I'm moving the mugs to $32.", "I'm moving the mugs to $32", ""},
		{"I'm moving the boxes to the garage.", "", ""},
		{"We've fixed the dates for our engineering offsite as 16–17 October.", "We've fixed the dates for our engineering offsite as 16–17 October", ""},
		{"Leadership has set the budget at $30,000.", "Leadership has set the budget at $30,000", ""},
		{"Have they set the dates yet?", "", ""},
		{"The team has fixed the bug in the date picker.", "", ""},
		{"No worries for now.", "", ""},
		{"Great, that settles the big question: no nationwide JR Pass for us.", "No nationwide JR Pass for us", ""},
		{"No problem for us.", "", ""},
		{"No word from the platform team yet.", "", ""},
		// The first person: a choice, not a task.
		{"I'm going to use Kafka with 7-day retention.", "I'm going to use Kafka with 7-day retention", ""},
		{"I'll open a ticket for the platform team.", "", ""},
		{"I'm going to use the bathroom.", "", ""},
		{"I'll use the replayable log.", "I'll use the replayable log", ""},
		// A purchase or booking committed to is a choice too.
		{"I'll book the Hanoi flight this weekend.", "I'll book the Hanoi flight this weekend", ""},
		{"I'll order a sample pack of the cryo labels first.", "I'll order a sample pack of the cryo labels first", ""},
		{"I'll ask the vendor about the Hanoi flight.", "", ""},
		{"OK, keep going.", "", ""},
		{"Sounds good, use your judgement.", "", ""},
		{"I'll keep that in mind.", "", ""},
		{"We'll be using Kafka for order events.", "We'll be using Kafka for order events", ""},
		{"We're going for Kafka.", "We're going for Kafka", ""},
		{"We're opting for Kafka.", "We're opting for Kafka", ""},
		{"I'll go for Kafka.", "I'll go for Kafka", ""},
		{"Done, going with Kafka.", "Going with Kafka", ""},
		{"Go for Kafka.", "Go for Kafka", ""},
		{"Scrap RabbitMQ, order events go to Kafka.", "Scrap RabbitMQ, order events go to Kafka", ""},
		// Labels.
		{"That's settled then: Kafka.", "Kafka", ""},
		{"Consensus: Kafka with 7-day retention.", "Kafka with 7-day retention", ""},
		{"The consensus was Kafka.", "The consensus was Kafka", ""},
		{"The consensus was split.", "", ""},
		{"Their consensus was Kafka.", "", ""},
		{"OK, our consensus is Kafka.", "Our consensus is Kafka", ""},
		{"Final answer: Kafka.", "Kafka", ""},
		{"Chosen: 3 of 5 tests pass.", "", ""},
		{"Picked: nothing yet.", "", ""},
		{"Plan: ask the platform team?", "", ""},
		{"Decision: 3 brokers.", "3 brokers", ""},
		{"Plan: Kafka for order events, RabbitMQ stays for email jobs.", "Kafka for order events, RabbitMQ stays for email jobs", ""},
		{"Recommendation: keep RabbitMQ for email jobs.", "", ""},
		// Changes reported as made, and "decided" as a label.
		{"I've gone ahead and switched the order events to Kafka.", "I've gone ahead and switched the order events to Kafka", ""},
		{"Went with Kafka.", "Went with Kafka", ""},
		{"The platform team went with Kafka.", "", ""},
		{"They moved to Kafka last year.", "", ""},
		{"We're sticking to RabbitMQ for now.", "We're sticking to RabbitMQ for now", ""},
		{"OK, decided: Kafka for order events, RabbitMQ for email.", "Kafka for order events, RabbitMQ for email", ""},
		{"It's decided, Kafka.", "Kafka", ""},
		{"Agreed on the risk.", "", ""},
		{"Decided, we'll see.", "", ""},
		{"OK, went with Kafka.", "Went with Kafka", ""},
		{"OK, here's the plan. Why did RabbitMQ drop messages? No idea.", "", ""},
		{"Kafka lets us replay any day, and lets the team add consumers later.", "", ""},
		{"Lets use Kafka.", "Lets use Kafka", ""},
		// A plan the user lays out.
		{"Final plan:\n1. Kafka for order events.\n2. RabbitMQ stays for email.", "Kafka for order events|RabbitMQ stays for email", ""},
		{"Here's what we'll do:\n- Kafka for order events\n- maybe a second cluster later\n- I wonder whether RabbitMQ can go", "Kafka for order events", ""},
		{"Let's do this! The team is nervous about the migration.", "", ""},
		{"Decisions:\n- Kafka for order events\n- RabbitMQ until the email rewrite ships", "Kafka for order events|RabbitMQ until the email rewrite ships", ""},
		{"OK, here's what we'll do. Order events go to Kafka. Email jobs stay on RabbitMQ.", "Order events go to Kafka|Email jobs stay on RabbitMQ", ""},
		// Forms found missing by phrasings written apart from the labelled
		// set: "we're going to" with any verb, "go ahead and", "X it is,
		// then", a call or choice named, the present tense after a yes.
		{"We're going to move order events to Kafka.", "We're going to move order events to Kafka", ""},
		{"We're going to need more brokers.", "", ""},
		{"Let's go ahead and move order events to Kafka.", "Let's go ahead and move order events to Kafka", ""},
		{"Let's go ahead and look at the numbers.", "", ""},
		{"Kafka it is, then.", "Kafka", ""},
		{"Let's not bother with RabbitMQ for now.", "Let's not bother with RabbitMQ for now", ""},
		{"In the end we went for Kafka.", "In the end we went for Kafka", ""},
		{"We went for a walk to think it over.", "", ""},
		{"We went ahead with Kafka.", "We went ahead with Kafka", ""},
		{"The team voted for Kafka.", "The team voted for Kafka", ""},
		{"My call: Kafka with 7-day retention.", "Kafka with 7-day retention", ""},
		{"Decision made: Kafka.", "Kafka", ""},
		{"Ok so the call is to use Kafka.", "the call is to use Kafka", ""},
		{"The call is expensive, it takes two seconds.", "", ""},
		{"Our choice is Kafka.", "Our choice is Kafka", ""},
		{"Our choice of broker matters less than the schema.", "", ""},
		{"I think we should go with Kafka.", "I think we should go with Kafka", ""},
		{"We should use Kafka, but legal hasn't approved it yet.", "", ""},
		{"We should probably look at Kafka at some point.", "", ""},
		{"OK, so we're using Kafka for order events.", "We're using Kafka for order events", ""},
		{"Alright, we keep RabbitMQ for email.", "We keep RabbitMQ for email", ""},
		{"So we keep getting timeouts from RabbitMQ.", "", ""},
		{"We use RabbitMQ for everything at the moment.", "", ""},
		// A conclusion after "so" mid-sentence, with or without its comma.
		{"Talked to Mira, she's in so we run the steam playtest in October.", "We run the steam playtest in October", ""},
		{"Gandi's docs are vague so we'll do the manual re-signing.", "We'll do the manual re-signing", ""},
		{"We run RabbitMQ on three nodes today.", "", ""},
		{"It was late so we run out of time.", "", ""},
		{"Then we're doing fine on disk.", "", ""},
		{"Let's have the order service publish to Kafka.", "Let's have the order service publish to Kafka", ""},
		{"Let's have a look at the logs first.", "", ""},
		{"We'll take the managed Kafka option.", "We'll take the managed Kafka option", ""},
		{"We'll take the weekend to decide.", "", ""},
		{"Approved, go ahead with Kafka.", "Go ahead with Kafka", ""},
		{"We're locking in Kafka for order events.", "We're locking in Kafka for order events", ""},
		// "that" points past the speaker's own check of what they said; said
		// before a "we'll", it is still what was decided, and never kept
		// unresolved.
		{"ok so basically: Kafka for order events and RabbitMQ for email. that's the split you meant, right? yes, let's do that, we'll put it in the runbook.", "Kafka for order events and RabbitMQ for email", ""},
		{"Let's do that, we'll put it in the runbook.", "", ""},
		// How it was decided is no part of the decision.
		{"Talked it through with the team last night and we're switching order events to Kafka.", "We're switching order events to Kafka", ""},
		{"Priya, the two leads and I sat down on Monday, and we're going with Kafka.", "We're going with Kafka", ""},
		{"We sat down with the devs and our director, and we're going with Kafka.", "We're going with Kafka", ""},
		{"We discussed it at the architecture review and the CTO signed off on Kafka.", "The CTO signed off on Kafka", ""},
		{"Events: we talked about it this morning and we're going with Kafka.", "Events: we're going with Kafka", ""},
		{"Cofounder and I talked this morning: we're switching order events to Kafka.", "We're switching order events to Kafka", ""},
		{"We discussed Kafka and RabbitMQ, and the team liked Kafka.", "", ""},
		{"We talked to the vendor and we're going with Kafka because of replay.", "We're going with Kafka", "replay"},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			c := &conversation.Conversation{Messages: []conversation.Message{
				{Index: 0, Role: conversation.RoleUser, Content: "Kafka or RabbitMQ for order events? We need a 7-day replay."},
				{Index: 1, Role: conversation.RoleAssistant, Content: "Kafka keeps a replayable log; RabbitMQ is simpler to run."},
				{Index: 2, Role: conversation.RoleUser, Content: tt.reply},
			}}
			ds := e.Decisions(c)
			var got []string
			for _, d := range ds {
				got = append(got, d.Decision)
			}
			switch {
			case tt.want == "" && len(ds) > 0:
				t.Errorf("decisions %+v, want none", ds)
			case tt.want != "" && (strings.Join(got, "|") != tt.want || ds[0].Rationale != tt.wantWhy):
				t.Errorf("decisions %+v, want %q because %q", ds, tt.want, tt.wantWhy)
			}
		})
	}
}

// TestDecisionReplies checks replies to an assistant's recommendation: what
// each records, with every "that" resolved and every bare name checked
// against what was proposed.
func TestDecisionReplies(t *testing.T) {
	e := New(nil, Options{})
	const proposed = "Postgres with logical replication for the reporting replica"
	tests := []struct {
		reply string
		want  string // decisions joined by "|"; "" for none
	}{
		{"Logical replication, since we already run Postgres everywhere.", proposed},
		{"Logical replication then.", proposed},
		{"Postgres is what we have.", ""},
		{"Logical replication lag worries me.", ""},
		{"Let's do that but with two slots per replica.", proposed + " — but with two slots per replica"},
		{"OK, let's do it with logical replication.", proposed},
		{"Let's do it with the nightly dump instead.", "Let's do it with the nightly dump instead"},
		{"I'll do that.", proposed},
		{"I'd rather go with the nightly dump.", "I'd rather go with the nightly dump"},
		{"Sold.", proposed},
		{"Let's do this! I'm a bit nervous about the cutover though.", proposed},
		{"Fine, nightly dumps it is.", "nightly dumps"},
		{"I'll open a ticket for the data team.", ""},
		// Against what "that" points at: never recorded as if taken.
		{"Let's not do that.", "Decided against: " + proposed},
		{"We won't go with that because of cost.", "Decided against: " + proposed},
		{"I won't use it.", "Decided against: " + proposed},
		{"Scrap that.", "Decided against: " + proposed},
		{"We're dropping it.", "Decided against: " + proposed},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			got := replyDecisions(e, "How should we feed the reporting database? Nightly dumps are too slow.", "I'd recommend "+proposed+", because it keeps one database engine to operate. Does that work for you?", tt.reply)
			if strings.Join(got, "|") != tt.want {
				t.Errorf("decisions %q, want %q", got, tt.want)
			}
		})
	}
}

// replyDecisions returns the decisions of a three-message exchange: the
// user's question, the assistant's answer and the user's reply.
func replyDecisions(e *Extractor, question, answer, reply string) []string {
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Index: 0, Role: conversation.RoleUser, Content: question},
		{Index: 1, Role: conversation.RoleAssistant, Content: answer},
		{Index: 2, Role: conversation.RoleUser, Content: reply},
	}}
	return decisionTexts(e, c)
}

// decisionTexts returns the decisions e finds in c, their text only.
func decisionTexts(e *Extractor, c *conversation.Conversation) []string {
	var got []string
	for _, d := range e.Decisions(c) {
		got = append(got, d.Decision)
	}
	return got
}

// TestDecisionChoices checks replies to an assistant that lays out
// alternatives without recommending one, and to one that offers a change.
func TestDecisionChoices(t *testing.T) {
	const options = sqsOrKafka
	const offer = "The misses come from the per-request TTL. Want me to switch the session cache to Redis with a 30-minute TTL?"
	checkReplies(t, "We need a queue and a cache for the new service.", []replyCase{
		{options, "Perfect. SQS for the queue, Redis for the cache.", "SQS for the queue, Redis for the cache"},
		{options, "OK so SQS, and Redis since we need persistence.", "SQS, and Redis"},
		{options, "Fine by me, SQS.", "SQS"},
		{options, "I think SQS makes sense for us.", "SQS makes sense for us"},
		{options, "SQS is the right call.", "SQS is the right call"},
		{options, "That makes sense.", ""},
		{options, "Thanks! That settles it, SQS.", "SQS"},
		{options, "SQS it is, and Redis for the cache.", "SQS, and Redis for the cache"},
		{options, "SQS it is, but I still think Kafka would scale better.", "SQS"},
		{options, "SQS it is — and I'm off for the day.", "SQS"},
		{options, "SQS it is, but with a dead-letter queue.", "SQS, but with a dead-letter queue"},
		{options, "Summary of what we agreed:\n- SQS for the queue\n- Redis for the cache", "SQS for the queue|Redis for the cache"},
		{options, "Chosen: Redis for the cache.", "Redis for the cache"},
		{options, "Kafka is what the other team runs.", ""},
		{options, "SQS lag worries me.", ""},
		{offer, "Yes, do it.", "Switch the session cache to Redis with a 30-minute TTL"},
		{offer, "Sure.", "Switch the session cache to Redis with a 30-minute TTL"},
		{offer, "No, keep the TTL per request.", "No, keep the TTL per request"},
		{"Tests pass. Should I commit these changes?", "Yes.", ""},
	})
}

// replyCase is an assistant's answer, the user's reply to it and the
// decisions the reply records, joined by "|" ("" for none).
type replyCase struct{ answer, reply, want string }

// checkReplies checks each case as the exchange question, answer, reply.
func checkReplies(t *testing.T, question string, tests []replyCase) {
	t.Helper()
	turns := make([]turnsCase, 0, len(tests))
	for _, tt := range tests {
		turns = append(turns, turnsCase{tt.reply, []string{question, tt.answer, tt.reply}, tt.want})
	}
	checkTurns(t, turns)
}

// turnsCase is a conversation's texts, user first and alternating, and the
// decisions it records, joined by "|" ("" for none).
type turnsCase struct {
	name  string
	turns []string
	want  string
}

// checkTurns checks the decisions of each case's whole conversation.
func checkTurns(t *testing.T, tests []turnsCase) {
	t.Helper()
	e := New(nil, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decisionTexts(e, conv(tt.turns...))
			if strings.Join(got, "|") != tt.want {
				t.Errorf("decisions %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAgreedOnProposal checks that "Agreed on splitting." records the
// proposal it takes, once, without the comment the recommendation ends on.
func TestAgreedOnProposal(t *testing.T) {
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Index: 0, Role: conversation.RoleUser, Content: "Both environments share one state file. What now?"},
		{Index: 1, Role: conversation.RoleAssistant, Content: "Options: -target once, per-environment values, or split the state per environment. I'd recommend the split; the other two only hide the problem."},
		{Index: 2, Role: conversation.RoleUser, Content: "Agreed on splitting. Workspaces or separate directories?"},
	}}
	ds := New(nil, Options{}).Decisions(c)
	if len(ds) != 1 || ds[0].Decision != "the split" || ds[0].Rationale != "the other two only hide the problem" {
		t.Errorf("decisions %+v, want the split because the other two only hide the problem", ds)
	}
}

// TestDecisionOptions checks replies that pick among numbered or labelled
// options: the option picked is recorded, never the one recommended.
func TestDecisionOptions(t *testing.T) {
	const headings = "Three ways:\n\n### Option 1: Sharded LRU\nN independent LRUs.\n\n### Option 2: ristretto\nVery fast, async Set.\n\nI'd recommend option 1."
	const numbered = "Three ways:\n\n1. **Sharded LRU** – N independent LRUs, no dependency.\n2. **ristretto** – very fast, but async Set.\n\nWhich do you prefer?"
	const first, second = "Sharded LRU – N independent LRUs, no dependency", "ristretto – very fast, but async Set"
	const lettered = "For the spec:\n\na) **Leave it.** Accept the red runs.\nb) **Quarantine:** skip the tests.\nc) **Per-spec retries:** 1 retry for this spec only.\n\nI'd lean towards (b)."
	const warned = "Two ways:\n\n**Option A: SQS.** Managed and cheap.\n\n**Option B: Kafka.** I'd avoid this one at your volume."
	const approaches = "Two ways:\n\n**Approach 1: Sharded LRU.** N independent LRUs, no dependency.\n\n**Approach 2: ristretto.** Very fast, but async Set.\n\nBoth work."
	tests := []struct {
		assistant, reply, want string
	}{
		// A heading is a title: the line under it says what it is.
		{headings, "Sounds good.", "Sharded LRU: N independent LRUs"},
		{headings, "Option 2.", "ristretto: Very fast, async Set"},
		{headings, "Let's go with option 2.", "ristretto: Very fast, async Set"},
		{numbered, "The second one.", second},
		{numbered, "#2 please.", second},
		{numbered, "Let's go with 2.", second},
		{numbered, "We'll take option 1.", first},
		{numbered, "2", second},
		{numbered, "Option 7.", ""},
		{numbered, "2 obviously, she told me that in the meeting.", second},
		// "Approach N" labels options too; a bold title alone takes the
		// sentence after it; "going with" picks.
		{approaches, "Go ahead with the second approach. The auditors want reviewed changes.", "ristretto: Very fast, but async Set"},
		{approaches, "Where we landed:\n\n- Going with 1.\n- Nobody tunes shard counts by hand.", "Sharded LRU: N independent LRUs, no dependency|Nobody tunes shard counts by hand"},
		{approaches, "Going with C.", ""},
		// A bold title alone on its line: the bullet under it says what it
		// is; a paragraph after it is commentary.
		{"Routes:\n\n**A) Classic, unhurried**\n- Tokyo 5 → Kyoto 4 → Osaka 3\n\n**B) Classic + hot springs**\n- Tokyo 4 → Hakone 1 → Kyoto 4 → Osaka 3\n- One ryokan night.", "B.", "Classic + hot springs: Tokyo 4 → Hakone 1 → Kyoto 4 → Osaka 3"},
		{"Indexes:\n\n**Option A: `(customer_id, created_at)`**\n```sql\nALTER TABLE orders ADD INDEX i (customer_id, created_at);\n```\nMySQL seeks to the customer and stops after 50 rows.\n\n**Option B: `(customer_id, status)`**\nFewer rows read.", "ok A it is.", "`(customer_id, created_at)`"},
		{approaches, "Let's go with 8.", "Let's go with 8"}, // a quantity, not an option
		{approaches, "Option 2, the async Set worries me less than the lock.", "ristretto: Very fast, but async Set"},
		{warned, "B please.", "Kafka"}, // the sentence after the title judges it, it does not say what it is
		// Options lettered "a)" at a line's start.
		{lettered, "c. 1 retry, only that spec.", "Per-spec retries: 1 retry for this spec only"},
		{lettered, "(a) for now.", "Leave it: Accept the red runs"},
	}
	e := New(nil, Options{})
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			got := replyDecisions(e, "The session cache is contended. Options?", tt.assistant, tt.reply)
			if strings.Join(got, "|") != tt.want {
				t.Errorf("decisions %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPlanProposal checks that the items of an assistant's "Here's the
// plan:" list are the proposal a "sounds good" takes.
func TestPlanProposal(t *testing.T) {
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Index: 0, Role: conversation.RoleUser, Content: "How do we move off RabbitMQ without downtime?"},
		{Index: 1, Role: conversation.RoleAssistant, Content: "Here's the plan:\n1. Run both brokers in parallel.\n2. Mirror publishes with a dual-writer.\n3. Move consumers one at a time."},
		{Index: 2, Role: conversation.RoleUser, Content: "Sounds good."},
	}}
	ds := New(nil, Options{}).Decisions(c)
	want := "Run both brokers in parallel; Mirror publishes with a dual-writer; Move consumers one at a time"
	if len(ds) != 1 || ds[0].Decision != want || ds[0].MessageIndex != 2 {
		t.Errorf("decisions %+v, want %q at message 2", ds, want)
	}
}

// TestEverydayWords checks that the embedded word list parses: were its
// format to change, everyday would silently match nothing and single
// everyday words would lose their penalty.
func TestEverydayWords(t *testing.T) {
	if n := len(englishLevel()); n < 5000 {
		t.Errorf("english.txt parsed to %d words, want the SCOWL levels (over 5000)", n)
	}
	for w, want := range map[string]bool{"paper": true, "revenue": true, "kubernetes": false, "postgres": false, "": false} {
		if got := everyday(w); got != want {
			t.Errorf("everyday(%q) = %v, want %v", w, got, want)
		}
	}
	for w, want := range map[string]bool{"paper": true, "age": true, "revenue": false, "cluster": false, "kubernetes": false} {
		if got := commonest(w); got != want {
			t.Errorf("commonest(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestProposalForms checks more ways an assistant proposes, each taken by
// the user's reply, and a choice named with a comment after it.
func TestProposalForms(t *testing.T) {
	checkReplies(t, "How should we handle duplicate rows?", []replyCase{
		{"The simplest fix is to add a unique index on (user_id, day).", "Do it.", "add a unique index on (user_id, day)"},
		{"I'd go for option B, the read replica.", "Agreed.", "option B, the read replica"},
		{"Here's what I'd do: put the queue in Postgres with SKIP LOCKED.", "Yes, do that.", "put the queue in Postgres with SKIP LOCKED"},
		{"You could either use a bloom filter or a plain hash set. The hash set is simpler.", "Hash set, memory isn't a concern.", "Hash set"},
		{"You could either use a bloom filter or a plain hash set.", "Hash set, but I'm unsure it fits in memory.", ""},
		// A long reply: "please" marks the choice; without it the thing
		// said first is what the sentence is about.
		{"You could either use a bloom filter or a plain hash set.", "hash set please, there are a couple of services that share this cache and none of them can afford the false positives.", "hash set"},
		{"You could either use a bloom filter or a plain hash set.", "Hash set, the one we run in the session service today, is slow under load and I think we should look at other options.", ""},
		{"You could either use a bloom filter or a plain hash set.", "hash set then, when we have the memory budget for it next year, but a bloom filter for now since RAM is tight.", ""},
		{"You could either use a bloom filter or a plain hash set.", "hash set please, or a bloom filter if you think memory will be tight in the session service.", ""},
		{"You could either use a bloom filter or a plain hash set.", "hash set please, what does it cost in memory for ten million keys in the worst case here", ""},
		{"The simplest fix is to restart the pod.", "It keeps crashing after a restart though.", ""},
		// "the split" names the listed option it recommends; two options
		// it could name leave it as said.
		{"Options:\n- **Per-environment values:** a map keyed by environment.\n- **Split the state per environment:** one state file per environment.\n\nI'd recommend the split; the other one only hides the problem.", "Agreed on splitting.", "Split the state per environment: one state file per environment"},
		{"Options:\n- **Split the values:** a map keyed by environment.\n- **Split the state:** one state file per environment.\n\nI'd recommend the split.", "Agreed.", "the split"},
		// A proposal of "it" names nothing: the earlier one stands.
		{"For Multi-AZ, I'd recommend it if you can afford it. For backups I'd suggest daily snapshots kept 35 days.", "Yep, do that.", "daily snapshots kept 35 days"},
	})
}

// TestDecisionFormsInTheWild checks forms found in conversations written
// apart from the extractor (the labelled set's files 87–117): a thing ruled
// out, a yes with an instruction, a decision against in the progressive, a
// recap, "X it is" inside a longer sentence.
func TestDecisionFormsInTheWild(t *testing.T) {
	const suggestion = "My suggestion: Keycloak or Clerk for auth. Both have SSO."
	checkReplies(t, "Which auth provider?", []replyCase{
		{suggestion, "Keycloak is out, nobody here wants to be on call for it.", "Keycloak is out"},
		{suggestion, "And I checked the contract: so cross-region copies to Ireland are out.", "cross-region copies to Ireland are out"},
		{suggestion, "That's out of scope for now.", ""},
		{suggestion, "Is Keycloak out?", ""},
		{suggestion, "Yes, put 15% aside as contingency.", "Keycloak or Clerk for auth|put 15% aside as contingency"},
		{suggestion, "So we are out of options, sadly.", ""},
		{suggestion, "Letters of support: nice idea but we're not chasing those.", "Letters of support: nice idea but we're not chasing those"},
		{suggestion, "We're not seeing errors since the deploy.", ""},
		{suggestion, "We're not using Supabase for anything else.", ""},
		{suggestion, "Talked to my partner: alright, stock shaker it is, the semi-custom ones cost too much.", "stock shaker"},
		{suggestion, "So to recap:\n- two arms, 17% vs 25%\n- 7 weeks, no early stopping", "two arms, 17% vs 25%|7 weeks, no early stopping"},
		{suggestion, "So, to recap:\n- Clerk for auth\n- SSO once a customer asks", "Clerk for auth|SSO once a customer asks"},
		{suggestion, "Update: we talked it through and ended up going with Vite.", "ended up going with Vite"},
		{suggestion, "Your way.", "Keycloak or Clerk for auth"},
	})
}

// TestNamedThing checks that "the X" a reply decides is named as the
// assistant named it, when it named exactly one such thing.
func TestNamedThing(t *testing.T) {
	const menu = "| Dish | Sold |\n|---|---|\n| Lasagna vegetariana | 74 |\n| Risotto al nero | 12 |\n\n**Venue:** the **Hotel near Marquês** costs more."
	const two = "| Dish | Sold |\n|---|---|\n| Lasagna vegetariana | 74 |\n| Lasagna bolognese | 60 |"
	checkReplies(t, "What should change on the menu?", []replyCase{
		{menu, "The lasagna yes, we put it on top of the mains.", "Lasagna vegetariana"},
		{menu, "So the hotel it is.", "Hotel near Marquês"},
		{two, "The lasagna yes, we put it on top of the mains.", "The lasagna"},
		{menu, "The risotto yes.", "Risotto al nero"},
		{menu, "The tiramisu yes.", ""}, // never offered: no pick
	})
}

// TestOptionLaterNamed checks that an option named by its label turns after
// it was laid out is recorded with what it is, and that a reply which picks
// an option and says it in its own words keeps its words.
func TestOptionLaterNamed(t *testing.T) {
	const options = "For the signed zones you can do:\n\n- **(a)** a multi-signer setup, both providers' keys published.\n- **(b)** removing the DS record, migrating unsigned, then signing again.\n\n(b) is simpler, at the cost of a window without DNSSEC."
	tests := []struct {
		later []string // the turns after the options: assistant, user, …
		want  string
	}{
		{[]string{"Three zones are signed.", "we'll do (b) for the three signed zones."}, "We'll do (b) for the three signed zones — removing the DS record, migrating unsigned, then signing again"},
		{[]string{"Three zones are signed.", "we'll do (b): removing the DS record, migrating unsigned."}, "We'll do (b): removing the DS record, migrating unsigned"},
		{[]string{"Three zones are signed.", "we'll do (c) for the three signed zones."}, "We'll do (c) for the three signed zones"},
		{[]string{"we're going with (b), drop the DS record at Gandi on Monday and migrate unsigned on Tuesday."}, "We're going with (b), drop the DS record at Gandi on Monday and migrate unsigned on Tuesday"},
		{[]string{"we're going with (b), no worries."}, "removing the DS record, migrating unsigned, then signing again"},
		// A pick after the assistant answered a question and named the
		// option again, without laying the options out anew.
		{[]string{"With three signed zones I'd go with **(b)**, the window is short.", "ok (b) it is."}, "removing the DS record, migrating unsigned, then signing again"},
		{[]string{"With three signed zones, the window is short either way.", "ok (b) it is."}, ""},
	}
	var cases []turnsCase
	for _, tt := range tests {
		turns := []string{"We move DNS to Route 53. What about DNSSEC?", options}
		if len(tt.later) > 1 {
			turns = append(turns, "How many zones does that concern?") // later opens with the assistant
		}
		cases = append(cases, turnsCase{strings.Join(tt.later, " / "), append(turns, tt.later...), tt.want})
	}
	checkTurns(t, cases)
}

// TestNoOverreach holds replies on which the forms that resolve options,
// names and stories once went too far: each must record what is shown, and
// none may panic.
func TestNoOverreach(t *testing.T) {
	const ab = "Two ways:\n\n- **(a)** run it in the office.\n- **(b)** run it at the hotel."
	const abBackfill = "**Option A:** dual writes for two weeks.\n\n**Option B:** a one-shot backfill over the weekend."
	const redis = "I'd recommend moving the session cache to Redis with a 30 minute TTL."
	checkTurns(t, []turnsCase{
		{"bytes of a lowered rune", []string{"Where?", ab, "We'll do the ȺȺȺȺ team's pick, (b)."}, "We'll do the ȺȺȺȺ team's pick, (b) — run it at the hotel"},
		{"a clause's letter", []string{"How?", abBackfill, "Option B.", "Done.", "We'll rely on clause 7(b) of the vendor contract for the exit."},
			"a one-shot backfill over the weekend|We'll rely on clause 7(b) of the vendor contract for the exit"},
		{"the word option", []string{"Where?", ab, "Fine.", "Noted.", "We'll add SSO as an option a customer can switch on."}, "We'll add SSO as an option a customer can switch on"},
		{"an enumeration", []string{"How?", abBackfill, "Then we'll do (a) freeze writes and (b) run the backfill."}, "We'll do (a) freeze writes and (b) run the backfill"},
		{"a story verb after the decision", []string{"Which vendor?", "Twilio or the other one.", "We're switching to the vendor that spoke at the meetup, and we're dropping Twilio."},
			"We're switching to the vendor that spoke at the meetup, and we're dropping Twilio"},
		{"a relative clause", []string{"Schema?", "The new schema is ready.", "Decision: the schema we discussed, and we keep MySQL for the legacy app."},
			"the schema we discussed, and we keep MySQL for the legacy app"},
		{"a change to the proposal", []string{"Cache?", redis, "Sounds good. Let's do it with Memcached instead of Redis, we already run it."},
			"moving the session cache to Redis with a 30 minute TTL|Let's do it with Memcached instead of Redis, we already run it"},
		{"an idiom before we'll", []string{"Ship?", "I'd recommend fixing the API timeouts first: raise the pool size to 20.", "Honestly let's just ship it, we'll fix the CSS next week."},
			"Honestly let's just ship it, we'll fix the CSS next week"},
		{"a yes that is no summary", []string{"Cache?", redis + " The p99 would drop.", "OK, the p99 numbers are convincing. Let's do that."},
			"moving the session cache to Redis with a 30 minute TTL"},
		{"a heading", []string{"Menu?", "## Why not the lasagna\n\nIt sells badly.", "So the lasagna it is."}, "the lasagna"},
		{"a bold sentence", []string{"Venue?", "**The hotel needs a deposit** of 20%.", "The hotel it is."}, "The hotel"},
		{"the item not recommended", []string{"State?", "Options:\n- Workspaces: no need to split anything, but one shared backend.\n- Directories per environment.\n\nI'd recommend the split.", "Agreed."}, "the split"},
		{"a comment after it is", []string{"Queue?", "Plan A is SQS, plan B is Kafka.", "Plan B it is, but I still think SQS would be cheaper."}, "Plan B"},
		{"the assistant's advice in the imperative", []string{"Which definition?", "## Recommendation\nGo with **B** for the definition and **UTC** for the company-level DAU.", "thanks, what about bots?"}, ""},
		{"news after a label", []string{"Campaign?", "## Is it doable?\nYes, if you keep the scope tight:\n- **1 story dog** + **4 emails** (launch, mid-campaign update, thank you)\n- **3 social posts a week**", "update!! board meeting was last night."}, ""},
		{"a tone for the assistant's draft", []string{"Invites?", "I can draft the WhatsApp message.", "can you draft it in portuguese? keep it a bit mysterious, she might see someone's phone"}, ""},
		{"a vote to come", []string{"IaC?", "CDK or Terraform both work.", "IaC still open. I'll bring it to the team on friday and we'll vote."}, ""},
		{"a reason cut from its clause", []string{"Round?", "A priced round fits.", "we're switching to the priced round. the stay-lean plan was mostly because we assumed nobody would lead."}, "We're switching to the priced round"},
		{"a hope", []string{"Queue?", "SQS is managed and cheap at your volume.", "i hope we'll use SQS, but it's the CTO's call."}, ""},
		{"a fear", []string{"Queue?", "SQS is managed and cheap at your volume.", "honestly i'm scared that we'll go with SQS and regret it."}, ""},
		{"a worry", []string{"CI?", "Move e2e to nightly.", "honestly i agree. worried we'll merge something that breaks e2e and nobody notices for days tho"}, ""},
		{"a number written two ways", []string{"Cap?", "Cap it.", "We'll cap retries at $1,000 a month.", "Fine.", "So we'll cap retries at $1000 a month."}, "We'll cap retries at $1,000 a month"},
	})
}

// TestChoiceOverAlternative checks "I'll" and any verb as a choice when the
// sentence says what it is chosen over ("rather than", "instead of"), and
// a task when the verb finds something out or passes it on.
func TestChoiceOverAlternative(t *testing.T) {
	const fan = "A fan with a built-in humidity sensor, or a humidity switch on the wall. Either clears the mould."
	checkTurns(t, []turnsCase{
		{"any verb", []string{"The bathroom fan is weak.", fan, "I'll get an 80 CFM model with the sensor built in rather than messing with a wall switch."},
			"I'll get an 80 CFM model with the sensor built in rather than messing with a wall switch"},
		{"instead of", []string{"Grout haze?", "Vinegar, or a haze remover after day 7.", "Right, I'll use a proper haze remover instead of the vinegar."},
			"I'll use a proper haze remover instead of the vinegar"},
		{"hangs on a condition", []string{"Efficiency is 86%.", "Run a gradient, or correct with Pfaffl.", "If it's still under 90% after that, I'll redesign the primers instead of leaning on Pfaffl."}, ""},
		{"a task", []string{"Who owns the DNS?", "Ask the platform team.", "I'll ask legal rather than guess."}, ""},
		{"no alternative", []string{"Fan?", fan, "I'll get the ladder out this weekend."}, ""},
		{"a call", []string{"How do I tell her?", "In person is kinder.", "I'm going to ring her rather than text."}, ""},
		{"instead at the end", []string{"Full refresh weekly?", "A weekly full refresh, or a row-count test against the source.", "I'll add the row-count comparison against the source instead, with severity set to warn."},
			"I'll add the row-count comparison against the source instead, with severity set to warn"},
		{"then", []string{"Retakes?", "Write the retake versions with the originals.", "I'll write the retake versions at the same time as the originals, then."},
			"I'll write the retake versions at the same time as the originals"},
	})
}

// TestChangeUnderWay checks a user's change of course or order in the
// progressive ("I'm widening the window to five days"), a thing reported
// booked or ordered, and a reply that names what it takes before "then",
// against their look-alikes.
func TestChangeUnderWay(t *testing.T) {
	const window = "insert_overwrite with a three-day window, or a merge on event_id."
	checkTurns(t, []turnsCase{
		{"widening", []string{"Late events?", window, "Some clients hold events for four days, so I'm widening the window to five days rather than four."},
			"I'm widening the window to five days rather than four"},
		{"filing", []string{"The claim was denied.", "You can appeal internally or ask for an external review.", "I'm filing the internal appeal anyway, with letters from both the therapist and his pediatrician."},
			"I'm filing the internal appeal anyway, with letters from both the therapist and his pediatrician"},
		{"moving to", []string{"Homework completion is low.", "Shorter tasks help.", "I'm moving both classes to two 20-minute sets a week, starting after half-term."},
			"I'm moving both classes to two 20-minute sets a week, starting after half-term"},
		{"a state, not a change", []string{"Homework completion is low.", "Shorter tasks help.", "I'm running two classes this year and I'm worried about both."}, ""},
		{"booked", []string{"Venue?", "The barn has a hall, the hotel has rooms.", "The barn is booked: I paid the deposit this morning."}, "The barn is booked"},
		{"ordered", []string{"Damp basement.", "A 50-pint dehumidifier drained into the sump.", "The 50-pint unit is ordered, and it drains into the sump pit."},
			"The 50-pint unit is ordered, and it drains into the sump pit"},
		{"booked solid", []string{"Venue?", "The barn has a hall.", "The barn is booked solid until May, sadly."}, ""},
		{"not yet booked", []string{"Venue?", "The barn has a hall.", "Once the barn is booked, what about catering?"}, ""},
		{"signed is no purchase", []string{"DNSSEC?", "Check which zones are signed.", "Only 3 zones are signed, but one is the main domain."}, ""},
		{"a thing, then", []string{"Late events?", window, "It's 2 TB. insert_overwrite with a four-day window, then."}, "insert_overwrite with a four-day window"},
		{"no thing, then", []string{"JR Pass?", "It doesn't pay off on your route.", "No JR Pass, then: point-to-point tickets and IC cards."},
			"No JR Pass, then: point-to-point tickets and IC cards"},
		{"a farewell, then", []string{"Meet?", "Tomorrow at 10 works.", "See you tomorrow, then."}, ""},
		{"an interjection, then", []string{"Meet?", "Tomorrow at 10 works.", "OK, then."}, ""},
		// Look-alikes found in review.
		{"a stock phrase, then", []string{"Meet?", "Tomorrow at 10 works.", "Fair enough, then. Never mind, then."}, ""},
		{"no feelings, then", []string{"Meet?", "I can't make it.", "No hard feelings, then."}, ""},
		{"booked, shortened", []string{"Venue?", "The barn has a hall.", "The barn's booked: I paid the deposit."}, "The barn's booked: I paid the deposit"},
		{"nothing booked", []string{"Venue?", "The barn has a hall.", "Nothing is booked yet, so we're free."}, ""},
		{"an errand", []string{"Late events?", window, "I'm ordering pizza for everyone tonight."}, ""},
		{"a change of clothes", []string{"Late events?", window, "I'm changing my clothes before dinner."}, ""},
	})
}

// TestOptionTurnedDownOrPriced checks an option the assistant named turned
// down in the progressive ("we're not using Glacier"), a price settled in
// the first person ("I'll quote them $5,800"), a change bumped up, and a
// thing ruled out that is a code name ("max_connections is off the table");
// and their look-alikes: how things are ("we're not using any cache"), an
// offer of help.
func TestOptionTurnedDownOrPriced(t *testing.T) {
	const store = "Glacier Deep Archive, or the tape archive research computing runs."
	checkTurns(t, []turnsCase{
		{"not using", []string{"Where do the raw FASTQ files go?", store, "The tape archive is free up to 100 TB. We're not using Glacier."}, "We're not using Glacier"},
		{"not going with", []string{"Where do the raw FASTQ files go?", store, "We're not going with Glacier, the retrieval fees scare me."},
			"We're not going with Glacier, the retrieval fees scare me"},
		{"not using anything", []string{"Why is the dashboard slow?", "Check whether a cache sits in front of the queries.", "We're not using any cache right now."}, ""},
		{"not using it for anything else", []string{"Which auth provider?", "Supabase Auth, Clerk or Keycloak.", "Supabase Auth is tempting, but we're not using Supabase for anything else so idk."}, ""},
		{"not using, unnamed", []string{"Where do the raw FASTQ files go?", store, "We're not using Dropbox for this."}, ""},
		{"quote", []string{"How should I price it?", "Tiered packages, or one number for the whole job.", "Tiers feel gimmicky to my clients. I'll quote them $5,800."}, "I'll quote them $5,800"},
		{"counter", []string{"What should I offer?", "Comparable flats rent for £1,700.", "I'll counter at £1,725 for 12 months."}, "I'll counter at £1,725 for 12 months"},
		{"an offer of help", []string{"What should I offer?", "Comparable flats rent for £1,700.", "I'll offer to help him with the garden."}, ""},
		{"bumping", []string{"How much should go into the 401k?", "Your employer matches your contribution up to 4%.", "I'm bumping my contribution to 4% from my next paycheck."},
			"I'm bumping my contribution to 4% from my next paycheck"},
		{"a code name ruled out", []string{"Too many connections.", "Raise max_connections, or give the job its own alias.", "Raising max_connections is off the table, the instance is short on memory."},
			"Raising max_connections is off the table"},
		// Look-alikes found in review.
		{"an answer on the facts", []string{"Which store?", "Are you using Redis for sessions today, or Postgres?", "We're not using Redis."}, ""},
		{"not anywhere", []string{"Which DB?", "Postgres is the natural choice if you run it anywhere.", "No, we're not using Postgres anywhere."}, ""},
		{"a belief", []string{"Where do the raw FASTQ files go?", store, "I thought we're not using Glacier."}, ""},
		{"a condition", []string{"Which DB?", "Postgres or MySQL.", "We're not using Postgres unless the client pays for it."}, ""},
		{"using another already", []string{"Which DB?", "Postgres or MySQL.", "We're not using Postgres, we're using MySQL already."}, ""},
		{"a possessive", []string{"Which editor?", "VS Code licences are cheap.", "We're not using our VS Code licences."}, ""},
		{"bumping into", []string{"Memory limit?", "Raise the memory limit or fix the error.", "I'm bumping into the same error again."}, ""},
		{"bumping up against", []string{"Memory limit?", "Raise the memory limit or fix the error.", "I'm bumping up against the memory limit again."}, ""},
		{"a price still weighed", []string{"Price?", "Quote them a single number.", "I'll quote them $900 I guess, or maybe $1,000."}, ""},
	})
}

// TestRationaleReadsAfterBecause checks that a reason the user gave with
// its own "because" is kept without it: every client shows a rationale
// after "because".
func TestRationaleReadsAfterBecause(t *testing.T) {
	c := conv("Too many connections.", "Raise max_connections, or give the job its own alias.",
		"Raising max_connections is off the table anyway, because our DBA says the instance is short on memory.")
	ds := New(nil, Options{}).Decisions(c)
	if len(ds) != 1 || ds[0].Rationale != "our DBA says the instance is short on memory" {
		t.Errorf("decisions %+v, want one with the reason after its because", ds)
	}
}

// TestAgreedKeptDropped checks forms of the eighth blind batch: a group's
// agreement reported with its time ("agreed last week that …"), a thing
// ruled out for a while ("isn't happening this quarter"), a thing dropped
// with a bare "goes" after the assistant proposed dropping it, the
// assistant's proposal taken ("I'm taking your …"), "as it is" kept apart
// from the reason after it, and a proposal the user will put to the body
// that decides; and their look-alikes.
func TestAgreedKeptDropped(t *testing.T) {
	checkTurns(t, []turnsCase{
		{"agreed last week", []string{"Flaky tests keep failing main.", "Quarantine them, or retry them.", "The engineering managers agreed last week that flaky tests will be quarantined, not deleted."},
			"The engineering managers agreed last week that flaky tests will be quarantined, not deleted"},
		{"did agree this morning", []string{"Phones?", "Off and away all day, or a phone zone for sixth formers.", "The leadership team did agree this morning that sixth formers keep their phones."},
			"The leadership team did agree this morning that sixth formers keep their phones"},
		{"agreeing with a statement", []string{"Flaky tests keep failing main.", "Flaky tests are hard to pin down.", "I agree that they are hard to pin down."}, ""},
		{"not happening this quarter", []string{"Which autoscaler?", "Karpenter, or keep Cluster Autoscaler.", "Karpenter isn't happening this quarter, the team just upgraded."},
			"Karpenter isn't happening this quarter"},
		{"a bare goes", []string{"Cut-offs?", "Drop the km 30 cut-off, keep km 22.", "The km 30 cut-off goes, since that's where the 4x4 got stuck."}, "The km 30 cut-off goes"},
		{"goes, nothing proposed dropped", []string{"My knee hurts.", "The pain should ease with rest.", "The pain goes, then comes back at night."}, ""},
		{"how this goes", []string{"Exams?", "Drop the open-book exam, or keep it.", "Open-book can wait until I see how this goes."}, ""},
		{"taking your", []string{"Cut-offs?", "Km 22 at 11:45 and km 41 at 15:30.", "I'm taking your km 22 and km 41 cut-offs, 11:45 and 15:30."},
			"I'm taking your km 22 and km 41 cut-offs, 11:45 and 15:30"},
		{"taking your advice", []string{"Batches?", "Use smaller batches.", "I'm taking your advice on that."}, ""},
		{"as it is, then why", []string{"Packaging?", "Switch to recycled mailers, or keep the boxes.", "The packaging stays as it is; one breakage in 400 orders."}, "The packaging stays as it is"},
		{"as it is for now, then why", []string{"Packaging?", "Switch to recycled mailers, or keep the boxes.", "The packaging stays as it is for now; one breakage in 400 orders."}, "The packaging stays as it is for now"},
		{"to the governors", []string{"Phones?", "Off and away all day, or a phone zone.", "I'll take off and away all day to the governors as the main recommendation."},
			"I'll take off and away all day to the governors as the main recommendation"},
		{"it to the committee", []string{"Fees?", "A concession rate is easier to defend.", "I'll take it to the committee next week."}, ""},
		{"might take", []string{"Fees?", "A concession rate is easier to defend.", "I might take the concession rate to the committee."}, ""},
		{"asking whether to take", []string{"Fees?", "A concession rate is easier to defend.", "Should I take the concession rate to the committee?"}, ""},
		// Look-alikes the batch's first score showed.
		{"someone's estimate", []string{"Card only?", "Card-only saves cash handling.", "My accountant reckons we'll save around £3,000 a year on cash handling."}, ""},
		{"a talk to come", []string{"Loan or invest?", "Pay the loan if the rate is above 6%.", "We're going to sit down on Sunday and go through it."}, ""},
		{"our own will", []string{"Card only?", "Card-only saves cash handling.", "We'll switch the station shop to card-only from next month."}, "We'll switch the station shop to card-only from next month"},
		// Look-alikes found in review.
		{"agreed this was", []string{"The list?", "Add the migration to the list.", "He agreed this was on the list already."}, ""},
		{"agree this week, hoped", []string{"Switch?", "Switch to the new vendor.", "I hope they agree this week to the switch."}, ""},
		{"goes, after", []string{"Headaches?", "Drop caffeine for a week.", "The headache goes, after an hour."}, ""},
		{"never goes", []string{"The car?", "Drop the car and take the bus.", "The car never goes, it sits in the drive."}, ""},
		{"goes, then the next clause", []string{"Costs?", "Drop the gym membership and keep the car.", "The gym membership goes, the car stays."}, "The gym membership goes"},
		{"taking your car", []string{"The car?", "Your car needs new brakes.", "I'm taking your car to the garage tomorrow."}, ""},
		{"taking your numbers, undecided", []string{"Cut-offs?", "Km 22 at 11:45.", "I'm using your km 22 numbers, but I haven't decided."}, ""},
		{"kids to the council meeting", []string{"Fees?", "A concession rate is easier to defend.", "I'll bring the kids to the council meeting."}, ""},
		{"a question to the board", []string{"Fees?", "A concession rate is easier to defend.", "I'll put a question to the board about the concession rate."}, ""},
		{"both options to the committee", []string{"Fees?", "A concession rate or a flat fee.", "I'll put both options to the committee and let them choose."}, ""},
		{"kept as they are", []string{"Packaging?", "Switch to mailers, or keep the boxes.", "We're keeping the boxes as they are."}, "We're keeping the boxes as they are"},
		{"as, a reason", []string{"Packaging?", "Switch to mailers, or keep the boxes.", "We'll keep the boxes, as they are cheaper."}, "We'll keep the boxes"},
		{"a view, then a decision", []string{"DB?", "Postgres or MySQL.", "Our DBA thinks MySQL is fine but we decided to go with Postgres."}, "Our DBA thinks MySQL is fine but we decided to go with Postgres"},
		{"meeting a target", []string{"Shifts?", "Cut two shifts to hit the 10% target.", "We'll meet the 10% target by cutting two shifts."}, "We'll meet the 10% target by cutting two shifts"},
	})
}

// TestTakesUpSuggestion checks a reply's "I'll" and a verb that carries out
// a plan, in the words the assistant used: taking up what it laid out. A
// verb that prepares ("I'll get quotes") stays a task.
func TestTakesUpSuggestion(t *testing.T) {
	const genes = "Run Tbp, Rplp0 and Ppia on all 48 samples on one plate, then normalise to the geometric mean of the two most stable by NormFinder."
	checkTurns(t, []turnsCase{
		{"its words", []string{"GAPDH moves with fasting.", genes, "I'll run Tbp, Rplp0 and Ppia on all 48 samples on one plate and normalise to the geometric mean."},
			"I'll run Tbp, Rplp0 and Ppia on all 48 samples on one plate and normalise to the geometric mean"},
		{"other words", []string{"GAPDH moves with fasting.", genes, "I'll run a western blot on the liver lysates tomorrow."}, ""},
		{"a task", []string{"Which EOR?", "Get quotes from Deel and Remote before you commit to an EOR.", "I'll get quotes from Deel and Remote this week before we commit to an EOR."}, ""},
	})
}
